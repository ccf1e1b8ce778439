#!/bin/sh
# bench/explain-aa.sh - the explanation's A/A rate on this machine, for
# real: SESSIONS sessions of `perfreg run -n RUNS` whose two variants are
# the same command (seed 002's pipeline, a pipe into a digest), with the
# default monitors; counts the sessions whose explanation names a side
# metric as changed, and lists what it named.
#
# usage: bench/explain-aa.sh BUILD_DIR [SESSIONS [RUNS]]
set -eu
build=${1:?usage: explain-aa.sh BUILD_DIR [SESSIONS [RUNS]]}
sessions=${2:-20}
runs=${3:-10}
perfreg=$build/perfreg
cmd='dd if=/dev/zero bs=1M count=20 2>/dev/null | openssl dgst -sha256 >/dev/null'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "A/A: $sessions sessions of $runs runs a side of a=b='$cmd'; load average $(cut -d' ' -f1-3 /proc/loadavg)"
empty=0
i=1
while [ "$i" -le "$sessions" ]; do
	"$perfreg" run -n "$runs" --seed "$i" --shell --json a="$cmd" b="$cmd" \
	    > "$tmp/s.json" 2> /dev/null
	line=$(python3 -c "
import json, sys
e = json.load(open(sys.argv[1]))['explanation']
named = [m['metric'] for m in e['metrics'] if m['changed']]
print('%d %d %s' % (len(named), e['tested'], ' '.join(named)))" "$tmp/s.json")
	set -- $line
	[ "$1" -eq 0 ] && empty=$((empty + 1))
	echo "session $i: $1 of $2 side metrics named${3:+: }$(echo "$line" | cut -d' ' -f3-)"
	i=$((i + 1))
done
echo "empty explanations: $empty of $sessions; load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
