#!/bin/sh
# bench/html-page.sh - the HTML page of a 1,000-metric comparison: how
# long perfreg takes to write it, how big it is, and how long Chromium
# takes to render it.
#
# Two seeded CSV files of METRICS columns (default 1000) and RUNS rows
# (default 10) a side, a third of the metrics 5% slower in NEW.  perfreg's
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
# --dump-dom returns before the first frame.
# The anchor is a page of the same data as plain tables without SVG (the
# form an asv-like summary table has), rendered the same way in the same
# run: the ratio says what the pictures cost.
#
# usage: bench/html-page.sh [PERFREG]  (default build/release/perfreg)
set -eu
P=${1:-build/release/perfreg}
M=${METRICS:-1000}
R=${RUNS:-10}
REPS=${REPS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CHROMIUM=$(command -v chromium || command -v chromium-browser)

awk -v m="$M" -v r="$R" -v out="$tmp" 'BEGIN {
	srand(17);
	for (j = 1; j <= m; j++) {
		printf "%smetric_%04d_ns", (j > 1 ? "," : ""), j > (out "/b.csv");
		printf "%smetric_%04d_ns", (j > 1 ? "," : ""), j > (out "/n.csv");
	}
	print "" > out "/b.csv"; print "" > out "/n.csv";
	for (i = 0; i < r; i++) {
		for (j = 1; j <= m; j++) {
			u = 0; for (k = 0; k < 12; k++) u += rand();
			v = 1000 + 20 * (u - 6);
			u = 0; for (k = 0; k < 12; k++) u += rand();
			w = (1000 + 20 * (u - 6)) * (j % 3 == 0 ? 1.05 : 1);
			printf "%s%.2f", (j > 1 ? "," : ""), v > (out "/b.csv");
			printf "%s%.2f", (j > 1 ? "," : ""), w > (out "/n.csv");
		}
		print "" > out "/b.csv"; print "" > out "/n.csv";
	}
}'

echo "== $M metrics, $R runs a side; load: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N --warmup 2 --runs 15 --export-json "$tmp/h.json" \
    "$P compare $tmp/b.csv $tmp/n.csv" \
    "$P compare --html $tmp/page.html $tmp/b.csv $tmp/n.csv" >/dev/null
python3 - "$tmp/h.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
a, b = r[0]["median"], r[1]["median"]
print("perfreg compare, text only:   %.1f ms (median of 15)" % (a * 1e3))
print("perfreg compare --html FILE:  %.1f ms" % (b * 1e3))
print("page writing (difference):    %.1f ms; ratio %.2f" %
      ((b - a) * 1e3, b / a))
EOF
echo "page size: $(wc -c <"$tmp/page.html") bytes"

# The anchor: the same verdict table and numbers, as tables only.
python3 - "$tmp/page.html" "$tmp/plain.html" <<'EOF'
import re, sys
s = open(sys.argv[1]).read()
s = re.sub(r"<svg .*?</svg>", "", s, flags=re.S)
open(sys.argv[2], "w").write(s)
EOF

timing='<script>addEventListener("load",function(){var h=document.body.offsetHeight,t=performance.now(),n=performance.getEntriesByType("navigation")[0];document.body.setAttribute("data-bench",[t-n.responseStart,n.domContentLoadedEventEnd-n.responseStart,h].map(function(x){return x.toFixed(1)}).join(" "));});</script>'
for f in page plain; do
	sed "s|</body>|$timing</body>|" "$tmp/$f.html" >"$tmp/$f.t.html"
done

render() { # FILE: the browser's own figures, "layout dcl height" in ms
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
	    --user-data-dir="$tmp/profile" --window-size=1200,900 \
	    --dump-dom "file://$1" 2>/dev/null |
	    sed -n 's/.*data-bench="\([^"]*\)".*/\1/p'
}
: >"$tmp/page.ms"
: >"$tmp/plain.ms"
i=0
while [ $i -lt "$REPS" ]; do
	render "$tmp/page.t.html" >>"$tmp/page.ms"
	render "$tmp/plain.t.html" >>"$tmp/plain.ms"
	i=$((i + 1))
done
python3 - "$tmp/page.ms" "$tmp/plain.ms" <<'EOF'
import statistics, sys
def med(f):
    rows = [list(map(float, l.split())) for l in open(f) if l.strip()]
    return [statistics.median(c) for c in zip(*rows)], len(rows)
(pa, dp, hp), n = med(sys.argv[1])
(pb, db, hb), m = med(sys.argv[2])
print("chromium, page with SVG:   laid out %.0f ms after the first byte "
      "(DOMContentLoaded %.0f; %.0f px tall), median of %d" % (pa, dp, hp, n))
print("chromium, tables only:     laid out %.0f ms (DOMContentLoaded %.0f; "
      "%.0f px), median of %d" % (pb, db, hb, m))
print("ratio SVG page / tables:   %.2f" % (pa / pb))
EOF
