#!/bin/sh
# tests/parse/cli_inputs.sh - inputs that never end or never come
# (issue 12): a FIFO that no one writes, given to stat, compare and parse,
# must still stop on Ctrl-C (SIGINT).  (The memory cap an endless pipe
# meets is tested in test_numbers.)  Numbers from a pipe do not depend
# on TMPDIR.  Usage: cli_inputs.sh PERFREG
set -u
perfreg=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/perfreg-inputs.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0

# A background command of a non-interactive shell ignores SIGINT;
# env --default-signal gives it back its default, as a terminal's Ctrl-C
# would find it.
mkfifo "$dir/fifo" || exit 1
for args in "stat $dir/fifo" "compare $dir/fifo $dir/fifo" \
    "parse $dir/fifo"; do
	# shellcheck disable=SC2086
	env --default-signal=INT "$perfreg" $args >/dev/null 2>&1 &
	pid=$!
	sleep 0.2
	kill -INT "$pid"
	# Not a timing threshold: a generous bound that tells stopped from
	# blocked forever.
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "FAIL: perfreg $args: still blocked 30 s after SIGINT" >&2
		kill -KILL "$pid"
		fail=1
	fi
	wait "$pid"
	st=$?
	if [ "$st" -ne 130 ]; then
		echo "FAIL: perfreg $args: exit $st after SIGINT, not 130" >&2
		fail=1
	fi
done

# Numbers from a pipe are read through a memory file, not one under
# TMPDIR: the library reads no environment, so a TMPDIR that does not
# exist changes nothing (it used to fail: "cannot create a temporary
# file").
printf '1\n2\n3\n' >"$dir/three.txt"
out=$(printf '1\n2\n3\n' |
    TMPDIR="$dir/none" "$perfreg" compare --json - "$dir/three.txt" 2>&1)
st=$?
if [ "$st" -ne 0 ] || [ "$(printf '%s' "$out" | grep -c '"n": 3')" -ne 2 ]; then
	echo "FAIL: compare - with TMPDIR missing: exit $st: $out" >&2
	fail=1
fi

[ $fail -eq 0 ] && echo "cli_inputs: all passed"
exit $fail
