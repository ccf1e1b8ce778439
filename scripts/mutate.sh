#!/bin/sh
# scripts/mutate.sh - a small mutation check: plants single-line bugs, one
# at a time, and reports which of them the tests fail to catch.
#
# usage: scripts/mutate.sh [-l LIST] [-k] [-a] [NAME...]
#   -l LIST  the list of mutations (default scripts/mutations.txt)
#   -k       keep the scratch tree and print where it is
#   -a       run the whole test suite for every mutation, not only the
#            tests the list names (slower, never less strict)
#   NAME...  only these mutations (default: all)
#
# Each mutation in LIST is one line of four or five fields separated by
# tabs: a name, a file (relative to the repository), the exact text to
# find, its replacement, and optionally a ctest -R regex of the tests
# expected to catch it (empty: every test).  Blank lines and lines
# starting with '#' are comments.  The text is matched literally and must
# occur exactly once in the file, so that an anchor moved or changed by
# someone's edit is an error ("anchor not found") rather than a mutation
# silently planted elsewhere; no line numbers are used.
#
# The working tree is never touched: the tracked and untracked-but-not-
# ignored files are copied into a scratch directory, configured once
# with the dev preset and built; then each mutation is applied to the
# copy, the tree is rebuilt incrementally and the tests are run (each
# test at most 300 s, so that a mutant that makes a test hang counts as
# caught by the timeout), and the file is restored.  A mutation is CAUGHT
# when a test fails, SURVIVED when all pass, and BROKEN when the mutant
# does not compile or its anchor is missing (the list needs updating).
# Exit status: 0 when every mutation was caught, 1 when one survived or
# was broken, 2 on bad usage.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
list=$root/scripts/mutations.txt
keep=0
all=0
while getopts l:ka opt; do
	case $opt in
	l) list=$OPTARG ;;
	k) keep=1 ;;
	a) all=1 ;;
	*)
		echo "usage: scripts/mutate.sh [-l list] [-k] [-a] [name...]" >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
[ -r "$list" ] || {
	echo "mutate.sh: $list: cannot read the list of mutations" >&2
	exit 2
}
jobs=${MUTATE_JOBS:-2}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/perfreg-mutate.XXXXXX")
if [ "$keep" = 1 ]; then
	echo "mutate.sh: scratch tree in $scratch"
else
	trap 'rm -rf "$scratch"' EXIT
fi
tree=$scratch/tree
mkdir "$tree"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
    xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh |
    tar --null -T - -cf -) | (cd "$tree" && tar -xf -)

log=$scratch/log
echo "== mutate: building the unmutated scratch tree"
if ! (cd "$tree" && cmake --preset dev >"$log" 2>&1 &&
    cmake --build --preset dev -j "$jobs" >>"$log" 2>&1) </dev/null; then
	cat "$log" >&2
	echo "mutate.sh: the unmutated tree does not build" >&2
	exit 1
fi

# apply FILE FROM TO: replaces the single occurrence of FROM in FILE by
# TO; status 3 when FROM is missing, 4 when it occurs more than once.
apply() {
	python3 - "$1" "$2" "$3" <<'EOF'
import sys
path, old, new = sys.argv[1], sys.argv[2], sys.argv[3]
with open(path, encoding="utf-8") as f:
    text = f.read()
n = text.count(old)
if n != 1:
    sys.exit(3 if n == 0 else 4)
with open(path, "w", encoding="utf-8") as f:
    f.write(text.replace(old, new, 1))
EOF
}

caught=0
survived=0
broken=0
total=0
report=$scratch/report
: >"$report"
tab=$(printf '\t')
while IFS="$tab" read -r name file from to tests; do
	case $name in '' | '#'*) continue ;; esac
	if [ $# -gt 0 ]; then
		want=0
		for n in "$@"; do [ "$n" = "$name" ] && want=1; done
		[ "$want" = 1 ] || continue
	fi
	total=$((total + 1))
	[ "$all" = 1 ] && tests=
	if [ ! -f "$tree/$file" ]; then
		echo "BROKEN    $name: $file: no such file" | tee -a "$report"
		broken=$((broken + 1))
		continue
	fi
	cp "$tree/$file" "$scratch/orig"
	set +e
	apply "$tree/$file" "$from" "$to"
	rc=$?
	set -e
	if [ "$rc" != 0 ]; then
		[ "$rc" = 3 ] && why="anchor not found" || why="anchor not unique"
		echo "BROKEN    $name: $file: $why: $from" | tee -a "$report"
		broken=$((broken + 1))
		continue
	fi
	echo "== mutate: $name ($file)"
	if ! (cd "$tree" && cmake --build --preset dev -j "$jobs") \
	    </dev/null >"$log" 2>&1; then
		echo "BROKEN    $name: the mutant does not compile" |
		    tee -a "$report"
		grep -m 3 'error' "$log" >&2 || true
		broken=$((broken + 1))
	elif (cd "$tree" && PERFREG_REQUIRE_PG=${PERFREG_REQUIRE_PG:-1} \
	    ctest --preset dev -j "$jobs" --timeout 300 \
	    ${tests:+-R "$tests"}) </dev/null >"$log" 2>&1; then
		echo "SURVIVED  $name: $file: '$from' -> '$to'" |
		    tee -a "$report"
		survived=$((survived + 1))
	else
		failed=$(sed -n \
		    's/^[[:space:]]*[0-9][0-9]* - \([^ ]*\) .*/\1/p' "$log" |
		    tr '\n' ' ')
		echo "CAUGHT    $name: by ${failed:-the tests}" | tee -a "$report"
		caught=$((caught + 1))
	fi
	# Restore the file with a fresh time stamp, so that the next build
	# recompiles what the mutant changed.
	cp "$scratch/orig" "$tree/$file"
	touch "$tree/$file"
done <"$list"

echo "== mutate: $caught of $total caught, $survived survived," \
    "$broken broken"
sort "$report"
[ "$survived" = 0 ] && [ "$broken" = 0 ] && [ "$total" -gt 0 ]
