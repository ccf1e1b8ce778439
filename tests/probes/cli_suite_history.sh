#!/bin/sh
# tests/probes/cli_suite_history.sh - what `perfreg suite` says about the
# history of its figures after storing a session.  Five sessions of the
# syscall probe are stored, then every value they hold is set to 10^6
# ns (with a spread of 0.1% between runs) in the database (sqlite3), so
# that the sixth session, measured as usual (some thousand ns a call at
# most, even under ASan on a loaded machine), stands far below the five
# before it: its report must say that the session may start a change of
# -90% or more (never below -100%) in the probe's figures, how many more
# sessions would tell, and the --json report must carry the same lines.
# With three sessions before (too few) nothing is said.  Session 7 is
# planted against session 6 the same way.  The machine's own values
# decide nothing: the planted level is far beyond their noise (planting
# a factor of ten on the measured values was not: their spread between
# sessions at load 25 under ASan was 26%).
#
# usage: cli_suite_history.sh PERFREG
set -u
P=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset PERFREG_DB XDG_DATA_HOME
db=$tmp/s.db
fails=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

run() { # what [args]
	what=$1
	shift
	"$P" suite run syscall --quick --budget 1 --db "$db" "$@" \
	    >"$tmp/out" 2>"$tmp/err" || fail "$what: $(cat "$tmp/err")"
}

for i in 1 2 3; do
	run "session $i"
done
run "session 4"
grep -q "^history:" "$tmp/out" &&
    fail "a history note with 3 sessions before: $(cat "$tmp/out")"
run "session 5"
plant() { # the sessions whose values are set to 10^6 ns and a 0.1% spread
	sqlite3 "$db" "UPDATE run_metric SET value = 1e6 + (run_id % 7) * 150
	    WHERE run_id IN (SELECT id FROM run WHERE session_id IN ($1));" ||
	    fail "sqlite3 update of sessions $1"
}
plant "1, 2, 3, 4, 5"
run "session 6"
grep -q "^history:" "$tmp/out" || fail "no history section: $(cat "$tmp/out")"
# Lines wrapped at 100 columns go on indented by 4: join them again.
awk '/^    [^ ]/ && NR > 1 { sub(/^ +/, ""); line = line " " $0; next }
    { if (NR > 1) print line; line = $0 } END { print line }' "$tmp/out" \
    > "$tmp/joined"
grep -Eq "^  history of syscall\.[a-z_]+: session 6 may start a change \(-(9[0-9]|100)(\.[0-9]*)?%\); 4 more sessions would confirm or rule it out$" \
    "$tmp/joined" || fail "no note of session 6's change: $(cat "$tmp/out")"
plant 6
run "session 7 --json" --json
grep -q '"history": \[' "$tmp/out" || fail "--json: no history: $(cat "$tmp/out")"
grep -Eq '"history of syscall\.[a-z_]+: session 7 may start a change \(-(9[0-9]|100)(\.[0-9]*)?%\); 4 more sessions would' \
    "$tmp/out" || fail "--json: no note of session 7: $(cat "$tmp/out")"
[ $fails -eq 0 ] && echo "cli_suite_history: all passed"
exit $fails
