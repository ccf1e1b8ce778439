#!/bin/sh
# cli_changepoints.sh PERFREG: `perfreg changepoints` on the series of
# tests/data/series (written by a fixed-seed script, see tests/data/README)
# and on inputs made here: the planted change found at its point with its
# direction, a flat series with none, a spike that is not a change, a
# change too recent to confirm, gating, labels from outside escaped in
# text, markdown and CSV, and bad input (one line naming file and line,
# exit 2).  No timing.
set -u
PERFREG=$1
export LC_ALL=C
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
D=tests/data/series

check() { # DESCRIPTION COMMAND...: the command must succeed
	desc=$1
	shift
	if ! "$@"; then
		echo "cli_changepoints: FAIL: $desc" >&2
		fail=1
	fi
}

# A 6% step at point 51 of 80.
"$PERFREG" changepoints --json "$D/step.txt" >"$tmp/j" 2>"$tmp/e"
check "step: exit 0" [ $? -eq 0 ]
check "step: one change" [ "$(grep -c '"point": 51,' "$tmp/j")" -eq 1 ]
check "step: no spike" grep -q '"spikes": \[\]' "$tmp/j"
"$PERFREG" changepoints --lower-is-better --no-chart "$D/step.txt" >"$tmp/o"
check "step: a regression when lower is better" \
    grep -Eq '^ +51 .*\+5\.[0-9]+%.*regression$' "$tmp/o"
"$PERFREG" changepoints --higher-is-better --no-chart "$D/step.txt" >"$tmp/o"
check "step: an improvement when higher is better" \
    grep -Eq '^ +51 .*improvement$' "$tmp/o"

# A flat series: nothing.
"$PERFREG" changepoints --no-chart "$D/flat.txt" >"$tmp/o"
check "flat: no change" grep -q '100 points: 0 changes, 0 spikes' "$tmp/o"

# A header, a label column, a 10% fall and one spike.
"$PERFREG" changepoints --column bytes_per_s --higher-is-better --no-chart \
    "$D/throughput.csv" >"$tmp/o"
check "throughput: exit 0" [ $? -eq 0 ]
check "throughput: regression at point 36, its label" \
    grep -Eq '^ +36  2026-02-08 .*-9\.[0-9]+%.*regression$' "$tmp/o"
check "throughput: the spike at point 21 is a spike" \
    grep -q 'point 21 (2026-01-21): 2.6e+09' "$tmp/o"
check "throughput: one change only" grep -q '1 change, 1 spike' "$tmp/o"
"$PERFREG" changepoints --column bytes_per_s --higher-is-better \
    --fail-on-regression "$D/throughput.csv" >/dev/null
check "throughput: --fail-on-regression exits 1" [ $? -eq 1 ]
"$PERFREG" changepoints --column bytes_per_s --lower-is-better \
    --fail-on-regression "$D/throughput.csv" >/dev/null
check "throughput: an improvement does not fail the gate" [ $? -eq 0 ]
"$PERFREG" changepoints -C 3 --csv "$D/throughput.csv" >"$tmp/o"
check "throughput: -C 3 reads the same column" \
    grep -q '^tests/data/series/throughput.csv,change,36,2026-02-08,' \
    "$tmp/o"

# Too recent to confirm.
"$PERFREG" changepoints --no-chart "$D/tail.txt" >"$tmp/o"
check "tail: possible, needs 3" \
    grep -q 'possible change at point 41: +5.[0-9]*%, too recent to confirm: 3 more points' "$tmp/o"
check "tail: not a change" grep -q '0 changes' "$tmp/o"

# From standard input, and a chart that fits 80 columns.
"$PERFREG" changepoints <"$D/step.txt" >"$tmp/o"
check "stdin: read" grep -q '^<stdin>: 80 points: 1 change' "$tmp/o"
check "chart: 80 columns" [ "$(awk '/\|/ && length > 80' "$tmp/o" | wc -l)" -eq 0 ]
check "chart: the change marked" grep -q '+-*\^' "$tmp/o"

# Labels from outside: escapes and formulas never pass raw.  They are
# written as every report writes them (report/escape.c): control bytes
# as cat -v shows them (ESC "^[", DEL "^?", the C1 control U+009B
# "M-BM-^[", a byte that is no UTF-8 "M-i"), CSV cells quoted only when
# they must be, invalid UTF-8 in JSON as U+FFFD.
esc=$(printf '\033')
{
	echo "label,value"
	i=0
	while [ $i -lt 15 ]; do echo "a$i,5.0$((i % 3))"; i=$((i + 1)); done
	printf '%s[2Jx|y\177\302\233\351,9.01\n' "$esc"
	i=0
	while [ $i -lt 14 ]; do echo "=cmd$i,9.0$((i % 3))"; i=$((i + 1)); done
} >"$tmp/hostile.csv"
"$PERFREG" changepoints "$tmp/hostile.csv" >"$tmp/o"
check "hostile: the change found" grep -q '1 change' "$tmp/o"
check "hostile: no raw ESC in text" [ "$(grep -c "$esc" "$tmp/o")" -eq 0 ]
check "hostile: ESC shown escaped" grep -qF '^[[2Jx|y^?M-BM-^[M-i' "$tmp/o"
"$PERFREG" changepoints --markdown "$tmp/hostile.csv" >"$tmp/o"
check "hostile: markdown escapes the bar" grep -qF '^[[2Jx\|y^?M-BM-^[M-i |' "$tmp/o"
LC_ALL=C sed 's/^.*\[2Jx|y.*,9.01/=cmd|'"'"' \/C calc'"'"'!A0,9.01/' "$tmp/hostile.csv" >"$tmp/formula.csv"
"$PERFREG" changepoints --csv "$tmp/formula.csv" >"$tmp/o"
check "hostile: a formula cell is neutralised" \
    grep -qF ",change,16,\"'=cmd|' /C calc'!A0\"," "$tmp/o"
"$PERFREG" changepoints --csv "$tmp/hostile.csv" >"$tmp/o"
check "hostile: CSV escapes ESC" grep -qF ',^[[2Jx|y^?M-BM-^[M-i,' "$tmp/o"
check "hostile: no raw ESC in CSV" [ "$(grep -c "$esc" "$tmp/o")" -eq 0 ]
"$PERFREG" changepoints --json "$tmp/hostile.csv" >"$tmp/o"
check "hostile: JSON escapes ESC, DEL and C1, U+FFFD for the bad byte" \
    grep -qF "\"\\u001B[2Jx|y\\u007f\\u009b$(printf '\357\277\275')\"" "$tmp/o"

# Bad input: one line naming the file and line, exit 2.
printf '1\n2\nnan\n4\n5\n' >"$tmp/nan.txt"
"$PERFREG" changepoints "$tmp/nan.txt" >/dev/null 2>"$tmp/e"
check "nan: exit 2" [ $? -eq 2 ]
check "nan: names file and line" \
    grep -q "nan.txt:3: expected a finite number, got 'nan'" "$tmp/e"
check "nan: one line" [ "$(wc -l <"$tmp/e")" -eq 1 ]
printf '1\n2\n3\n' | "$PERFREG" changepoints 2>"$tmp/e" >/dev/null
check "3 points: exit 2" [ $? -eq 2 ]
check "3 points: says so" grep -q 'at least 4 points, got 3' "$tmp/e"
printf 'when,wall_s\n# nothing yet\n' >"$tmp/header.csv"
"$PERFREG" changepoints "$tmp/header.csv" 2>"$tmp/e" >/dev/null
check "header only: exit 2 (and no leak under ASan)" [ $? -eq 2 ]
check "header only: no points" grep -q 'header.csv: no points' "$tmp/e"
: >"$tmp/empty.txt"
"$PERFREG" changepoints "$tmp/empty.txt" 2>"$tmp/e" >/dev/null
check "empty: exit 2" [ $? -eq 2 ]
check "empty: no points" grep -q 'empty.txt: no points' "$tmp/e"
"$PERFREG" changepoints --column nosuch "$D/throughput.csv" 2>"$tmp/e" >/dev/null
check "no column: exit 2" [ $? -eq 2 ]
check "no column: named" grep -q "no column called 'nosuch'" "$tmp/e"
"$PERFREG" changepoints "$tmp/none.txt" 2>"$tmp/e" >/dev/null
check "missing file: exit 2" [ $? -eq 2 ]
"$PERFREG" changepoints --fail-on-regression "$D/step.txt" 2>"$tmp/e" >/dev/null
check "gate without direction: exit 2" [ $? -eq 2 ]
"$PERFREG" changepoints --alpha 0 "$D/step.txt" 2>"$tmp/e" >/dev/null
check "alpha 0: exit 2" [ $? -eq 2 ]
printf '5\n5\n5\n5\n5\n5\n' | "$PERFREG" changepoints >"$tmp/o" 2>"$tmp/e"
check "constant: exit 2" [ $? -eq 2 ]
check "constant: one line" [ "$(wc -l <"$tmp/e")" -eq 1 ]
check "constant: all equal" grep -q '<stdin>: 6 points, all equal: nothing to detect' "$tmp/e"
check "constant: no report" [ ! -s "$tmp/o" ]
# A straight line has no noise between neighbours either, but its points
# are not "all equal" (they were said to be).
printf '1\n2\n3\n4\n5\n6\n' | "$PERFREG" changepoints >"$tmp/o"
check "straight line: said so" grep -q '6 points on a straight line' "$tmp/o"
check "straight line: not all equal" sh -c "! grep -q 'all equal' '$tmp/o'"

# CSV quotes: a quoted label holds commas, '#' and "" (one quote); the
# change's label is read whole, and the value after it is the point's.
{
	i=0
	while [ $i -lt 12 ]; do
		case $i in
		6) printf '"6.1, rc2 ""x"" # y",%s\n' 20.1 ;;
		*) v=10; [ $i -gt 6 ] && v=20
		   printf '"k, %d",%s.%d\n' $i $v $((i % 3)) ;;
		esac
		i=$((i + 1))
	done
} >"$tmp/quoted.csv"
"$PERFREG" changepoints --no-chart "$tmp/quoted.csv" >"$tmp/o" 2>"$tmp/e"
check "quoted CSV: exit 0 ($(cat "$tmp/e"))" [ $? -eq 0 ]
check "quoted CSV: 12 points" grep -q '12 points: 1 change' "$tmp/o"
check "quoted CSV: the label whole" grep -q '^ *7  6.1, rc2 "x" # y ' "$tmp/o"
"$PERFREG" changepoints --help >/dev/null
check "--help: exit 0" [ $? -eq 0 ]

exit $fail
