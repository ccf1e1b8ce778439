#!/usr/bin/python3
"""bench/bisect-monitor-noise.py - the noise of the program that
tests/monitor/cli_bisect_monitor.sh bisected before 1a79463 (seeded with
getpid() * 2654435761 ^ tv_nsec, then 12 steps of the LCG 1103515245,
12345 mod 2^32, z = the sum of the top 24 bits / 2^24 - 6), checked for
the bias or correlation that could make two builds that print the same
level differ (the false "+1.6% at edit 6", bench/README.md).  Prints the
mean, sd and lag-1 correlation of z for random seeds, for consecutive
pids with random nanoseconds, and with a microsecond clock; an iid sum
of 12 uniforms less 6 has mean 0, sd 1, correlation 0.
Usage: /usr/bin/python3 bench/bisect-monitor-noise.py (numpy)."""
import numpy as np

M = 2**32


def z_of(seed):
    s = seed.astype(np.uint64) % M
    z = np.zeros(len(s))
    for _ in range(12):
        s = (s * 1103515245 + 12345) % M
        z += (s >> 8) / 16777216.0
    return z - 6


rng = np.random.default_rng(1)
z = z_of(rng.integers(0, M, size=10**6, dtype=np.uint64))
print("random seeds: mean %.4f sd %.4f" % (z.mean(), z.std()))
pid = np.arange(1000, 1000 + 200000, dtype=np.uint64)
ns = rng.integers(0, 10**9, size=len(pid), dtype=np.uint64)
z2 = z_of((pid * 2654435761) % M ^ ns)
print("consecutive pids, random nsec: mean %.4f sd %.4f lag-1 corr %.4f"
      % (z2.mean(), z2.std(), np.corrcoef(z2[:-1], z2[1:])[0, 1]))
for par in (0, 1):
    print("  pid %% 2 == %d: mean %.4f" % (par, z2[(pid % 2) == par].mean()))
ns3 = rng.integers(0, 10**6, size=len(pid), dtype=np.uint64) * 1000
z3 = z_of((pid * 2654435761) % M ^ ns3)
print("consecutive pids, microsecond clock: mean %.4f sd %.4f lag-1 corr %.4f"
      % (z3.mean(), z3.std(), np.corrcoef(z3[:-1], z3[1:])[0, 1]))
