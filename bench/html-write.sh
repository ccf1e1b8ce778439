#!/bin/sh
# bench/html-write.sh - how much CPU time perfreg spends writing the HTML
# page of a 1,000-metric comparison, against an earlier build in the same
# run.
#
# The data are html-data.sh's (METRICS columns, default 1000, RUNS rows,
# default 10).  Each build runs `compare B N` (text only) and `compare
# --html FILE B N` on the same files; the page's writing is the
# difference of the two CPU times (user + system, from wait4's rusage of
# each child), so that reading and the statistics cancel.  The four
# commands (two with OLD) run ROUNDS times (default 15), each round in a
# rotated order so that every command meets the same load; medians and
# minimums are printed (the minimum is the least disturbed by the other
# processes of a shared machine), with new / old ratios.  CPU time still
# grows with the load (caches and SMT siblings are shared): compare
# figures of one run only.  With CALLGRIND=1 each command also runs once
# under valgrind's callgrind, whose instruction counts do not depend on
# the load.
#
# usage: bench/html-write.sh [PERFREG [OLD]]  (default build/release/perfreg)
set -eu
P=${1:-build/release/perfreg}
OLD=${2:-}
M=${METRICS:-1000}
R=${RUNS:-10}
ROUNDS=${ROUNDS:-15}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sh "$(dirname "$0")/html-data.sh" "$tmp" "$M" "$R"
echo "== $M metrics, $R runs a side, $ROUNDS rounds; load: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp" "$ROUNDS" "${CALLGRIND:-0}" "$P" ${OLD:+"$OLD"} <<'EOF'
import os, re, statistics, subprocess, sys

tmp, rounds, cg = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
builds = [("new", sys.argv[4])] + ([("old", sys.argv[5])] if len(sys.argv) > 5 else [])
b, n = tmp + "/b.csv", tmp + "/n.csv"
cmds = []
for name, p in builds:
    cmds.append((name, "text", [p, "compare", b, n]))
    cmds.append((name, "html", [p, "compare", "--html", "%s/%s.html" % (tmp, name), b, n]))

def cpu(argv):
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
    _, status, ru = os.wait4(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):  # 1: regressions found, as compare says
        sys.exit("html-write.sh: %s exited %d" % (" ".join(argv), code))
    return (ru.ru_utime + ru.ru_stime) * 1e3

for c in cmds:  # warm-up: page cache, and the binaries' pages
    cpu(c[2])
ms = {(c[0], c[1]): [] for c in cmds}
for r in range(rounds):
    k = r % len(cmds)
    for c in cmds[k:] + cmds[:k]:
        ms[(c[0], c[1])].append(cpu(c[2]))

def show(name):
    t, h = ms[(name, "text")], ms[(name, "html")]
    d = [y - x for x, y in zip(t, h)]  # the same round's pair
    print("%s build: compare text only %.0f ms (min %.0f), --html %.0f ms "
          "(min %.0f); the page: %.0f ms (median of the rounds' "
          "differences; difference of the minimums %.0f)" %
          (name, statistics.median(t), min(t), statistics.median(h), min(h),
           statistics.median(d), min(h) - min(t)))
    return statistics.median(d), min(h) - min(t)

new = show("new")
if len(builds) > 1:
    old = show("old")
    print("ratio new / old, the page's CPU time: %.2f (medians), %.2f "
          "(minimums)" % (new[0] / old[0], new[1] / old[1]))
if len(builds) > 1:
    same = open(tmp + "/new.html", "rb").read() == open(tmp + "/old.html", "rb").read()
    print("pages of the two builds: %s" % ("identical" if same else "DIFFERENT"))

if cg:
    ir = {}
    for name, kind, argv in cmds:
        out = "%s/cg.%s.%s" % (tmp, name, kind)
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ir[(name, kind)] = int(re.search(r"^summary: (\d+)", open(out).read(), re.M).group(1))
    for name, _ in builds:
        d = ir[(name, "html")] - ir[(name, "text")]
        print("%s build, callgrind: text only %.0f M instructions, --html %.0f M; "
              "the page %.0f M" % (name, ir[(name, "text")] / 1e6, ir[(name, "html")] / 1e6, d / 1e6))
    if len(builds) > 1:
        print("ratio new / old, the page's instructions: %.2f" %
              ((ir[("new", "html")] - ir[("new", "text")]) /
               (ir[("old", "html")] - ir[("old", "text")])))
EOF
