#!/usr/bin/python3
"""The process values of the ten `perfreg suite --quick` sessions of
real10.db (bench/README.md, "A change carried by the processes"), the
fixture of tests/probes/test_suite.c's test_real10.

    /usr/bin/python3 tests/probes/gen_suite_real10.py real10.db \\
        > tests/data/suite/real10-units.txt

Each line: SESSION FIGURE BETTER V1 V2 V3 V4, one value a process (the
stored round) as the suite takes it (perfreg/suite.h,
pr_suite_unit_values, PR_SUITE_PROBES_VERSION 6): the best sample (the
smallest time, the largest throughput) for copy, crypto, handoff, random,
syscall and fault, the mean of the samples for the others; BETTER higher
or lower.  Computed here from the stored samples with sqlite3, apart from
the C code.  The store: the release build of main 80a9ec8, 2026-12-04
01:20-01:26 UTC on the idle machine, session 4 with
OPENSSL_ia32cap="~0x200000200000000", the others A/A.  Standard library
only.
"""
import sqlite3
import sys

BEST = ("copy", "crypto", "handoff", "random", "syscall", "fault")


def main(path):
    con = sqlite3.connect(path)
    rows = con.execute(
        "SELECT r.session_id, CAST(m.name AS TEXT), m.better, r.round, "
        "rm.value FROM run_metric rm JOIN run r ON r.id = rm.run_id "
        "JOIN metric m ON m.id = rm.metric_id JOIN session s "
        "ON s.id = r.session_id WHERE r.ok AND NOT r.warmup "
        "ORDER BY r.session_id, r.id").fetchall()
    data, higher, order = {}, {}, []
    for sid, name, better, rnd, v in rows:
        if name.startswith("mon."):
            continue
        if name not in higher:
            order.append(name)
        higher[name] = better in (1, "1", "higher")
        data.setdefault((sid, name), {}).setdefault(rnd, []).append(v)
    for sid in sorted({k[0] for k in data}):
        for name in order:
            procs = data.get((sid, name))
            if procs is None:
                continue
            if name.split(".")[0] in BEST:
                units = [max(v) if higher[name] else min(v)
                         for _, v in sorted(procs.items())]
            else:
                units = [sum(v) / len(v) for _, v in sorted(procs.items())]
            print("%d %s %s %s" % (sid, name,
                                   "higher" if higher[name] else "lower",
                                   " ".join("%.17g" % u for u in units)))


main(sys.argv[1])
