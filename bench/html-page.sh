#!/bin/sh
# bench/html-page.sh - the HTML page of a 1,000-metric comparison: how
# long perfreg takes to write it, how big it is, and how long Chromium
# takes to render it.
#
# Two seeded CSV files of METRICS columns (default 1000) and RUNS rows
# (default 10) a side, a third of the metrics 5% slower in NEW
# (bench/html-data.sh; bench/html-write.sh times the writing in CPU time).  perfreg's
# write time is the difference between `compare --html FILE` and the same
# compare without --html, each timed by hyperfine in the same run
# (interleaved, so that both share the load), so that reading and the
# statistics cancel; the ratio of the two is printed as well.  Chromium's
# render time comes from the browser's own clock: a copy of the page with
# a script appended that, at the load event, forces the layout of the
# whole page (document.body.offsetHeight) and writes the time from the
# first byte of the response (navigation timing's responseStart) to then,
# and to DOMContentLoaded, into the DOM, which --dump-dom reads back; the
# median of REPS loads (default 5) is printed.  Paint is not in it:
# --dump-dom returns before the first frame.  Each load also counts the
# page's elements and its DOM nodes (text nodes included).
# The anchor is a page of the same data as plain tables without SVG (the
# form an asv-like summary table has), rendered the same way in the same
# run: the ratio says what the pictures cost.  With a second perfreg
# (OLD, an earlier build), its page of the same data is written, timed
# and rendered in the same run, the pages' loads taking turns so that
# they share the load, and the ratios new / old are printed.
#
# usage: bench/html-page.sh [PERFREG [OLD]]  (default build/release/perfreg)
set -eu
P=${1:-build/release/perfreg}
OLD=${2:-}
M=${METRICS:-1000}
R=${RUNS:-10}
REPS=${REPS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CHROMIUM=$(command -v chromium || command -v chromium-browser)

sh "$(dirname "$0")/html-data.sh" "$tmp" "$M" "$R"

echo "== $M metrics, $R runs a side; load: $(cut -d' ' -f1-3 /proc/loadavg)"
set -- "$P compare $tmp/b.csv $tmp/n.csv" \
    "$P compare --html $tmp/page.html $tmp/b.csv $tmp/n.csv"
[ -n "$OLD" ] && set -- "$@" \
    "$OLD compare --html $tmp/old.html $tmp/b.csv $tmp/n.csv"
hyperfine -N --warmup 2 --runs 15 --export-json "$tmp/h.json" "$@" \
    >/dev/null
python3 - "$tmp/h.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
a, b = r[0]["median"], r[1]["median"]
print("perfreg compare, text only:   %.1f ms (median of 15)" % (a * 1e3))
print("perfreg compare --html FILE:  %.1f ms" % (b * 1e3))
print("page writing (difference):    %.1f ms; ratio %.2f" %
      ((b - a) * 1e3, b / a))
if len(r) > 2:
    print("old perfreg compare --html:   %.1f ms (less the text-only "
          "compare: %.1f ms)" % (r[2]["median"] * 1e3,
                                 (r[2]["median"] - a) * 1e3))
EOF
echo "page size: $(wc -c <"$tmp/page.html") bytes"
[ -n "$OLD" ] && echo "old page size: $(wc -c <"$tmp/old.html") bytes"

# The anchor: the same verdict table and numbers, as tables only.
python3 - "$tmp/page.html" "$tmp/plain.html" <<'EOF'
import re, sys
s = open(sys.argv[1]).read()
s = re.sub(r"<svg .*?</svg>", "", s, flags=re.S)
open(sys.argv[2], "w").write(s)
EOF

timing='<script>addEventListener("load",function(){var h=document.body.offsetHeight,t=performance.now(),n=performance.getEntriesByType("navigation")[0],e=document.getElementsByTagName("*").length,w=document.createTreeWalker(document,NodeFilter.SHOW_ALL),k=1;while(w.nextNode())k++;document.body.setAttribute("data-bench",[t-n.responseStart,n.domContentLoadedEventEnd-n.responseStart,h,e,k].map(function(x){return x.toFixed(1)}).join(" "));});</script>'
pages="page plain"
[ -n "$OLD" ] && pages="page old plain"
for f in $pages; do
	sed "s|</body>|$timing</body>|" "$tmp/$f.html" >"$tmp/$f.t.html"
done

render() { # FILE: the browser's own figures, "layout dcl height elements nodes"
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
	    --user-data-dir="$tmp/profile" --window-size=1200,900 \
	    --dump-dom "file://$1" 2>/dev/null |
	    sed -n 's/.*data-bench="\([^"]*\)".*/\1/p'
}
: >"$tmp/old.ms"
for f in $pages; do
	: >"$tmp/$f.ms"
done
i=0
while [ $i -lt "$REPS" ]; do
	for f in $pages; do
		render "$tmp/$f.t.html" >>"$tmp/$f.ms"
	done
	i=$((i + 1))
done
python3 - "$tmp/page.ms" "$tmp/plain.ms" "$tmp/old.ms" <<'EOF'
import statistics, sys
def med(f):
    rows = [list(map(float, l.split())) for l in open(f) if l.strip()]
    if not rows:
        return None
    return [statistics.median(c) for c in zip(*rows)], len(rows)
def show(what, r):
    (t, d, h, e, k), n = r
    print("chromium, %-15s laid out %.0f ms after the first byte "
          "(DOMContentLoaded %.0f; %.0f px tall; %d elements, %d nodes), "
          "median of %d" % (what + ":", t, d, h, e, k, n))
p, b, o = med(sys.argv[1]), med(sys.argv[2]), med(sys.argv[3])
show("page with SVG", p)
show("tables only", b)
print("ratio SVG page / tables:   %.2f" % (p[0][0] / b[0][0]))
if o is not None:
    show("old page", o)
    print("ratio new page / old page: %.2f laid out, %.2f DOMContentLoaded, "
          "%.2f nodes" % (p[0][0] / o[0][0], p[0][1] / o[0][1],
                          p[0][4] / o[0][4]))
EOF
