#!/bin/sh
# browser.sh PERFREG OUTDIR: the pages of --html loaded in a real browser.
# perfreg writes pages (compare on examples/002-caam, compare of inputs
# whose metric names and file names are hostile - "<script>", "\"onload=",
# "</svg>" - and changepoints on tests/data/series); headless Chromium
# loads each one and dumps its DOM, and the test checks that the browser
# logged nothing on its console (a script error, a blocked fetch, a
# violation of the page's Content-Security-Policy would all be logged),
# that the page's own script ran to its end (it marks <html
# data-sortable>), that the only script element is perfreg's, and that the
# DOM holds the expected number of metric panels and verdict cells.  A
# screenshot of each page is left in OUTDIR for a person to look at.
#
# Without chromium the test is skipped (exit 77), unless
# PERFREG_REQUIRE_CHROMIUM=1 (scripts/test.sh, CI), when it fails.
# Chromium runs as root here: --no-sandbox, a private profile in OUTDIR,
# each load under a timeout.  No timing is checked.
set -u
PERFREG=$1
OUT=$2
export LC_ALL=C
fail=0

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	if [ "${PERFREG_REQUIRE_CHROMIUM:-0}" = 1 ]; then
		echo "browser.sh: PERFREG_REQUIRE_CHROMIUM=1 but no chromium" \
		    "(scripts/deps.sh installs it)" >&2
		exit 1
	fi
	echo "browser.sh: no chromium; skipped" >&2
	exit 77
fi

rm -rf "$OUT"
mkdir -p "$OUT/profile" || exit 2
tmp=$OUT/tmp
mkdir -p "$tmp" || exit 2

check() { # DESCRIPTION COMMAND...: the command must succeed
	desc=$1
	shift
	if ! "$@"; then
		echo "html_browser: FAIL: $desc" >&2
		fail=1
	fi
}

count() { # FILE STRING: occurrences of STRING in FILE
	grep -o -F -- "$2" "$1" | wc -l | tr -d ' '
}

chrome() { # ARGS...: headless Chromium with a private profile
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
	    --no-first-run --disable-extensions --disable-sync \
	    --user-data-dir="$OUT/profile" --enable-logging=stderr --v=0 "$@"
}

# load NAME PAGE PANELS VERDICTS: the page in the browser.
load() {
	name=$1 page=$2 panels=$3 verdicts=$4
	check "$name: perfreg wrote the page" [ -s "$page" ]
	chrome --dump-dom "file://$page" >"$OUT/$name.dom" 2>"$OUT/$name.log"
	check "$name: chromium loaded the page" [ $? -eq 0 ]
	if grep -q 'CONSOLE' "$OUT/$name.log"; then
		echo "html_browser: FAIL: $name: console messages:" >&2
		grep 'CONSOLE' "$OUT/$name.log" >&2
		fail=1
	fi
	check "$name: the page's script ran to its end" \
	    grep -q '<html lang="en" data-sortable="[0-9]*">' "$OUT/$name.dom"
	check "$name: one script element, perfreg's" \
	    [ "$(count "$OUT/$name.dom" '<script')" -eq 1 ]
	check "$name: $panels metric panels" \
	    [ "$(count "$OUT/$name.dom" '<section class="panel"')" -eq "$panels" ]
	check "$name: $verdicts verdict cells" \
	    [ "$(count "$OUT/$name.dom" '<td class="verdict ')" -eq "$verdicts" ]
	chrome --screenshot="$OUT/$name.png" --window-size=1100,1600 \
	    --hide-scrollbars "file://$page" >/dev/null 2>"$OUT/$name.shot.log"
	check "$name: a screenshot" [ -s "$OUT/$name.png" ]
}

# compare on the caam example: three metrics.
"$PERFREG" compare --html "$OUT/compare.html" \
    examples/002-caam/tasklet.csv examples/002-caam/threadirq.csv >/dev/null
check "compare: exit 0" [ $? -eq 0 ]
load compare "$OUT/compare.html" 3 3

# Hostile metric names and file names: shown, never obeyed.
hd=$tmp/'"onload=alert(4) <script>alert(5)<'
mkdir -p "$hd" || exit 2
printf '%s,%s,%s\n' '<script>alert(1)</script>' '"""onload=alert(2) x="""' \
    '</svg><svg onload=alert(3)>' >"$hd/b.csv"
cp "$hd/b.csv" "$hd/n.csv"
for i in 1 2 3 4 5; do
	echo "1.$i,2.$i,3.$i" >>"$hd/b.csv"
	echo "1.$((i + 5)),2.$i,3.$((i + 1))" >>"$hd/n.csv"
done
"$PERFREG" compare --html "$OUT/hostile.html" "$hd/b.csv" "$hd/n.csv" \
    >/dev/null
check "hostile: exit 0" [ $? -eq 0 ]
load hostile "$OUT/hostile.html" 3 3
check "hostile: no attribute made by input" \
    [ "$(count "$OUT/hostile.dom" ' onload="')" -eq 0 ]
check "hostile: no element made by input" \
    [ "$(count "$OUT/hostile.dom" '<svg onload')" -eq 0 ]
check "hostile: the names are shown as text" \
    grep -q -F '&lt;script&gt;alert(1)&lt;/script&gt;' "$OUT/hostile.dom"

# A comparison of 24 metrics, every third 50% slower: the panels of the
# 16 unchanged ones (one with a hostile name) are closed, their pictures
# in a <noscript> that the page's script makes into elements when a
# panel opens; loaded with a link to one (#m2), that one is opened and
# made, the others not, and nothing from its name became markup.
cd24=$tmp/closed
mkdir -p "$cd24" || exit 2
awk -v out="$cd24" 'BEGIN {
	for (j = 1; j <= 24; j++) {
		name = j == 2 ? "<script>alert(12)</script>\"onload=alert(13) x" \
		    : "m" j
		printf "%s%s", (j > 1 ? "," : ""), name > (out "/b.csv")
		printf "%s%s", (j > 1 ? "," : ""), name > (out "/n.csv")
	}
	print "" > (out "/b.csv"); print "" > (out "/n.csv")
	for (i = 0; i < 6; i++) {
		for (j = 1; j <= 24; j++) {
			v = 10 + j + 0.1 * ((i * 7 + j) % 5)
			printf "%s%.2f", (j > 1 ? "," : ""), v > (out "/b.csv")
			printf "%s%.2f", (j > 1 ? "," : ""), \
			    (j % 3 == 0 ? 1.5 : 1) * v > (out "/n.csv")
		}
		print "" > (out "/b.csv"); print "" > (out "/n.csv")
	}
}'
"$PERFREG" compare --html "$OUT/closed.html" "$cd24/b.csv" "$cd24/n.csv" \
    >/dev/null
check "closed: exit 0" [ $? -eq 0 ]
load closed "$OUT/closed.html" 24 24
check "closed: 16 panels closed" \
    [ "$(count "$OUT/closed.dom" '<details><summary>')" -eq 16 ]
check "closed: their pictures not made" \
    [ "$(count "$OUT/closed.dom" '<noscript>')" -eq 16 ]
chrome --dump-dom "file://$OUT/closed.html#m2" >"$OUT/closed-m2.dom" \
    2>"$OUT/closed-m2.log"
check "closed #m2: loaded" [ $? -eq 0 ]
check "closed #m2: no console messages" \
    sh -c "! grep -q CONSOLE '$OUT/closed-m2.log'"
check "closed #m2: the panel a link leads to opened" \
    grep -q '<section class="panel" id="m2"><details open="">' \
    "$OUT/closed-m2.dom"
check "closed #m2: its pictures made, the others' not" \
    [ "$(count "$OUT/closed-m2.dom" '<noscript>')" -eq 15 ]
check "closed #m2: its pictures made in place" \
    grep -q '<section class="panel" id="m2"><details open=""><summary>.*</summary><p class="cap">each run a dot .*<svg class="strip"' \
    "$OUT/closed-m2.dom"
check "closed #m2: its name shown as text" \
    grep -q -F '<h3>&lt;script&gt;alert(12)&lt;/script&gt;"onload=alert(13) x ' \
    "$OUT/closed-m2.dom"
check "closed #m2: one script element, perfreg's" \
    [ "$(count "$OUT/closed-m2.dom" '<script')" -eq 1 ]
check "closed #m2: no attribute made by input" \
    [ "$(count "$OUT/closed-m2.dom" ' onload="')" -eq 0 ]

# compare --campaign: a campaign stored with hostile variant, host and
# metric names, unit and environment values (hostile_campaign.py writes
# its export): the boots' variance shares, the verdicts across hosts and
# the environment changes within a variant are tables whose cells show
# them as text, and no script of theirs runs.
PERFREG_DB=$tmp/hc.db
export PERFREG_DB
python3 "$(dirname "$0")/hostile_campaign.py" >"$tmp/hc.jsonl"
check "campaign: the export written" [ $? -eq 0 ]
"$PERFREG" import "$tmp/hc.jsonl" >/dev/null 2>"$tmp/err"
check "campaign: import: $(cat "$tmp/err")" [ $? -eq 0 ]
"$PERFREG" compare --campaign hc --html "$OUT/campaign.html" \
    >"$tmp/campaign.txt" 2>"$tmp/err"
check "campaign: exit 0: $(cat "$tmp/err")" [ $? -eq 0 ]
unset PERFREG_DB
# Three hosts' comparisons of two metrics, and the two across hosts.
load campaign "$OUT/campaign.html" 6 8
d=$OUT/campaign.dom
check "campaign: no attribute made by input" \
    [ "$(count "$d" ' onload="')" -eq 0 ]
check "campaign: no element made by input" \
    [ "$(count "$d" '<svg onload')" -eq 0 ]
check "campaign: no control byte" \
    sh -c "tr -d '\\n\\t' <'$d' | LC_ALL=C grep -vq '[[:cntrl:]]'"
check "campaign: the boots' variance shares, the metric as text" \
    grep -q -F '<table class="variance"><caption>share of a run'"'"'s variance that comes from its boot</caption><thead><tr><th>metric</th><th>base</th><th>new</th></tr></thead><tbody><tr><td>wall_s</td><td class="n">29.9%</td><td class="n">59.3%</td></tr><tr><td>m&lt;/svg&gt;&lt;svg onload=alert(27)&gt;"onload=alert(28)^[</td>' \
    "$d"
check "campaign: the verdicts across hosts, names as text" \
    grep -q -F '<section class="across"><h3>"onload=alert(22) x='"'"'&lt;/svg&gt;&lt;svg onload=alert(23)&gt;\x07 against &lt;script&gt;alert(21)&lt;/script&gt;\x1b[2J across 3 hosts</h3>' \
    "$d"
check "campaign: the across-hosts row of the hostile metric" \
    grep -q -F '<tr><td>m&lt;/svg&gt;&lt;svg onload=alert(27)&gt;"onload=alert(28)^[</td><td class="n">-19.9%</td>' \
    "$d"
check "campaign: a host's name as text" \
    grep -q -F 'on host h1&lt;script&gt;alert(24)&lt;/script&gt;:' "$d"
check "campaign: the environment within a variant, as a warning" \
    [ "$(count "$d" '<p class="warning">the environment differs within variant ')" -eq 2 ]
check "campaign: the changed value in the environment table, as text" \
    grep -q -F '<td>&lt;script&gt;alert(29)&lt;/script&gt;"onload=alert(30) &lt;/svg&gt;^[[31m' \
    "$d"
check "campaign: the added item's hostile key, as text" \
    grep -q -F '<code>x&lt;script&gt;alert(32)&lt;/script&gt;</code>' "$d"
check "campaign: the unit as text" \
    grep -q -F 's&lt;script&gt;alert(31)&lt;/script&gt;' "$d"

# --html - writes the page instead of the text report.
"$PERFREG" compare --html - examples/002-caam/tasklet.csv \
    examples/002-caam/threadirq.csv >"$tmp/stdout.html"
check "compare --html -: the page on stdout" \
    grep -q '^<!DOCTYPE html>' "$tmp/stdout.html"

# A path that is not a regular file is written in place, not renamed over.
mkfifo "$tmp/fifo" || exit 2
cat "$tmp/fifo" >"$tmp/fromfifo" &
"$PERFREG" compare --html "$tmp/fifo" examples/002-caam/tasklet.csv \
    examples/002-caam/threadirq.csv >/dev/null
check "--html FIFO: exit 0" [ $? -eq 0 ]
wait
check "--html FIFO: the page went through the pipe" \
    grep -q '^<!DOCTYPE html>' "$tmp/fromfifo"
check "--html FIFO: still a pipe" [ -p "$tmp/fifo" ]

# A file that cannot be written: one line naming it, exit 2.
"$PERFREG" compare --html "$tmp/no/such/dir/x.html" \
    examples/002-caam/tasklet.csv examples/002-caam/threadirq.csv \
    >/dev/null 2>"$tmp/err"
check "unwritable --html: exit 2" [ $? -eq 2 ]
check "unwritable --html: names the file" \
    grep -q "cannot write $tmp/no/such/dir/x.html" "$tmp/err"

if [ -f tests/data/series/step.txt ] &&
    "$PERFREG" changepoints --help 2>&1 | grep -q -- '--html'; then
	"$PERFREG" changepoints --html "$OUT/changepoints.html" \
	    tests/data/series/step.txt tests/data/series/flat.txt >/dev/null
	check "changepoints: exit 0" [ $? -eq 0 ]
	load changepoints "$OUT/changepoints.html" 2 1
fi

# history: a campaign of 12 sessions stored here, the level up by 10%
# from the 7th.
if "$PERFREG" history --help 2>&1 | grep -q -- '--html'; then
	export PERFREG_DB="$tmp/history.db"
	k=0
	while [ $k -lt 12 ]; do
		lvl=100
		[ $k -ge 6 ] && lvl=110
		"$PERFREG" run --campaign c --variant v -n 3 --warmup 0 \
		    --metric 't=t=(\S+):s:lower' --shell -- \
		    "echo t=$lvl.$k\$((\$\$ % 10))" >/dev/null 2>"$tmp/err" ||
		    check "history: run $k: $(cat "$tmp/err")" false
		k=$((k + 1))
	done
	"$PERFREG" history --by time --html "$OUT/history.html" c >/dev/null
	check "history: exit 0" [ $? -eq 0 ]
	load history "$OUT/history.html" 1 1
	unset PERFREG_DB
fi

# hostile FILE WHAT: no attribute or element made by input in FILE's DOM.
hostile() {
	check "$2: no attribute made by input" \
	    [ "$(count "$1" ' onload="')" -eq 0 ]
	check "$2: no element made by input" \
	    [ "$(count "$1" '<svg onload')" -eq 0 ]
	check "$2: no script made by input" \
	    [ "$(count "$1" '<script>alert')" -eq 0 ]
}

# run: two variants with a hostile name and command; the panels are the
# metrics the comparison tested (one verdict cell each), whatever this
# machine's runs make constant.
"$PERFREG" run -n 5 --warmup 0 --monitor none --shell \
    --html "$OUT/run.html" 'a=sleep 0.01' \
    '<script>alert(6)</script>=sleep 0.02 # "onload=alert(7) </svg><svg onload=alert(8)>' \
    >"$tmp/run.txt" 2>"$tmp/err"
check "run: exit 0: $(cat "$tmp/err")" [ $? -eq 0 ]
tested=$(count "$OUT/run.html" '<td class="verdict ')
check "run: a verdict cell per tested metric" [ "$tested" -ge 1 ]
load run "$OUT/run.html" "$tested" "$tested"
hostile "$OUT/run.dom" run
check "run: the variant's name shown as text" \
    grep -q -F '&lt;script&gt;alert(6)&lt;/script&gt;' "$OUT/run.dom"
check "run: the text report as well" grep -q '^wall_s' "$tmp/run.txt"
check "run: both sides' runs on one time axis" \
    grep -q '<svg class="order time"' "$OUT/run.dom"
"$PERFREG" run -n 3 --warmup 0 --monitor none --html - a=true b=true \
    >"$tmp/run-stdout.html" 2>/dev/null
check "run --html -: the page alone on stdout" \
    [ "$(head -c 15 "$tmp/run-stdout.html")" = '<!DOCTYPE html>' ]

# bisect: a repository of 13 commits whose 8th triples the figure and has
# a hostile subject.
if command -v git >/dev/null 2>&1; then
	r=$tmp/repo
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org \
	    GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org \
	    GIT_CONFIG_NOSYSTEM=1 HOME="$tmp" PERFREG_DB="$tmp/bisect.db"
	git init -q -b main "$r" || exit 2
	i=0
	while [ $i -le 12 ]; do
		f=1
		[ $i -ge 7 ] && f=3
		printf '# version %s\necho "work: %s.$(($$ %% 7))"\n' $i $f \
		    >"$r/prog.sh"
		subj="edit $i"
		[ $i -eq 7 ] &&
		    subj='<script>alert(9)</script> "onload=alert(10) </svg><svg onload=alert(11)>'
		git -C "$r" add prog.sh && git -C "$r" commit -q -m "$subj" ||
		    exit 2
		[ $i -eq 0 ] && git -C "$r" tag c0
		i=$((i + 1))
	done
	"$PERFREG" bisect --repo "$r" --good c0 --bad main --build true \
	    --metric 'work=^work: ([0-9.]+)$:s:lower' \
	    --html "$OUT/bisect.html" -- sh prog.sh >"$tmp/bisect.txt" \
	    2>"$tmp/err"
	check "bisect: exit 0: $(cat "$tmp/err")" [ $? -eq 0 ]
	check "bisect: the culprit in the text report" \
	    grep -q '^culprit: ' "$tmp/bisect.txt"
	load bisect "$OUT/bisect.html" 1 1
	hostile "$OUT/bisect.dom" bisect
	check "bisect: the subject shown as text" \
	    grep -q -F '&lt;script&gt;alert(9)&lt;/script&gt;' \
	    "$OUT/bisect.dom"
	unset PERFREG_DB
fi

[ $fail -eq 0 ] && echo "html_browser: pages and screenshots in $OUT"
exit $fail
