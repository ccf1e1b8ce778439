#!/bin/sh
# tests/probes/cli_suite_change.sh - the plan after a configuration change
# (perfreg/suite.h, PR_SUITE_CHANGE_SESSIONS = 3), end to end: a stand-in
# worker (PERFREG_SUITE_WORKER) hands back syscall's two figures, 8
# samples each, the same in every session but for a factor, and
# PERFREG_SUITE_ENV gives each session's snapshot: configuration A (the
# machine's), then B (another kernel.release).  A, A; B, B, B (twice as
# slow: each compared with A, called); then B is checked against its own
# sessions: the fourth calls nothing and says where B began and how to
# compare with A again; a fifth 10 times slower is called against B's
# sessions (not A's), fails the gate and is left out after.  Then the
# process environment's variables (OPENSSL_ia32cap) in the environment
# section of a stability check, escaped on every output.  Nothing
# depends on timing.
#
# usage: cli_suite_change.sh PERFREG
set -u
P=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
db=$tmp/c.db
unset PERFREG_DB XDG_DATA_HOME PERFREG_SUITE_ENV

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# The text with its lines joined (sentences are wrapped at 100 columns).
hasf() { # file pattern what
	tr '\n' ' ' < "$1" | tr -s ' ' > "$1.flat"
	grep -q -- "$2" "$1.flat" || fail "$3: no '$2' in $(cat "$1")"
}

# A stand-in worker, $tmp/iworker, handing back syscall's two figures at
# given factors (tests/probes/stand_in.sh: block F G).
. "$(dirname "$0")/stand_in.sh"

"$P" env --json > "$tmp/envA" || fail "env --json"
awk '/"key": "kernel.release"/ { f = 1 }
    f && /"value"/ { sub(/"value": "[^"]*"/, "\"value\": \"9.9.9-test\""); f = 0 }
    { print }' "$tmp/envA" > "$tmp/envB"
grep -q "9.9.9-test" "$tmp/envB" || fail "the changed snapshot"

session() { # config factor1 factor2 [options]
	c=$1
	block "$2" "$3"
	shift 3
	PERFREG_SUITE_ENV=$tmp/env$c PERFREG_SUITE_WORKER=$tmp/iworker \
	    "$P" suite run syscall --quick --processes 1 --db "$db" \
	    --fail-on-regression "$@" > "$tmp/out" 2> "$tmp/err"
}

session A 1 1 || fail "A 1: status $?: $(cat "$tmp/err")"
session A 1.01 0.99 || fail "A 2: status $?: $(cat "$tmp/err")"
# B's first three sessions: the change, against A's two, replicated.
for i in 3 4 5; do
	session B 2 2.01 --json
	st=$?
	[ $st -eq 1 ] || fail "B $i: the change not called: status $st: $(cat "$tmp/out")"
	tr -d ' \n' < "$tmp/out" > "$tmp/flat"
	case $i in
	3) new='3' ;;
	4) new='3,4' ;;
	5) new='3,4,5' ;;
	esac
	grep -q "\"kind\":\"change\",\"configuration\":\"[0-9a-f]*\",\"base_configuration\":\"[0-9a-f]*\",\"base_sessions\":\[1,2\],\"new_sessions\":\[$new\]" "$tmp/flat" ||
	    fail "B $i: not B's $new against A's 1, 2: $(cat "$tmp/flat")"
	grep -q '"since_session":null' "$tmp/flat" || fail "B $i: a since in a change plan"
	grep -q '"line":"2figures:2regressions' "$tmp/flat" || fail "B $i: not called"
done
[ -z "$(sqlite3 "$db" "SELECT value FROM tag WHERE session_id = 5 AND key = 'regressions'")" ] ||
    fail "B 5: a change plan stored its calls as an incident"
"$P" suite history --db "$db" > "$tmp/hist" || fail "history"
ca=$(sed -n 's/^configuration \([0-9a-f]*\), quick sessions of .*: 1 2$/\1/p' "$tmp/hist")
cb=$(sed -n 's/^configuration \([0-9a-f]*\), quick sessions of .*: 3 4 5$/\1/p' "$tmp/hist")
[ -n "$ca" ] && [ -n "$cb" ] || fail "history: the two configurations: $(cat "$tmp/hist")"
# The fourth of B: B against itself, nothing called, and where B began.
session B 2.02 2 || fail "B 6: status $?: $(cat "$tmp/out")"
head -1 "$tmp/out" | grep -q "^2 figures: 0 regressions" ||
    fail "B 6: called: $(head -1 "$tmp/out")"
hasf "$tmp/out" "stability check: nothing in the environment changed (configuration $cb): session 6 against this configuration's earlier --quick sessions (3 sessions, 3 to 5); the unit is the session" \
    "B 6: a stability check within B"
hasf "$tmp/out" "Configuration $cb began at session 3, after configuration $ca (its last session 2); its first 3 sessions were compared with that one; to compare again: perfreg suite --quick --baseline $ca" \
    "B 6: where B began, said once"
[ "$(grep -c "began at session" "$tmp/out.flat")" = 1 ] || fail "B 6: said more than once"
[ "$(sqlite3 "$db" "SELECT value FROM tag WHERE session_id = 6 AND key = 'regressions'")" = 0 ] ||
    fail "B 6: the stability check's counts not stored"
# A regression within B: called against B's sessions, not A's.
session B 20 20 --json
st=$?
[ $st -eq 1 ] || fail "B 7 (10 times slower): status $st, not 1: $(cat "$tmp/out")"
tr -d ' \n' < "$tmp/out" > "$tmp/flat"
grep -q "\"kind\":\"stability\",\"configuration\":\"$cb\",\"base_configuration\":\"$cb\",\"base_sessions\":\[3,4,5,6\],\"new_sessions\":\[7\]" "$tmp/flat" ||
    fail "B 7: not against B's own sessions: $(cat "$tmp/flat")"
grep -q "\"since_session\":3,\"since_configuration\":\"$ca\",\"since_previous_session\":2" "$tmp/flat" ||
    fail "B 7: --json has no since"
grep -q '"line":"2figures:2regressions' "$tmp/flat" || fail "B 7: not called"
[ "$(sqlite3 "$db" "SELECT value FROM tag WHERE session_id = 7 AND key = 'regressions'")" = 2 ] ||
    fail "B 7: its calls not stored"
# ... an incident of B, left out of B's next check.
session B 2 2 || fail "B 8: status $?: $(cat "$tmp/out")"
hasf "$tmp/out" "(4 sessions, 3 to 6); the unit is the session; session 7 left out: it called 2 regressions against its base" \
    "B 8: the incident left out"
# The change is still in suite history, and --baseline compares it again.
"$P" suite history --db "$db" > "$tmp/hist" || fail "history"
grep -q "^  changed since session 2: kernel.release$" "$tmp/hist" ||
    fail "history: the change not shown: $(cat "$tmp/hist")"
# B's incident 7 is left out of that side too, as it was of B's checks.
session B 2 2 --baseline "$ca"
[ $? -eq 1 ] || fail "--baseline A: the change not called again: $(cat "$tmp/out")"
hasf "$tmp/out" "against the --baseline, 2 sessions, 1 to 2 (configuration $ca)" "--baseline A"
hasf "$tmp/out" "session 7 left out: it called 2 regressions against its base" \
    "--baseline A: B's incident left out"

# What the environment explains (review of session 15, finding 3): the
# process environment's OPENSSL_ia32cap (and the like) is recorded, not
# part of the configuration, and shown by a stability check when its
# base and new session differ.  Real snapshots here (no
# PERFREG_SUITE_ENV), the stand-in worker as above.
unset OPENSSL_ia32cap OPENSSL_armcap OPENSSL_ppccap OPENSSL_s390xcap \
    OPENSSL_riscvcap GLIBC_TUNABLES MALLOC_ARENA_MAX MALLOC_ARENA_TEST \
    MALLOC_CHECK_ MALLOC_MMAP_MAX_ MALLOC_MMAP_THRESHOLD_ MALLOC_PERTURB_ \
    MALLOC_TOP_PAD_ MALLOC_TRIM_THRESHOLD_ LD_AUDIT LD_HWCAP_MASK
db=$tmp/e.db
esession() {
	block 1 1
	PERFREG_SUITE_WORKER=$tmp/iworker "$P" suite run syscall --quick \
	    --processes 1 --db "$db" "$@" > "$tmp/out" 2> "$tmp/err"
}
esession || fail "env 1: status $?: $(cat "$tmp/err")"
OPENSSL_ia32cap="~0x200000200000000" esession ||
    fail "env 2: status $?: $(cat "$tmp/err")"
hasf "$tmp/out" "stability check: configuration [0-9a-f]* is unchanged, but items outside it differ (the environment below says which): session 2 against" \
    "env 2: the stability check says the environment moved"
grep -q "^  env.OPENSSL_ia32cap  (unset) -> ~0x200000200000000$" "$tmp/out" ||
    fail "env 2: the variable not in the environment section: $(cat "$tmp/out")"
hasf "$tmp/out" "environment: the configuration is unchanged since session 1, but 1 item that moves performance differs" \
    "env 2: the environment's line"
OPENSSL_ia32cap="~0x200000200000000" "$P" env > "$tmp/env" ||
    fail "env: status $?"
grep -q "^  env.OPENSSL_ia32cap  *~0x200000200000000$" "$tmp/env" ||
    fail "perfreg env: no env.OPENSSL_ia32cap: $(cat "$tmp/env")"
# ... but not in a snapshot of another system's files (--root).
OPENSSL_ia32cap="~0x200000200000000" "$P" env --root /nonexistent --no-tools \
    > "$tmp/env" 2>&1 || fail "env --root: status $?"
grep -q "env.OPENSSL_ia32cap" "$tmp/env" && fail "env --root: this process's variable recorded"
# Restored: the same configuration, its variable shown going back.
esession --json || fail "env 3: status $?: $(cat "$tmp/err")"
tr -d ' \n' < "$tmp/out" > "$tmp/flat"
grep -q '"kind":"stability"' "$tmp/flat" || fail "env 3: not a stability check"
grep -q '"key":"env.OPENSSL_ia32cap","category":"process","kind":"removed","relevant":true,"a":"~0x200000200000000","b":null' "$tmp/flat" ||
    fail "env 3: --json has no env.OPENSSL_ia32cap: $(cat "$tmp/flat")"
# A value from outside is escaped on every output: ESC and newline
# shown, not sent; in Markdown inside a fence longer than its backticks.
v=$(printf 'glibc.x=1\033[2J```\nrm')
GLIBC_TUNABLES=$v esession --markdown || fail "env 4: status $?: $(cat "$tmp/err")"
grep -q "$(printf '\033')" "$tmp/out" && fail "env 4: --markdown sent an ESC"
grep -q '^````text$' "$tmp/out" || fail "env 4: --markdown: no fence of four: $(cat "$tmp/out")"
grep -q '^  env.GLIBC_TUNABLES  (unset) -> glibc.x=1^\[\[2J```^Jrm$' "$tmp/out" ||
    fail "env 4: --markdown: the value not shown escaped: $(cat "$tmp/out")"
for f in "" --json --csv; do
	GLIBC_TUNABLES=$v esession $f || fail "env 5 $f: status $?"
	grep -q "$(printf '\033')" "$tmp/out" && fail "env 5 $f: an ESC sent"
done

[ $fails -eq 0 ] || exit 1
echo "cli_suite_change: ok"
