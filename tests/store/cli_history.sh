#!/bin/sh
# tests/store/cli_history.sh - `perfreg history` end to end: a real git
# repository made here (36 commits), a campaign with one session a commit
# stored by `perfreg run --campaign` in that work tree (so each session
# carries git=COMMIT), the metric read from the command's output with
# --metric.  The figure is planted: level 100 with noise 0.5 (fixed
# pseudo-random values), and 110 from the 25th commit on.  History by
# commit must find the change at that commit and nothing else; a flat
# campaign must find nothing; --by tag and --by time order as asked; bad
# input is one line and exit 2.  No timing is checked.
#
# usage: cli_history.sh PERFREG
set -u
P=$1
. "$(dirname "$0")/testlib.sh"
export PERFREG_DB="$tmp/perfreg.db"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com
export GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com

repo=$tmp/repo
mkdir "$repo" && git -C "$repo" init -q -b main || exit 2
# The values of session k, run r: a fixed table, so the test is the same
# every time (awk's srand with a seed is deterministic).
values() { # k level
	awk -v k="$1" -v lvl="$2" 'BEGIN { srand(1000 + k);
	    for (r = 0; r < 6; r++) { u = 0; for (j = 0; j < 12; j++) u += rand();
	    printf "%.4f\n", lvl + 0.5 * (u - 6) } }'
}
k=0
while [ $k -lt 36 ]; do
	echo "edit $k" >"$repo/file.c"
	git -C "$repo" add file.c && git -C "$repo" commit -q -m "commit $k"
	lvl=100
	[ $k -ge 24 ] && lvl=110
	values $k $lvl >"$tmp/v"
	# Each run prints the next value (the runs of a session read the
	# file in order: a counter file keeps the position).
	echo 0 >"$tmp/pos"
	(cd "$repo" && "$P" run --campaign slow --variant bench -n 5 --warmup 0 \
	    --metric 't=t=(\S+):s:lower' --tag "kernel=6.1.$((k / 6))" --shell -- \
	    "n=\$(cat $tmp/pos); n=\$((n + 1)); echo \$n >$tmp/pos; echo t=\$(sed -n \${n}p $tmp/v)") \
	    >/dev/null 2>"$tmp/err" || fail "run $k: $(cat "$tmp/err")"
	cp "$tmp/err" "$tmp/slow.$k"
	values $k 100 >"$tmp/v"
	echo 0 >"$tmp/pos"
	(cd "$repo" && "$P" run --campaign flat --variant bench -n 5 --warmup 0 \
	    --metric 't=t=(\S+):s:lower' --shell -- \
	    "n=\$(cat $tmp/pos); n=\$((n + 1)); echo \$n >$tmp/pos; echo t=\$(sed -n \${n}p $tmp/v)") \
	    >/dev/null 2>"$tmp/err" || fail "flat run $k: $(cat "$tmp/err")"
	cat "$tmp/err" >>"$tmp/flat.all"
	k=$((k + 1))
done
c24=$(git -C "$repo" rev-list --reverse HEAD | sed -n 25p | cut -c1-12)

# What `run --campaign` says after storing each session: the session of
# the 25th commit may start a change, and the one 4 sessions later (the
# 5th at the new level) confirms it; the flat campaign never confirms one.
s24=$(grep -o "session [0-9]* stored" "$tmp/slow.24" | cut -d' ' -f2)
has "$tmp/slow.24" "run: history of 'slow' variant bench, t: session $s24 may start a change (+10\.[0-9]*%); 4 more sessions would" \
    "note after the 25th commit"
has "$tmp/slow.28" "run: history of 'slow' variant bench, t: session [0-9]* confirms a change that starts at session $s24: +[0-9.]*% \[.*\], regression" \
    "note after the 29th commit"
n=$(cat "$tmp"/slow.* | grep -c "confirms a change")
[ "$n" -eq 1 ] || fail "slow: one confirming note, got $n"
! grep -q "confirms a change" "$tmp/flat.all" || fail "flat: a confirming note: $(grep confirms "$tmp/flat.all")"
grep -q "history of" "$tmp/slow.3" && fail "a note with 4 sessions"

"$P" history slow --by commit --repo "$repo" --no-chart >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] || fail "history slow: $(cat "$tmp/err")"
has "$tmp/out" "36 points: 1 change" "history slow: one change"
has "$tmp/out" "^ *25  $c24 " "history slow: the change at the 25th commit"
has "$tmp/out" "+10\.[0-9]*%.*regression$" "history slow: +10%, a regression"
"$P" history slow --by commit --repo "$repo" --fail-on-regression >/dev/null 2>&1
[ $? -eq 1 ] || fail "history slow --fail-on-regression: exit 1"
"$P" history slow --by commit --repo "$repo" --json >"$tmp/out"
has "$tmp/out" '"point": 25,' "history slow --json: point 25"
has "$tmp/out" "\"label\": \"$c24" "history slow --json: its commit"

"$P" history flat --by commit --repo "$repo" --no-chart >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] || fail "history flat: $(cat "$tmp/err")"
has "$tmp/out" "36 points: 0 changes, 0 spikes" "history flat: nothing"

# By time (the sessions' order) and by a tag: the same change.
"$P" history slow --no-chart >"$tmp/out"
has "$tmp/out" "by time: 36 points: 1 change" "history by time"
"$P" history slow --by tag:kernel --no-chart >"$tmp/out"
has "$tmp/out" "^ *25  6.1.4 s" "history by tag: the tag labels the point"

# Bad input: one line, exit 2.
"$P" history nosuch >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "unknown campaign: exit 2"
one_line_error "$tmp/err" "unknown campaign"
"$P" history slow --metric nosuch >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "unknown metric: exit 2"
has "$tmp/err" "has metric 'nosuch'" "unknown metric"
"$P" history slow --variant nosuch >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "unknown variant: exit 2"
one_line_error "$tmp/err" "unknown variant"
mkdir "$tmp/notgit"
"$P" history slow --by commit --repo "$tmp/notgit" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "not a git repository: exit 2"
one_line_error "$tmp/err" "not a git repository"
has "$tmp/err" "is not a git repository" "not a git repository"
git -C "$repo" checkout -q -b other HEAD~20
"$P" history slow --by commit --repo "$repo" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "commit not on the history: exit 2"
has "$tmp/err" "is not on the first-parent history of HEAD" "commit not an ancestor"
"$P" history slow --by nonsense >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "--by nonsense: exit 2"
"$P" history slow --since 2026-13-45 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "--since bad date: exit 2"
"$P" history slow --since 2999-01-01 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "--since after every session: exit 2"
has "$tmp/err" "0 sessions of .slow. ran variant .bench. in the time given" "--since after every session"
# A metric equal in every session: nothing to detect, said in one line.
for k in 1 2 3 4 5 6; do
	"$P" run --campaign same --variant bench -n 3 --warmup 0 \
	    --metric 't=t=(\S+):s:lower' --shell -- 'echo t=5' \
	    >/dev/null 2>"$tmp/err" || fail "same run $k: $(cat "$tmp/err")"
done
"$P" history same >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] || fail "all equal: exit 2"
one_line_error "$tmp/err" "all equal"
has "$tmp/err" "same, variant bench, t: 6 points, all equal: nothing to detect" "all equal"
[ -s "$tmp/out" ] && fail "all equal: a report on stdout"

# Repeated sessions of one build (tag build=bNN, 3 sessions each, 10
# builds, 2 runs each): their spread is the noise (noise_from "repeats",
# 20 degrees of freedom, the pooled standard deviation that Python
# computes here, exactly), and the +10% from build b06 on is found at its
# first session; by time the tag plays no part and the noise is the
# neighbours' again.
#
# Repeats whose noise the detector cannot take (review finding 3b of
# session 10: the command failed instead of falling back).  "big": the
# same shape as "rep" at 1e200 times the scale, where the squares of
# the repeats' spread overflow a double: the noise is still the repeats'
# (in units of 1e195 here).  "far": five builds near 1e-10 whose repeats
# are a few units of the last place apart, then five at 1e300: that
# noise, 1e-26 beside values of 1e300, is out of range for the detector,
# so the noise is the neighbours' learnt one, and the step at build b05
# is found.  (Both exited 2 before: "the noise must be a finite standard
# deviation >= 0" and "the noise 1.83e-26 is out of range for values of
# magnitude 1e+300".)  The step's change in percent, 1e300 over 1e-10,
# is beyond a double: its JSON is null (its --json said "out of memory",
# exit 3, before).
python3 - "$tmp" <<'PY'
import json, math, sys
from fractions import Fraction
noise = [0.31, -0.52, 0.18, 0.07, -0.26, 0.44, -0.13, 0.58, -0.35, 0.22,
         -0.48, 0.09, 0.36, -0.17, -0.05, 0.51, -0.29, 0.12, -0.41, 0.27,
         0.03, -0.55, 0.39, -0.08, 0.16, -0.33, 0.47, -0.21, 0.05, -0.12]
def write(name, value, runs, unit):
    out = [{"format": "perfreg-export", "version": 1, "schema": 2},
           {"type": "campaign", "name": name},
           {"type": "variant", "campaign": name, "name": "a", "command": "x"}]
    ss, df, key = Fraction(0), 0, 0
    for b in range(10):
        vals = []
        for r in range(3):
            key += 1
            v = value(b, r)
            vals.append(v)
            out.append({"type": "session", "campaign": name, "key": key,
                        "host": "h", "boot_id": "b",
                        "started": 1.7e9 + 60 * key, "elapsed_s": 1.0,
                        "status": "done", "args": None, "resumes": None,
                        "variants": [["a", "x"]],
                        "tags": [["build", "b%02d" % b]], "env": None})
            for seq, d in enumerate(runs):
                out.append({"type": "run", "session": key, "variant": "a",
                            "round": seq, "seq": seq, "warmup": False,
                            "ok": True, "outcome": "ok", "exit_status": 0,
                            "signal": 0, "reason": "", "failed_in": None,
                            "truncated": False, "start_s": 0.1 * seq,
                            "metrics": [["m", "s", "lower", v + d]],
                            "output": ""})
        m = sum(Fraction(v) for v in vals) / 3
        ss += sum((Fraction(v) - m) ** 2 for v in vals)
        df += 2
    out.append({"type": "end", "campaigns": 1, "sessions": 30, "runs": 60})
    open("%s/%s.jsonl" % (sys.argv[1], name), "w").write(
        "".join(json.dumps(o) + "\n" for o in out))
    open("%s/%s.sd" % (sys.argv[1], name), "w").write(
        "%.17g\n" % math.sqrt(ss / df / Fraction(unit) ** 2))
write("rep", lambda b, r: (100.0 if b < 6 else 110.0) + noise[3 * b + r],
      (-0.01, 0.01), 1)
write("big", lambda b, r: ((100.0 if b < 6 else 110.0) + noise[3 * b + r]) * 1e200,
      (0, 0), 10 ** 195)
write("far", lambda b, r: 1e300 if b >= 5 else 1e-10 + r * 2.6e-26, (0, 0), 1)
PY
# noise NAME FROM POINTS UNIT: history NAME by its build tag (JSON) has
# its noise from FROM (repeats: 20 df, the sd Python wrote in UNIT) and
# its changes at POINTS (a Python list), each with a verdict.
noise() {
	"$P" import --db "$tmp/$1.db" "$tmp/$1.jsonl" >/dev/null 2>"$tmp/err" ||
	    fail "$1: import: $(cat "$tmp/err")"
	"$P" history "$1" --db "$tmp/$1.db" --by tag:build --json >"$tmp/out" 2>"$tmp/err" ||
	    fail "$1: history --json: exit $?: $(cat "$tmp/err")"
	python3 - "$tmp/out" "$(cat "$tmp/$1.sd")" "$2" "$3" "$4" <<'PY' || fail "$1: the noise and the changes"
import json, sys
s = json.load(open(sys.argv[1]))["series"][0]
want, repeats = float(sys.argv[2]) * float(sys.argv[5]), sys.argv[3] == "repeats"
ok = (s["noise_from"] == sys.argv[3] and
      s["noise_df"] == (20 if repeats else 0) and
      (not repeats or abs(s["noise_sd"] - want) <= 1e-9 * want) and
      [c["point"] for c in s["changes"]] == eval(sys.argv[4]) and
      all(c["verdict"] == "regression" for c in s["changes"]))
if not ok:
    print("FAIL: noise %s %s %r (want %r), changes %r" % (
        s["noise_from"], s["noise_df"], s["noise_sd"], want, s["changes"]))
    sys.exit(1)
PY
}
noise rep repeats "[19]" 1
noise big repeats "[19]" 1e195
noise far neighbours "[16]" 1
[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["series"][0]["changes"][0]["change_pct"])' "$tmp/out")" = None ] ||
    fail "far: the change in percent beyond a double is not null"
"$P" history rep --db "$tmp/rep.db" --by tag:build >"$tmp/out" 2>"$tmp/err" ||
    fail "repeats: history: $(cat "$tmp/err")"
has "$tmp/out" "from repeats, 20 df" "repeats: the text names the noise's source"
"$P" history rep --db "$tmp/rep.db" --json >"$tmp/out" 2>"$tmp/err" ||
    fail "repeats: history by time: $(cat "$tmp/err")"
has "$tmp/out" '"noise_from": "neighbours"' "repeats: by time the noise is the neighbours'"

[ $fails -eq 0 ] && echo "cli_history: all passed"
exit $fails
