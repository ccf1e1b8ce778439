#!/bin/sh
# `perfreg env` on the real machine (not golden: the machine varies):
# the snapshot has the keys every Linux system gives, --json reads back
# (a diff of a snapshot against itself finds nothing), and what cannot be
# read is printed as unavailable, never as an error.
set -u
PERFREG=$1
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {
	if ! eval "$2"; then
		echo "cli_env: FAIL: $1" >&2
		fail=1
	fi
}

"$PERFREG" env --json >"$tmp/env.json" 2>"$tmp/err"
check "env --json exits 0" '[ $? -eq 0 ]'
check "env --json prints nothing on stderr" '[ ! -s "$tmp/err" ]'
for k in kernel.name kernel.release kernel.version kernel.cmdline \
    clocksource.current clocksource.available cpu.model cpu.flags \
    cpu.threads cpu.governor mem.total thp.enabled modules \
    sysctl.vm.swappiness libc.version compiler tool.openssl kernel.log; do
	check "key $k" "grep -q '\"key\": \"$k\"' '$tmp/env.json'"
done
check "kernel.name is Linux" \
    "grep -A2 '\"key\": \"kernel.name\"' '$tmp/env.json' | grep -q '\"value\": \"Linux\"'"
"$PERFREG" env diff "$tmp/env.json" "$tmp/env.json" >"$tmp/diff" 2>&1
check "env diff of itself exits 0" '[ $? -eq 0 ]'
check "env diff of itself finds nothing" "grep -q 'no item differs' '$tmp/diff'"
check "env diff of itself: no log line" \
    "grep -Eq 'kernel log(, normalised: 0 lines only in A, 0 only in B|: not compared)' '$tmp/diff'"
"$PERFREG" env --json >"$tmp/env2.json" 2>/dev/null
"$PERFREG" env diff "$tmp/env.json" "$tmp/env2.json" --json >"$tmp/diff2"
check "env diff --json of two captures exits 0" '[ $? -eq 0 ]'
check "two captures in a row differ in no relevant item" \
    "! grep -q '\"relevant\": true' '$tmp/diff2'"
"$PERFREG" env >"$tmp/text" 2>&1
check "env exits 0" '[ $? -eq 0 ]'
check "env text has categories" "grep -q '^\[kernel\]' '$tmp/text' && grep -q '^\[clock\]' '$tmp/text'"
"$PERFREG" env --root /nonexistent --no-tools >"$tmp/none" 2>&1
check "an unreadable tree is unavailable, exit 0" '[ $? -eq 0 ]'
check "an unreadable tree prints unavailable" \
    "grep -q 'kernel.release  *unavailable: not present' '$tmp/none'"
"$PERFREG" env --bogus >/dev/null 2>&1
check "unknown option exits 2" '[ $? -eq 2 ]'
# Stored snapshots as operands: sessions and campaign variants.
for v in a b; do
	"$PERFREG" run --db "$tmp/e.db" --campaign c --variant $v -n 1 \
	    --warmup 0 -- true >/dev/null 2>&1
done
"$PERFREG" env diff --db "$tmp/e.db" session:1 session:2 >"$tmp/sd" 2>&1
check "env diff session:1 session:2 exits 0" '[ $? -eq 0 ]'
check "env diff of sessions names them" \
    "grep -q 'A = session:1, B = session:2' '$tmp/sd'"
"$PERFREG" env diff --db "$tmp/e.db" --campaign c a b >"$tmp/cd" 2>&1
check "env diff --campaign exits 0" '[ $? -eq 0 ]'
check "env diff --campaign compares the variants" \
    "grep -q 'A = a, B = b' '$tmp/cd'"
"$PERFREG" env diff --db "$tmp/e.db" session:9 session:2 >"$tmp/se" 2>&1
check "env diff of a missing session exits 2" '[ $? -eq 2 ]'
check "env diff of a missing session: one line" \
    "[ \$(wc -l < '$tmp/se') -eq 1 ] && grep -q 'no session 9' '$tmp/se'"
"$PERFREG" env diff --db "$tmp/e.db" --campaign c a zz >"$tmp/ze" 2>&1
check "env diff of an unknown variant exits 2" '[ $? -eq 2 ]'
exit $fail
