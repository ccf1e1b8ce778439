#!/usr/bin/env python3
"""Writes a synthetic perfreg export (doc/export.md) for import benchmarks.

    gen_export.py RUNS [RUNS_PER_SESSION] > big.jsonl

One campaign "bench" with two variants; sessions of RUNS_PER_SESSION runs
(default 10000) alternating between the variants, each run with five
metrics, as `perfreg run --parse openssl` stores them.  The values come
from a fixed seed, so the file is the same on every call.  Used by
bench/store.sh (perfreg import of 10^6 runs); never commit its output.
"""
import random
import sys


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    rng = random.Random(4)
    out = sys.stdout
    w = out.write
    w('{"format":"perfreg-export","version":1,"schema":1}\n')
    w('{"type":"campaign","name":"bench"}\n')
    variants = ["6.1.0-13-amd64", "6.1.0-14-amd64"]
    cmd = "openssl speed -evp des-ede3-cbc -elapsed"
    for v in variants:
        w('{"type":"variant","campaign":"bench","name":"%s",'
          '"command":"%s"}\n' % (v, cmd))
    nsess = (runs + per - 1) // per
    done = 0
    for k in range(1, nsess + 1):
        v = variants[(k - 1) % 2]
        w('{"type":"session","key":%d,"campaign":"bench","host":"bench%d",'
          '"boot_id":"00000000-0000-4000-8000-%012d","args":null,'
          '"status":"done","started":%.17g,"elapsed_s":%.17g,'
          '"resumes":null,"tags":[["kernel","%s"]],"variants":[["%s","%s"]],'
          '"env":null}\n' % (k, k % 4, k, 1.7e9 + 3600.0 * k, per * 0.01,
                             v, v, cmd))
        n = min(per, runs - done)
        for i in range(n):
            wall = 0.01 + rng.random() * 1e-3
            w('{"type":"run","session":%d,"variant":"%s","round":%d,'
              '"seq":%d,"warmup":%s,"ok":true,"outcome":"ok",'
              '"exit_status":0,"signal":0,"reason":"","failed_in":null,'
              '"truncated":false,"start_s":%.17g,"metrics":['
              '["wall","s","lower",%.17g],["user","s","lower",%.17g],'
              '["sys","s","lower",%.17g],["maxrss","KiB","lower",%d],'
              '["des-ede3-cbc","B/s","higher",%.17g]],"output":""}\n'
              % (k, v, i, i, "true" if i == 0 else "false", i * 0.0123,
                 wall, wall * 0.8, wall * 0.1, 4000 + rng.randrange(100),
                 2.5e7 * (1 + rng.random() * 0.01)))
        done += n
    w('{"type":"end","campaigns":1,"sessions":%d,"runs":%d}\n'
      % (nsess, runs))


if __name__ == "__main__":
    main()
