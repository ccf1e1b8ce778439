#!/bin/sh
# bench/bisect-monitor-repro.sh PERFREG N [BISECT OPTIONS...] - the real
# command on tests/monitor/cli_bisect_monitor.sh's range with its
# program's noise as it was before 1a79463 (getpid() * 2654435761 ^
# tv_nsec through 12 steps of an LCG mod 2^32, drawn anew at every run):
# 8 commits, 16 times the work from "edit 5" on.  Runs N bisections of
# the whole range (the test's case 1: --json, a database of their own
# each) and prints how many ended with each verdict, and the headline of
# every one that did not name edit 5 alone (bench/README.md, "The false
# second change at N = 8").  Options after N go to `perfreg bisect`
# (--monitor none: the test's case 3).  Needs git, cc and python3.
set -eu
perfreg=$1
n=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR="$tmp" HOME="$tmp" GIT_CONFIG_NOSYSTEM=1 \
    GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org \
    GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
r="$tmp/r"
mkdir -p "$r" "$tmp/out"
git -C "$r" init -q -b main
i=0
while [ $i -le 8 ]; do
	mib=2
	[ $i -ge 5 ] && mib=32
	cat > "$r/prog.c" << EOF
/* version $i */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
int main(void) {
	size_t k, n = (size_t)$mib << 20;
	volatile char *p = malloc(n);
	struct timespec ts; double z = 0; unsigned s; int j;
	if (p == NULL) return 1;
	for (k = 0; k < n; k += 4096) p[k] = (char)k;
	clock_gettime(CLOCK_REALTIME, &ts);
	s = (unsigned)getpid() * 2654435761u ^ (unsigned)ts.tv_nsec;
	for (j = 0; j < 12; j++) { s = s * 1103515245u + 12345u; z += (s >> 8) / 16777216.0; }
	printf("work: %.6f\n", $mib * (1 + 0.02 * (z - 6)));
	return p[0];
}
EOF
	git -C "$r" add prog.c && git -C "$r" commit -q -m "edit $i"
	[ $i -eq 0 ] && git -C "$r" tag c0
	i=$((i + 1))
done
i=0
while [ $i -lt "$n" ]; do
	"$perfreg" bisect --repo "$r" --good c0 --bad main \
	    --build 'cc -O2 -o prog prog.c' --db "$tmp/db$i.sqlite" --json \
	    --metric 'work=^work: ([0-9.]+)$:s:lower' "$@" -- ./prog \
	    > "$tmp/out/$i.json" 2> "$tmp/out/$i.err" ||
		echo "bisection $i: exit $?: $(cat "$tmp/out/$i.err")"
	rm -f "$tmp/db$i.sqlite"
	i=$((i + 1))
done
python3 - "$tmp/out" << 'EOF'
import collections, glob, json, sys
verdicts = collections.Counter()
runs = []
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    try:
        d = json.load(open(f))
    except ValueError:
        verdicts["no report"] += 1
        continue
    verdicts[d["verdict"]] += 1
    runs.append(d["runs"])
    c = d.get("culprit") or {}
    if d["verdict"] != "culprit" or c.get("subject") != "edit 5":
        print("%s: %s" % (f.rsplit("/", 1)[-1], d["headline"]))
print("bisections %d: %s; runs %.1f a bisection" % (
    sum(verdicts.values()), ", ".join("%s %d" % kv for kv in
    sorted(verdicts.items())), sum(runs) / max(len(runs), 1)))
EOF
