#!/bin/sh
# Runs one golden CLI case: run_golden.sh PERFREG CASEDIR.
# CASEDIR/cmd is one shell line of arguments ("$PERFREG" is the binary);
# stdout, stderr and the exit status are compared with CASEDIR/stdout,
# CASEDIR/stderr and CASEDIR/status.  With PERFREG_UPDATE_GOLDEN=1 the
# expected files are rewritten instead.
set -u
PERFREG=$1
dir=$2
export PERFREG LC_ALL=C TZ=UTC
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

sh -c ". \"$dir/cmd\"" >"$tmp/stdout" 2>"$tmp/stderr"
echo $? >"$tmp/status"

if [ "${PERFREG_UPDATE_GOLDEN:-0}" = 1 ]; then
	cp "$tmp/stdout" "$tmp/stderr" "$tmp/status" "$dir/"
	echo "updated $dir"
	exit 0
fi
fail=0
for f in status stdout stderr; do
	if ! diff -u "$dir/$f" "$tmp/$f"; then
		echo "golden: $dir: $f differs" >&2
		fail=1
	fi
done
exit $fail
