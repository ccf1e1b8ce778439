#!/bin/sh
# bench/suite-ab-aa.sh OLD NEW [N] - suite ab's A/A false calls of two
# builds of perfreg (OLD and NEW: their binaries), alternating invocation
# by invocation so that both see the same load: `suite ab syscall --a
# getppid --b getppid --quick --processes 4 -n 2 --json`, N times each
# (default 200), at nice 19.  Prints each pair's calls and, at the end,
# how many invocations of each build called a regression or an
# improvement (issue 10; bench/README.md, "suite ab, the process as the
# unit").
set -u
[ $# -ge 2 ] || { echo "usage: $0 OLD NEW [N]" >&2; exit 2; }
old=$1 new=$2 n=${3:-200}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "load $(cut -d' ' -f1-3 /proc/loadavg) $(date +%T)"
one() { # binary tag: prints the number of calls, then the figures
	nice -n 19 "$1" suite ab syscall --a getppid --b getppid --quick \
	    --processes 4 -n 2 --json > "$tmp/$2.json" 2> /dev/null
	python3 - "$tmp/$2.json" << 'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError:
    print(0, "no report")
    sys.exit(0)
r = d.get('comparison', d).get('metrics', [])
print(sum(1 for x in r if x.get('verdict') in ('regression', 'improvement')),
      ' '.join('%s:%s:%.1f:%.3g' % (x['name'], x['verdict'], x['change_pct'],
                                    x['p_value']) for x in r))
PY
}
co=0 cn=0 i=1
while [ $i -le "$n" ]; do
	o=$(one "$old" old)
	w=$(one "$new" new)
	[ "${o%% *}" -gt 0 ] && co=$((co + 1))
	[ "${w%% *}" -gt 0 ] && cn=$((cn + 1))
	echo "$i old $o | new $w"
	i=$((i + 1))
done
echo "before: $co of $n invocations called a figure; after: $cn of $n;" \
    "load $(cut -d' ' -f1-3 /proc/loadavg) $(date +%T)"
