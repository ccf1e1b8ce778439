#!/bin/sh
# tests/monitor/cli_bisect_monitor.sh PERFREG - `perfreg bisect --monitor`
# on a real git repository this script makes: a small C program over 8
# commits, one of which makes it touch 16 times the fresh memory (2 MiB
# to 32 MiB: about 7,700 more page faults a run, a side effect no load of
# a 2-core machine can hide or fake).  The figure bisected is the work
# the program reports (with 2% noise of its own, so that the machine's
# load cannot move the search; drawn from the commit and the count of
# its runs, which its work tree keeps, so that the search and its
# verdicts are the same at every run of this test: with noise drawn at
# random a bisection now and then confirmed a false second change of
# +1.6% beside the planted one, at the confirmations' 5%).  Case 2 keeps
# the counts in a directory of its own instead, which the killed session
# and its --resume share: a resume checks out fresh work trees, and a
# count kept there started again at 0, so that the resumed session drew
# the values its first session had drawn once more, each twice in the
# search's data (killed after 33 runs, as its search ended at edit 5, the
# resumed search's posterior gave 0.93 to "several" on edits 5 and 6,
# which print the same level: one step from a false second change, at a
# kill point that the machine's load moves; bench/README.md, "The false
# second change at N = 8 under load and after a resume").
# Checks that the report explains the culprit against its parent and
# names the page faults (text, Markdown, JSON), with the monitor's notes
# where a source is absent here (JSON, text), that the runs' monitor
# figures are stored (compare --campaign explains the two commits from
# the store), that --resume after SIGKILL explains from every stored run
# of both sessions, that a second bisection of the same range explains
# from its own runs only, that --monitor none has no explanation, and that a
# bad set is one line and exit 2.
set -u
perfreg=$1
. "$(dirname "$0")/../store/testlib.sh"
bisect_env

json() { # file expression on d
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# 8 commits; from commit 5 on the program touches 32 MiB, before 2 MiB.
r="$tmp/r"
mkdir -p "$r" && git -C "$r" init -q -b main || { echo "FAIL: git init"; exit 1; }
i=0
while [ $i -le 8 ]; do
	mib=2
	[ $i -ge 5 ] && mib=32
	cat > "$r/prog.c" << EOF
/* version $i */
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
	size_t k, n = (size_t)$mib << 20;
	volatile char *p = malloc(n);
	double z = 0; unsigned s, c = 0; int j;
	char path[4096] = "count";
	FILE *f;
	if (argc > 1) snprintf(path, sizeof(path), "%s/count.$i", argv[1]);
	f = fopen(path, "r");
	if (p == NULL) return 1;
	for (k = 0; k < n; k += 4096) p[k] = (char)k;
	if (f != NULL) { if (fscanf(f, "%u", &c) != 1) c = 0; fclose(f); }
	if ((f = fopen(path, "w")) != NULL) { fprintf(f, "%u\n", c + 1); fclose(f); }
	s = (c + 1) * 2654435761u ^ ($i + 1) * 40503u;
	for (j = 0; j < 12; j++) { s = s * 1103515245u + 12345u; z += (s >> 8) / 16777216.0; }
	printf("work: %.6f\n", $mib * (1 + 0.02 * (z - 6)));
	return p[0];
}
EOF
	git -C "$r" add prog.c && git -C "$r" commit -q -m "edit $i" ||
		{ echo "FAIL: git commit"; exit 1; }
	[ $i -eq 0 ] && git -C "$r" tag c0
	i=$((i + 1))
done
slow=$(git -C "$r" rev-parse --short=12 'HEAD~3')
parent=$(git -C "$r" rev-parse --short=12 'HEAD~4')
git -C "$r" log -1 --format=%s "$slow" | grep -q 'edit 5$' ||
	fail "the planted commit is not 'edit 5'"
perf=0
"$perfreg" run -n 2 --warmup 0 --monitor perf --json t=true 2> /dev/null |
    python3 -c "import json,sys; d=json.load(sys.stdin); sys.exit(0 if 'mon.perf.page_faults' in d['runs'][0]['monitors'] else 1)" &&
	perf=1
[ $perf -eq 1 ] || echo "cli_bisect_monitor: no perf counters here: the page faults are not checked by name"
# The monitor's note of a source this machine lacks (on a VM without a
# PMU: the hardware counters), as `run --monitor perf` explains with it:
# the bisection's explanations end with the same note.
absent=$("$perfreg" run -n 3 --warmup 0 --monitor perf a=true b=true 2> /dev/null |
    sed -n 's/^  note: \(.*absent.*\)$/\1/p' | head -n 1)
[ -n "$absent" ] ||
	echo "cli_bisect_monitor: no monitor source absent here: the explanation's notes are not checked"

# 1. The default monitors (JSON: with the system-wide figures per second
# beside them, more than 10 side metrics may change under load, and the
# page faults, which have no spread within a commit, rank after those
# with a share of at least 10%: the text shows the top 10): the culprit explained
# against its parent.
"$perfreg" bisect --repo "$r" --good c0 --bad main --build "$BUILD" \
    --campaign mon --json --metric "$WORK" -- ./prog > "$tmp/json" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "default: exit $rc: $(cat "$tmp/err")"
[ "$(json "$tmp/json" "d['verdict']")" = culprit ] || fail "default: no culprit"
[ "$(json "$tmp/json" "d['explanations'][0]['compared']")" = "$slow against its parent $parent" ] ||
	fail "default: compared: $(json "$tmp/json" "d.get('explanations')")"
[ "$(json "$tmp/json" "d['explanations'][0]['primary']")" = work ] || fail "default: the primary"
if [ -n "$absent" ]; then
	[ "$(ABSENT=$absent json "$tmp/json" "__import__('os').environ['ABSENT'] in d['explanations'][0]['monitor_notes']")" = True ] ||
		fail "default: the monitor's note not in the explanation: $(json "$tmp/json" "d['explanations'][0].get('monitor_notes')")"
fi
if [ $perf -eq 1 ]; then
	[ "$(json "$tmp/json" "[m['changed'] for m in d['explanations'][0]['metrics'] if m['metric'] == 'mon.perf.page_faults']")" = "[True]" ] ||
		fail "default: the page faults not changed"
fi
# With perf counters or without: the peak resident set (rusage, 2 MiB
# against 32 MiB touched) is a changed side metric.
[ "$(json "$tmp/json" "[m['changed'] for m in d['explanations'][0]['metrics'] if m['metric'] == 'maxrss_kib']")" = "[True]" ] ||
	fail "default: the peak resident set not changed"
# Stored with the runs: compare --campaign explains the two commits.
"$perfreg" compare --campaign mon --json "$(git -C "$r" rev-parse "$parent")" \
    "$(git -C "$r" rev-parse "$slow")" > "$tmp/cmp" 2> "$tmp/err" ||
	fail "compare --campaign: $(cat "$tmp/err")"
if [ $perf -eq 1 ]; then
	[ "$(json "$tmp/cmp" "[m['changed'] for m in d['comparisons'][0]['explanation']['metrics'] if m['metric'] == 'mon.perf.page_faults']")" = "[True]" ] ||
		fail "stored: the page faults not explained by compare --campaign"
fi

# Text and Markdown, the perf counters alone (10 side metrics at most:
# the top 10 shows them all).
"$perfreg" bisect --repo "$r" --good c0 --bad main --build "$BUILD" \
    --db "$tmp/text.sqlite" --monitor perf --metric "$WORK" -- ./prog > "$tmp/out" 2> "$tmp/err" ||
	fail "text: $(cat "$tmp/err")"
has "$tmp/out" "^culprit: $slow \"edit 5\": +" "text: names the slow commit"
has "$tmp/out" "^explanation of $slow against its parent $parent: work +" \
    "text: the explanation of the culprit"
[ $perf -eq 1 ] &&
	has "$tmp/out" "^  mon\.perf\.page_faults +[0-9]" "text: the page faults named"
if [ -n "$absent" ]; then
	grep -Fqx "  note: $absent" "$tmp/out" ||
		fail "text: the explanation has not the monitor's note '$absent'"
fi
"$perfreg" bisect --repo "$r" --good c0 --bad main --build "$BUILD" \
    --db "$tmp/md.sqlite" --monitor perf --markdown --metric "$WORK" -- ./prog > "$tmp/md" 2> "$tmp/err" ||
	fail "markdown: $(cat "$tmp/err")"
has "$tmp/md" "^\*\*Explanation\*\* of $slow against its parent $parent: work +" \
    "markdown: the explanation"
[ $perf -eq 1 ] && has "$tmp/md" "^- mon\.perf\.page_faults +[0-9]" "markdown: the page faults"

# 2. --resume after SIGKILL: the explanation takes the runs of both
# sessions (its page faults' runs are every stored run of the two).  The
# program's counts in $tmp/counts, which both sessions share: the resumed
# session goes on with each commit's noise where the killed one stopped
# (see the top).
log="$tmp/runs.log"
: > "$log"
mkdir -p "$tmp/counts"
"$perfreg" bisect --repo "$r" --good c0 --bad main --build "$BUILD" \
    --campaign killed --metric "$WORK" -- sh -c "./prog '$tmp/counts' && echo run >> '$log'" \
    > /dev/null 2> "$tmp/err" &
kill_after_lines $! "$log" 12
"$perfreg" bisect --resume --campaign killed --json > "$tmp/resumed" 2> "$tmp/err" ||
	fail "resume: $(cat "$tmp/err")"
[ "$(json "$tmp/resumed" "d['runs_before'] > 0")" = True ] ||
	fail "resume: nothing given back"
[ "$(json "$tmp/resumed" "d['explanations'][0]['compared']")" = "$slow against its parent $parent" ] ||
	fail "resume: no explanation of the culprit"
if [ $perf -eq 1 ]; then
	python3 - "$tmp/resumed" "$(git -C "$r" rev-parse "$parent")" "$(git -C "$r" rev-parse "$slow")" << 'EOF' ||
import json, sys
d = json.load(open(sys.argv[1]))
n = {c['hash']: c['runs'] for c in d['measured']}
m = [m for m in d['explanations'][0]['metrics'] if m['metric'] == 'mon.perf.page_faults']
sys.exit(0 if m and m[0]['changed'] and m[0]['n_base'] == n[sys.argv[2]]
	 and m[0]['n_new'] == n[sys.argv[3]] else
	 "runs %r, page faults %r" % ((n[sys.argv[2]], n[sys.argv[3]]), m))
EOF
		fail "resume: the explanation does not take every stored run"
fi

# 2b. A second bisection of the same range into the same campaign: its
# explanation takes its own runs, not the first bisection's as well; and
# with --monitor none it has none, though the campaign holds monitor
# figures of both commits.
"$perfreg" bisect --repo "$r" --good c0 --bad main --build "$BUILD" \
    --campaign mon --json --metric "$WORK" -- ./prog > "$tmp/again" 2> "$tmp/err" ||
	fail "again: $(cat "$tmp/err")"
python3 - "$tmp/again" "$(git -C "$r" rev-parse "$parent")" "$(git -C "$r" rev-parse "$slow")" << 'EOF' ||
import json, sys
d = json.load(open(sys.argv[1]))
n = {c['hash']: c['runs'] for c in d['measured']}
m = d['explanations'][0]['metrics']
nb = max(x['n_base'] for x in m)
nn = max(x['n_new'] for x in m)
sys.exit(0 if (nb, nn) == (n[sys.argv[2]], n[sys.argv[3]]) else
	 "runs %r, explained %r" % ((n[sys.argv[2]], n[sys.argv[3]]), (nb, nn)))
EOF
	fail "again: the explanation is not of this bisection's runs"
"$perfreg" bisect --repo "$r" --good c0 --bad main --build "$BUILD" \
    --campaign mon --monitor none --json --metric "$WORK" -- ./prog > "$tmp/again2" 2> "$tmp/err" ||
	fail "again, none: $(cat "$tmp/err")"
[ "$(json "$tmp/again2" "'explanations' in d")" = False ] ||
	fail "again, none: explained from the stored runs of other bisections"

# 3. --monitor none: no explanation; a bad set: one line, exit 2.
"$perfreg" bisect --repo "$r" --good c0 --bad main --build "$BUILD" \
    --db "$tmp/none.sqlite" --monitor none --json --metric "$WORK" -- ./prog > "$tmp/none" 2> "$tmp/err" ||
	fail "none: $(cat "$tmp/err")"
[ "$(json "$tmp/none" "'explanations' in d")" = False ] || fail "none: an explanation"
[ "$(json "$tmp/none" "d['verdict']")" = culprit ] || fail "none: no culprit"
"$perfreg" bisect --repo "$r" --good c0 --bad main --monitor bogus -- ./prog > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] || fail "bad set: not exit 2"
one_line_error "$tmp/err" "bad set"
has "$tmp/err" "bisect: --monitor: " "bad set: names the option"

[ $fails -eq 0 ] && echo "cli_bisect_monitor: all passed"
exit $((fails > 0))
