#!/bin/sh
# tests/bisect/cli_bisect.sh PERFREG - `perfreg bisect` on real git
# repositories this script makes: a small C program over 40 commits,
# each a small edit, one of which makes its loop do 3 times the work.
# The figure bisected is the work the program reports, with 2% noise of
# its own (normal, from its pid and clock): its wall time on a loaded
# 2-core machine comes in bursts that made the search see steps of 1% and
# fail 3 of 6 full test runs at load 13, so the test takes the machine's
# load out and keeps real noise in (the method under bursty noise is
# bench/bisect-sim's to measure).  Checks that the
# bisection names that commit (and leaves the user's dirty work tree and
# the work-tree list as they were), that a range without it is "not
# reproduced", that two slow commits are both named ("several changes"),
# that a commit that does not build is skipped, that
# --resume after SIGKILL finishes with nothing measured twice (and a
# confirmation cut short continues from its stored rounds, also the second
# of a two-change confirmation), that progress
# goes to a terminal only, and that bad input is one line and exit 2 with
# what was measured kept.
set -u
perfreg=$1
. "$(dirname "$0")/../store/testlib.sh"
bisect_env

# make_repo DIR SLOW BROKEN [SLOW2 [TENTHS]]: 40 commits; from commit SLOW
# on the loop runs 3 times longer (TENTHS / 10 times), from SLOW2 (if not
# 0) twice as long again; commit BROKEN (0: none) does not compile.
make_repo() {
	mkdir -p "$1" && git -C "$1" init -q -b main || return 1
	i=0
	while [ $i -le 40 ]; do
		f=10
		[ "$2" -gt 0 ] && [ $i -ge "$2" ] && f=${5:-30}
		[ "${4:-0}" -gt 0 ] && [ $i -ge "${4:-0}" ] && f=$((f * 2))
		{
			echo "/* version $i */"
			echo '#include <stdio.h>'
			echo '#include <time.h>'
			echo '#include <unistd.h>'
			echo "int main(void) { volatile unsigned x = $i; unsigned long k, n = 100000UL * $f;"
			[ "$3" -gt 0 ] && [ $i -eq "$3" ] && echo 'this does not compile'
			echo ' struct timespec ts; double z = 0; unsigned s; int j;'
			echo ' for (k = 0; k < n; k++) x = x * 1103515245u + 12345u;'
			echo ' clock_gettime(CLOCK_REALTIME, &ts);'
			echo ' s = (unsigned)getpid() * 2654435761u ^ (unsigned)ts.tv_nsec;'
			echo ' for (j = 0; j < 12; j++) { s = s * 1103515245u + 12345u; z += (s >> 8) / 16777216.0; }'
			printf '%s\n' ' printf("%u\nwork: %.6f\n", x, n / 1e6 * (1 + 0.02 * (z - 6))); return 0; }'
		} > "$1/prog.c"
		git -C "$1" add prog.c &&
		git -C "$1" commit -q -m "edit $i" || return 1
		[ $i -eq 0 ] && git -C "$1" tag c0
		[ $i -eq 20 ] && git -C "$1" tag c20
		i=$((i + 1))
	done
}

make_repo "$tmp/a" 23 0 || { echo "FAIL: cannot make the repository"; exit 1; }
slow=$(git -C "$tmp/a" rev-parse --short=12 'HEAD~17')
git -C "$tmp/a" log -1 --format=%s "$slow" | grep -q 'edit 23$' ||
	fail "the planted commit is not 'edit 23'"

# 1. The culprit, from a dirty work tree that stays as it is.
echo '/* my uncommitted work */' >> "$tmp/a/prog.c"
cp "$tmp/a/prog.c" "$tmp/dirty.c"
"$perfreg" bisect --repo "$tmp/a" --good c0 --bad main --build "$BUILD" \
    --campaign found --metric "$WORK" -- ./prog > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "found: exit $rc: $(cat "$tmp/err")"
has "$tmp/out" "^culprit: $slow \"edit 23\": +" "found: names the slow commit"
has "$tmp/out" "regression" "found: a regression"
has "$tmp/out" "confirmation: $slow against its parent" "found: confirmed"
cmp -s "$tmp/a/prog.c" "$tmp/dirty.c" || fail "found: the user's work tree changed"
[ "$(git -C "$tmp/a" worktree list | wc -l)" -eq 1 ] ||
	fail "found: work trees left: $(git -C "$tmp/a" worktree list)"
[ -z "$(ls "$TMPDIR")" ] || fail "found: left in TMPDIR: $(ls "$TMPDIR")"
"$perfreg" show found > "$tmp/show" 2>&1 || fail "found: show: $(cat "$tmp/show")"
has "$tmp/show" "$slow" "found: show lists the culprit's variant"
git -C "$tmp/a" checkout -q -- prog.c

# The same in JSON: the verdict, the culprit, the runs stored.
"$perfreg" bisect --repo "$tmp/a" --good c0 --bad main --build "$BUILD" \
    --db "$tmp/json.sqlite" --json --metric "$WORK" -- ./prog > "$tmp/json" 2> "$tmp/err" ||
	fail "json: $(cat "$tmp/err")"
has "$tmp/json" '"verdict": "culprit"' "json: verdict"
has "$tmp/json" "\"hash\": \"$(git -C "$tmp/a" rev-parse "$slow")\"" "json: culprit hash"

# 1a. A budget the search cannot finish within prices a build as a run:
# each build sleeps half a second and a run of the program takes
# milliseconds, so a build is priced at 5 runs or more (more than 100
# unless a run takes over 5 ms), and 20 runs leave at most 14 after the
# ends' 6 for the 4.9 bits of a range of 40 commits (about 24 runs' worth
# of builds at the least).  Whatever the verdict, the report says so and
# the JSON gives the run it began at.
"$perfreg" bisect --repo "$tmp/a" --good c0 --bad main \
    --build "sleep 0.5; $BUILD" --max-runs 20 --db "$tmp/cap.sqlite" \
    --metric "$WORK" -- ./prog > "$tmp/out" 2> "$tmp/err" ||
	fail "cap: $(cat "$tmp/err")"
has "$tmp/out" "^budget: a build priced as a run from run [0-9][0-9]* on" "cap: the text says the build's price"
"$perfreg" bisect --repo "$tmp/a" --good c0 --bad main \
    --build "sleep 0.5; $BUILD" --max-runs 20 --db "$tmp/cap2.sqlite" --json \
    --metric "$WORK" -- ./prog > "$tmp/json" 2> "$tmp/err" ||
	fail "cap json: $(cat "$tmp/err")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["build_priced_as_run_from"]
if not (isinstance(r, int) and 6 <= r <= 20):
    sys.exit("build_priced_as_run_from: %r" % (r,))
if d["runs"] > 20:
    sys.exit("runs %r over --max-runs 20" % (d["runs"],))
' "$tmp/json" || fail "cap json: build_priced_as_run_from"

# Progress goes to a terminal only: none in the pipes above, a line
# rewritten in place on a terminal (script(1) gives the run one), cleared
# before the report.
cr=$(printf '\r')
grep -q "$cr" "$tmp/err" && fail "progress: written to a pipe"
if command -v script > /dev/null 2>&1; then
	script -qec "'$perfreg' bisect --repo '$tmp/a' --good c0 --bad main \
	    --build '$BUILD' --db '$tmp/tty.sqlite' --metric '$WORK' -- ./prog" \
	    /dev/null > "$tmp/tty" 2>&1 < /dev/null || fail "tty: $(cat "$tmp/tty")"
	has "$tmp/tty" "bisect: [0-9]* runs, [0-9]* builds, at [0-9a-f]\{12\}" "tty: progress"
	has "$tmp/tty" "most likely \([0-9]* commits up to \)\{0,1\}[0-9a-f]\{12\} ([0-9]*%)" "tty: the posterior"
	has "$tmp/tty" "culprit: $slow " "tty: the report"
	script -qec "'$perfreg' bisect --repo '$tmp/a' --good c0 --bad main \
	    --build '$BUILD' --db '$tmp/tty.sqlite' --json --metric '$WORK' -- ./prog" \
	    /dev/null > "$tmp/tty" 2>&1 < /dev/null || fail "tty json: $(cat "$tmp/tty")"
	grep -q 'bisect: [0-9]* runs' "$tmp/tty" && fail "tty json: progress with --json"
	has "$tmp/tty" '"verdict": "culprit"' "tty json: the report"
fi

# 1b. git bisect run with `perfreg bisect run-step`: git names the slow
# commit; each step stored (the campaign lists the commits tested).
(cd "$tmp/a" && git bisect start main c0 > /dev/null 2>&1 &&
	git bisect run "$perfreg" bisect run-step --good c0 --build "$BUILD" \
	    --equivalence 10 --campaign steps --metric "$WORK" -- ./prog \
	    > "$tmp/gbr" 2>&1)
rc=$?
[ $rc -eq 0 ] || fail "git bisect run: exit $rc: $(tail -5 "$tmp/gbr")"
has "$tmp/gbr" "^$(git -C "$tmp/a" rev-parse "$slow") is the first bad commit" \
    "git bisect run: the slow commit"
has "$tmp/gbr" '^bad: [0-9a-f]\{12\} "edit [0-9]*": +[0-9.]*% .* regression' "git bisect run: a bad step"
has "$tmp/gbr" '^good: [0-9a-f]\{12\} "edit [0-9]*": .* equivalent' "git bisect run: a good step"
"$perfreg" show steps > "$tmp/show" 2>&1 || fail "run-step: show: $(cat "$tmp/show")"
has "$tmp/show" "$(git -C "$tmp/a" rev-parse c0)" "run-step: the good side is stored"
git -C "$tmp/a" bisect reset -q > /dev/null 2>&1
[ "$(git -C "$tmp/a" worktree list | wc -l)" -eq 1 ] ||
	fail "run-step: work trees left: $(git -C "$tmp/a" worktree list)"
# The JSON answer, and a commit that does not build: skip (125).
"$perfreg" bisect run-step --repo "$tmp/a" --good c0 --equivalence 10 \
    --db "$tmp/step.sqlite" --json --metric "$WORK" --build "$BUILD" -- ./prog \
    > "$tmp/json" 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] || fail "run-step json: exit $rc, not 1: $(cat "$tmp/err")"
has "$tmp/json" '"answer": "bad"' "run-step json: answer"
has "$tmp/json" '"exit": 1' "run-step json: exit"
cp "$tmp/a/prog.c" "$tmp/saved.c"
echo 'this does not compile' >> "$tmp/a/prog.c"
git -C "$tmp/a" commit -q -a -m broken
"$perfreg" bisect run-step --repo "$tmp/a" --good c0 --db "$tmp/step.sqlite" \
    --metric "$WORK" --build "$BUILD" -- ./prog > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 125 ] || fail "run-step broken: exit $rc, not 125: $(cat "$tmp/out" "$tmp/err")"
has "$tmp/out" '^skip: [0-9a-f]\{12\} "broken": build failed' "run-step broken: why"
git -C "$tmp/a" reset -q --hard HEAD~1
cmp -s "$tmp/a/prog.c" "$tmp/saved.c" || fail "run-step: cannot undo the broken commit"
# Bad usage and bad input stop git bisect: 255, one line.
"$perfreg" bisect run-step --repo "$tmp/a" -- ./prog > "$tmp/out" 2> "$tmp/err"
[ $? -eq 255 ] || fail "run-step no --good: not 255"
one_line_error "$tmp/err" "run-step no --good"
"$perfreg" bisect run-step --repo "$tmp/a" --good nosuch -- ./prog > "$tmp/out" 2> "$tmp/err"
[ $? -eq 255 ] || fail "run-step unknown --good: not 255"
one_line_error "$tmp/err" "run-step unknown --good"
# --good HEAD: run-step has no --bad to name (review of session 15).
"$perfreg" bisect run-step --repo "$tmp/a" --good HEAD -- ./prog > "$tmp/out" 2> "$tmp/err"
[ $? -eq 255 ] || fail "run-step --good HEAD: not 255"
one_line_error "$tmp/err" "run-step --good HEAD"
has "$tmp/err" "the commit to test (HEAD, [0-9a-f]\{12\}) is --good 'HEAD' itself" "run-step --good HEAD: said"

# 2. No slow commit between c0 and c20: not reproduced.
"$perfreg" bisect --repo "$tmp/a" --good c0 --bad c20 --build "$BUILD" \
    --equivalence 10 --campaign flat --metric "$WORK" -- ./prog > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "flat: exit $rc: $(cat "$tmp/err")"
# Under a burst of load the search may point at a commit; the
# confirmation then finds it equivalent to its parent ("not
# confirmed"): either way no commit is named.
grep -Eq '^(not reproduced|not confirmed): ' "$tmp/out" ||
	fail "flat: neither not reproduced nor not confirmed: $(cat "$tmp/out")"
grep -Eq '^(culprit|several)' "$tmp/out" && fail "flat: names a culprit"

# 3. The commit before the slow one does not build: skipped, and the
# change is located next to it.
make_repo "$tmp/b" 23 22 || { echo "FAIL: cannot make repository b"; exit 1; }
broken=$(git -C "$tmp/b" rev-parse --short=12 'HEAD~18')
slowb=$(git -C "$tmp/b" rev-parse --short=12 'HEAD~17')
"$perfreg" bisect --repo "$tmp/b" --good c0 --bad main --build "$BUILD" \
    --campaign skip --metric "$WORK" -- ./prog > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "skip: exit $rc: $(cat "$tmp/err")"
has "$tmp/out" "^skipped $broken (22): build failed: exit status 1" "skip: the broken commit"
has "$tmp/out" "^culprit: $slowb " "skip: the slow commit"

# 3b. Two slow commits (11: 3 times the work, 29: twice that): both
# located and confirmed, "several changes" naming both, in text and JSON.
make_repo "$tmp/two" 11 0 29 || { echo "FAIL: cannot make repository two"; exit 1; }
s11=$(git -C "$tmp/two" rev-parse --short=12 'HEAD~29')
s29=$(git -C "$tmp/two" rev-parse --short=12 'HEAD~11')
"$perfreg" bisect --repo "$tmp/two" --good c0 --bad main --build "$BUILD" \
    --campaign two --metric "$WORK" -- ./prog > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "two: exit $rc: $(cat "$tmp/err")"
has "$tmp/out" "^several changes: 2 commits moved work, each confirmed against its parent: $s11 \"edit 11\" +[0-9.]*% \[.*\], $s29 \"edit 29\" +[0-9.]*% \[" \
    "two: several changes naming both"
has "$tmp/out" "^confirmation: $s11 against its parent .*: regression" "two: the first confirmed"
has "$tmp/out" "^confirmation: $s29 against its parent .*: regression" "two: the second confirmed"
"$perfreg" bisect --repo "$tmp/two" --good c0 --bad main --build "$BUILD" \
    --db "$tmp/two.sqlite" --json --metric "$WORK" -- ./prog > "$tmp/json" 2> "$tmp/err" ||
	fail "two json: $(cat "$tmp/err")"
has "$tmp/json" '"verdict": "several changes"' "two json: verdict"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
got = [(c["position"], c["hash"], c["decision"]) for c in d["changes"]]
want = [(11, sys.argv[2], "regression"), (29, sys.argv[3], "regression")]
sys.exit(0 if got == want else "changes: %r" % (got,))
' "$tmp/json" "$(git -C "$tmp/two" rev-parse "$s11")" "$(git -C "$tmp/two" rev-parse "$s29")" ||
	fail "two json: both changes"

# 3c. Noise in two modes: commit 23 makes the loop 10% longer, and every
# fifth run of the benchmark (a counter file) reports 30% more work,
# fifteen times the 2% noise, so that BIC keeps a second mode (with the 3
# times slower commit of case 1 the search is done in too few runs to
# tell, and with 10% more work 2 of 5 bisections ended with one mode).
# The culprit is still named, and the posterior line and the JSON say
# that the noise has two modes, about a fifth of the runs some 30% higher.
make_repo "$tmp/m" 23 0 0 11 || { echo "FAIL: cannot make repository m"; exit 1; }
slowm=$(git -C "$tmp/m" rev-parse --short=12 'HEAD~17')
cat > "$tmp/bimodal.sh" << EOF
n=\$(cat '$tmp/count' 2> /dev/null || echo 0)
echo \$((n + 1)) > '$tmp/count'
if [ \$((n % 5)) -eq 4 ]; then
	./prog | awk '/^work: /{ printf "work: %.6f\\n", \$2 * 1.3; next } { print }'
else
	./prog
fi
EOF
"$perfreg" bisect --repo "$tmp/m" --good c0 --bad main --build "$BUILD" \
    --campaign modes --metric "$WORK" -- sh "$tmp/bimodal.sh" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "modes: exit $rc: $(cat "$tmp/err")"
has "$tmp/out" "^culprit: $slowm \"edit 23\": +" "modes: names the slow commit"
has "$tmp/out" "; noise in two modes, [12][0-9]% of the runs +[234][0-9.]*%$" "modes: the posterior line"
# The search had two modes when the confirmation began: the sign test,
# stored with its session for a resume.
has "$tmp/out" "^confirmation: $slowm against its parent .*, anytime-valid sequential sign test at 95%: regression" \
    "modes: confirmed by the sign test"
"$perfreg" show modes > "$tmp/show" 2>&1
has "$tmp/show" 'bisect\.method=sign' "modes: the sign test stored"
"$perfreg" bisect --repo "$tmp/m" --good c0 --bad main --build "$BUILD" \
    --db "$tmp/modes.sqlite" --json --metric "$WORK" -- sh "$tmp/bimodal.sh" \
    > "$tmp/json" 2> "$tmp/err" || fail "modes json: $(cat "$tmp/err")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["posterior"]
if d["culprit"]["method"] != "anytime-valid sequential sign test":
    sys.exit("method %r" % (d["culprit"]["method"],))
if d["verdict"] != "culprit" or p["noise_modes"] != 2:
    sys.exit("verdict %r, noise_modes %r" % (d["verdict"], p["noise_modes"]))
if not (0.1 <= p["second_mode_share"] <= 0.3 and 20 <= p["second_mode_pct"] <= 40):
    sys.exit("second mode: share %r, %r%%" % (p["second_mode_share"],
                                             p["second_mode_pct"]))
' "$tmp/json" || fail "modes json: two modes"

# counted_once WHAT BEFORE: the resumed bisection's JSON ($tmp/json) gives
# back the runs the benchmark made before the kill (BEFORE, counted in
# $log) and counts every run it made once; the run killed with perfreg
# may have finished unrecorded.
counted_once() {
	runs=$(sed -n 's/^  "runs": \([0-9]*\),$/\1/p' "$tmp/json")
	prior=$(sed -n 's/^  "runs_before": \([0-9]*\),$/\1/p' "$tmp/json")
	total=$(wc -l < "$log")
	[ -n "$runs" ] && [ -n "$prior" ] || fail "$1: no runs in $(cat "$tmp/json")"
	[ "${prior:-0}" -ge $(($2 - 1)) ] && [ "${prior:-0}" -le "$2" ] ||
		fail "$1: $prior runs given back, $2 made before the kill"
	[ $((total - ${runs:-0})) -ge 0 ] && [ $((total - ${runs:-0})) -le 1 ] ||
		fail "$1: the benchmark ran $total times for $runs runs"
}

# kill_in_confirmation CAMPAIGN K CLOG VERSIONS: the shell text a run of
# the benchmark ends with.  A run of the commits whose prog.c says
# "version VERSIONS" (a grep pattern), made once the store lists K
# confirmation sessions (tagged bisect.confirm) of CAMPAIGN, is counted
# in CLOG, and the 6th kills perfreg, the benchmark's parent, with
# SIGKILL, once (CLOG.killed: the resume runs the same command): 2 rounds or more of the confirmation are stored, a warm-up
# round or not, and the confirmation (7 rounds at the least: the
# sequential test cannot decide before) is cut whatever the machine's
# pace.  (A loop that polled `show` from outside could list the session
# too late under ASan on a loaded machine, after the confirmation's last
# run.)  Runs of those commits take 0.1 s more.
kill_in_confirmation() {
	printf '%s' "if grep -q 'version $4 \*/' prog.c; then sleep 0.1;" \
	    " k=\$(sqlite3 '$PERFREG_DB' \"SELECT count(DISTINCT t.session_id)" \
	    " FROM tag t JOIN session s ON s.id = t.session_id JOIN campaign c" \
	    " ON c.id = s.campaign_id WHERE CAST(t.key AS TEXT) = 'bisect.confirm'" \
	    " AND CAST(c.name AS TEXT) = '$1'\");" \
	    " if [ \"\${k:-0}\" -ge $2 ] && [ ! -e '$3.killed' ]; then" \
	    " echo c >> '$3'; [ \$(wc -l < '$3') -lt 6 ] ||" \
	    " { : > '$3.killed'; kill -9 \$PPID; }; fi; fi"
}

# 4. --resume after SIGKILL: nothing measured twice.  The benchmark
# counts its runs in a file; the bisection is killed after 15 runs.
log="$tmp/runs.log"
: > "$log"
"$perfreg" bisect --repo "$tmp/a" --good c0 --bad main --build "$BUILD" \
    --campaign killed --metric "$WORK" -- sh -c "./prog && echo run >> '$log'" \
    > /dev/null 2> "$tmp/err" &
pid=$!
n=0
while [ "$(wc -l < "$log")" -lt 15 ] && [ $n -lt 600 ]; do
	sleep 0.1
	n=$((n + 1))
done
kill -9 $pid
wait $pid 2> /dev/null
before=$(wc -l < "$log")
# Every session is stored with its refutes so far (bisect.refuted), and
# --resume keeps the largest: the killed session's count is set to 2 here
# (no planted commit is refuted), and the resumed report must say 2.
"$perfreg" show killed > "$tmp/show" 2>&1
has "$tmp/show" 'bisect\.refuted=0' "resume: the refutes are stored"
python3 -c '
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
n = db.execute("UPDATE tag SET value = ? WHERE CAST(key AS TEXT) = ? AND "
               "session_id = (SELECT max(session_id) FROM tag)",
               (b"2", "bisect.refuted")).rowcount
db.commit()
sys.exit(0 if n == 1 else "%d tags set" % n)
' "$PERFREG_DB" || fail "resume: cannot set the stored refutes"
"$perfreg" bisect --resume --campaign killed --json > "$tmp/json" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "resume: exit $rc: $(cat "$tmp/err")"
has "$tmp/json" '"verdict": "culprit"' "resume: verdict"
has "$tmp/json" '"refuted": 2,' "resume: the stored refutes kept"
has "$tmp/json" "\"hash\": \"$(git -C "$tmp/a" rev-parse "$slow")\"" "resume: culprit"
counted_once resume "$before"
[ "$(git -C "$tmp/a" worktree list | wc -l)" -eq 1 ] ||
	fail "resume: work trees left: $(git -C "$tmp/a" worktree list)"
[ -z "$(ls "$TMPDIR")" ] || fail "resume: left in TMPDIR: $(ls "$TMPDIR")"
"$perfreg" bisect --resume --campaign killed > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] || fail "resume twice: not exit 2"
one_line_error "$tmp/err" "resume twice"

# 4b. Killed during the confirmation: the resumed confirmation continues
# from its stored rounds.  Runs of commits 22 and 23 (the parent and the
# culprit) take 0.1 s more and are counted in clog, so that the kill
# comes after 4 runs of the confirmation (its session, tagged
# bisect.confirm, is what `show` lists first).
clog="$tmp/confirm.log"
: > "$clog"
"$perfreg" bisect --repo "$tmp/a" --good c0 --bad main --build "$BUILD" \
    --campaign killed2 --metric "$WORK" -- sh -c "./prog &&
	$(kill_in_confirmation killed2 1 "$clog" '2[23]')" \
    > /dev/null 2> "$tmp/err" &
wait $!
if [ $? -eq 137 ]; then
	"$perfreg" bisect --resume --campaign killed2 --json > "$tmp/json" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || fail "resume confirmation: exit $rc: $(cat "$tmp/err")"
	has "$tmp/json" '"verdict": "culprit"' "resume confirmation: verdict"
	before=$(sed -n 's/^ *"rounds_before": \([0-9]*\),$/\1/p' "$tmp/json")
	[ "${before:-0}" -ge 1 ] ||
		fail "resume confirmation: no rounds given back: $(cat "$tmp/json")"
else
	fail "resume confirmation: the bisection ended before the kill"
fi

# 4c. Killed in the middle of a two-change confirmation (repository two
# of case 3b): the first change (11, the larger step) is confirmed, the
# second (28 against 29) has run 2 of its rounds.  The resume gives the
# same answer as case 3b, does not run the finished confirmation again,
# continues the second from its stored rounds, and measures nothing
# twice.  Runs of commits 28 and 29 take 0.1 s more and are counted in
# clog; the kill comes 4 of them after `show` lists the second
# bisect.confirm session.
log="$tmp/runs3.log"
clog="$tmp/confirm3.log"
: > "$log"
: > "$clog"
"$perfreg" bisect --repo "$tmp/two" --good c0 --bad main --build "$BUILD" \
    --campaign killed3 --metric "$WORK" -- sh -c "./prog && echo run >> '$log' &&
	$(kill_in_confirmation killed3 2 "$clog" '2[89]')" \
    > /dev/null 2> "$tmp/err" &
wait $!
if [ $? -eq 137 ]; then
	before=$(wc -l < "$log")
	# The second confirmation's session names the first (11 against
	# 10): a resume counts the two, both equivalent, as one refute.
	"$perfreg" show killed3 > "$tmp/show" 2>&1
	has "$tmp/show" "bisect\.with=$(git -C "$tmp/two" rev-parse 'HEAD~30') $(git -C "$tmp/two" rev-parse "$s11")" \
	    "resume two: the second confirmation names the first"
	"$perfreg" bisect --resume --campaign killed3 --json > "$tmp/json" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || fail "resume two: exit $rc: $(cat "$tmp/err")"
	has "$tmp/json" '"verdict": "several changes"' "resume two: verdict"
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
got = [(c["position"], c["hash"], c["decision"]) for c in d["changes"]]
want = [(11, sys.argv[2], "regression"), (29, sys.argv[3], "regression")]
if got != want:
    sys.exit("changes: %r" % (got,))
first, second = d["changes"]
if first["rounds"] != first["rounds_before"]:
    sys.exit("the finished confirmation ran again: %r" % (first,))
if not 1 <= second["rounds_before"] <= second["rounds"]:
    sys.exit("the cut confirmation did not continue: %r" % (second,))
' "$tmp/json" "$(git -C "$tmp/two" rev-parse "$s11")" "$(git -C "$tmp/two" rev-parse "$s29")" ||
		fail "resume two: the changes and their confirmations"
	counted_once "resume two" "$before"
else
	fail "resume two: the bisection ended before the kill"
fi

# 5. Bad input: one line, exit 2.
bad() { # what pattern args...
	what=$1
	pat=$2
	shift 2
	"$perfreg" bisect "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$what: exit $rc, not 2: $(cat "$tmp/err")"
	one_line_error "$tmp/err" "$what"
	has "$tmp/err" "$pat" "$what"
}
mkdir -p "$tmp/plain"
git -C "$tmp/a" branch -q side c20
git -C "$tmp/a" checkout -q side
echo '/* side */' >> "$tmp/a/prog.c"
git -C "$tmp/a" commit -q -a -m side
git -C "$tmp/a" checkout -q main
bad "not a repository" "not a git repository" --repo "$tmp/plain" --good a --bad b -- ./prog
bad "unknown revision" "unknown revision 'nosuch'" --repo "$tmp/a" --good nosuch --bad main -- ./prog
bad "option-like revision" "unknown revision" --repo "$tmp/a" --good --bad=x --bad main -- ./prog
bad "good = bad" "same commit" --repo "$tmp/a" --good main --bad main -- ./prog
bad "swapped" "descendant of --bad" --repo "$tmp/a" --good main --bad c0 -- ./prog
bad "not ancestors" "not an ancestor" --repo "$tmp/a" --good side --bad main -- ./prog
bad "no benchmark" "no benchmark" --repo "$tmp/a" --good c0 --bad main
bad "hanging build" "timed out after 1 s" --repo "$tmp/a" --good c0 --bad main \
    --build 'sleep 60' --build-timeout 1 -- ./prog
[ -z "$(ls "$TMPDIR")" ] || fail "hanging build: left in TMPDIR: $(ls "$TMPDIR")"
[ "$(git -C "$tmp/a" worktree list | wc -l)" -eq 1 ] ||
	fail "hanging build: work trees left"
# A metric the benchmark does not give: exit 2, and the run is stored.
bad "missing metric" "no metric 'score'" --repo "$tmp/a" --good c0 --bad main \
    --build "$BUILD" --campaign nometric --metric score -- ./prog
"$perfreg" campaigns > "$tmp/show" 2>&1
has "$tmp/show" "nometric" "missing metric: the campaign is stored"

"$perfreg" bisect --help > "$tmp/out" 2>&1 || fail "--help"
has "$tmp/out" "usage: perfreg bisect" "--help"

[ $fails -eq 0 ] && echo "cli_bisect: all passed"
exit $((fails > 0))
