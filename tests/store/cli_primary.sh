#!/bin/sh
# tests/store/cli_primary.sh - the primary metrics stored with a session
# (schema 3), end to end: `run --campaign --primary` and the parsers'
# result flags, read back by `show` and `compare --campaign` with the
# families of files-mode compare (Holm over the primaries, BH over the
# side metrics, recomputed here from the p values), kept through `export` / `import`, and a database of
# schema 2 (tests/store/data/schema-v2.sql) that migrates and keeps the
# old fallback, wall_s.  No timing is checked: the metrics come from a
# counter, the same on every machine.
#
# usage: cli_primary.sh PERFREG
set -u
P=$1
. "$(dirname "$0")/testlib.sh"

# The command of a variant: prints "ops N lat M" from a counter kept in
# $tmp/count.VARIANT, ops around base (100 or 50), lat around 11 on both.
cmd() { # variant base
	printf '%s' "n=\$(cat $tmp/count.$1 2>/dev/null || echo 0);" \
	    " echo \$((n + 1)) > $tmp/count.$1;" \
	    " echo ops \$(($2 + n % 5)) lat \$((10 + n % 4))"
}

# Two variants, two boots each; $@ are more options of run.
campaign() { # db name [run options]
	db=$1
	name=$2
	shift 2
	for boot in b1 b2; do
		for v in base new; do
			[ $v = base ] && k=100 || k=50
			PERFREG_BOOT_ID=$boot "$P" run --db "$db" --campaign \
			    "$name" --variant $v -n 3 --warmup 0 --shell \
			    --metric 'ops=ops ([0-9]+):1/s:higher' \
			    --metric 'lat=lat ([0-9]+):ms:lower' "$@" \
			    -- "$(cmd "$name.$v" $k)" > "$tmp/out" \
			    2> "$tmp/err" ||
			    fail "$name: run $v in $boot: $(cat "$tmp/err")"
		done
	done
}

# The metrics `show` marks primary, one a line, of variant base.
show_primary() { # db name
	"$P" show --db "$1" "$2" > "$tmp/show" 2> "$tmp/err" ||
	    fail "$2: show: $(cat "$tmp/err")"
	awk '$1 == "base" && /, primary$/ { print $2 }' "$tmp/show"
}

# compare --campaign's families of the first pair, from --json: the
# primary metrics, then whether Holm holds over them and
# Benjamini-Hochberg over the side metrics (recomputed from the p values
# shown), e.g. "lat ok".
families() { # db name [compare options]
	db=$1
	name=$2
	shift 2
	"$P" compare --db "$db" --campaign "$name" --json "$@" > "$tmp/cmp" \
	    2> "$tmp/err" || fail "$name: compare --campaign: $(cat "$tmp/err")"
	python3 - "$tmp/cmp" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["comparisons"][0]["report"]
prim = [m for m in r["metrics"] if m["tested"]]
side = [m for m in r["side_metrics"]["metrics"] if m["tested"]]
def holm(ps):
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adj, run = [0.0] * len(ps), 0.0
    for k, i in enumerate(order):
        run = max(run, min(1.0, (len(ps) - k) * ps[i]))
        adj[i] = run
    return adj
def bh(ps):
    order = sorted(range(len(ps)), key=lambda i: ps[i], reverse=True)
    adj, run = [0.0] * len(ps), 1.0
    for k, i in enumerate(order):
        run = min(run, len(ps) * ps[i] / (len(ps) - k))
        adj[i] = run
    return adj
def same(ms, f):
    want = f([m["p_value"] for m in ms])
    return all(abs(m["p_adjusted"] - w) <= 1e-12 * max(1.0, w)
               for m, w in zip(ms, want))
ok = same(prim, holm) and same(side, bh)
print(" ".join([m["name"] for m in r["metrics"]] + ["ok" if ok else "wrong"]))
PY
}

db=$tmp/p.db

# With --primary lat, lat alone is primary: the parser's flags (ops and
# lat, both --metric figures) do not add ops.
campaign "$db" chosen --primary lat
[ "$(show_primary "$db" chosen)" = "lat" ] ||
    fail "chosen: show's primary: $(cat "$tmp/show")"
"$P" show --db "$db" --json chosen > "$tmp/out" || fail "chosen: show --json"
tr -d ' \n' < "$tmp/out" > "$tmp/flat"
has "$tmp/flat" '"metric":"lat","unit":"ms","median":11[.0-9]*,"n":6,"boots":2,"role":"primary"' \
    "chosen: show --json role"
has "$tmp/flat" '"metric":"ops",[^}]*"role":"side"' "chosen: ops a side metric"

# compare --campaign takes the stored primary (it took wall_s alone).
[ "$(families "$db" chosen)" = "lat ok" ] ||
    fail "chosen: compare's primaries: $(families "$db" chosen)"
"$P" compare --db "$db" --campaign chosen > "$tmp/out" 2> "$tmp/err" ||
    fail "chosen: compare: $(cat "$tmp/err")"
has "$tmp/out" "^lat: inconclusive" "chosen: the headline is lat's"
has "$tmp/out" "^side metrics, a family of their own (Benjamini-Hochberg)" \
    "chosen: side family"
has "$tmp/out" "^ops: regression: throughput 4[0-9.]*% lower" \
    "chosen: ops a side regression"
# Its own --primary overrides what is stored.
[ "$(families "$db" chosen --primary ops)" = "ops ok" ] ||
    fail "chosen --primary ops: $(families "$db" chosen --primary ops)"

# Without --primary, the flags stored with the runs make ops and lat
# primary (both --metric results, Holm over the two), wall_s a side
# metric; ops's regression is the headline.
campaign "$db" flags
[ "$(show_primary "$db" flags | tr '\n' ' ')" = "ops lat " ] ||
    fail "flags: show's primaries: $(cat "$tmp/show")"
[ "$(families "$db" flags)" = "ops lat ok" ] ||
    fail "flags: compare's primaries: $(families "$db" flags)"
"$P" compare --db "$db" --campaign flags > "$tmp/out" 2> "$tmp/err" ||
    fail "flags: compare: $(cat "$tmp/err")"
has "$tmp/out" "^ops: regression: throughput 4[0-9.]*% lower" \
    "flags: ops's regression is a headline"
has "$tmp/out" "Holm's correction for 2" "flags: Holm over the primaries"

# Both survive an export and an import into another database.
"$P" export --db "$db" > "$tmp/export.jsonl" 2> "$tmp/err" ||
    fail "export: $(cat "$tmp/err")"
has "$tmp/export.jsonl" '"primary":\["lat"\]' "export: the session's primary"
has "$tmp/export.jsonl" '"results":\["ops","lat"\]' "export: the runs' results"
"$P" import --db "$tmp/q.db" "$tmp/export.jsonl" > /dev/null 2> "$tmp/err" ||
    fail "import: $(cat "$tmp/err")"
[ "$(show_primary "$tmp/q.db" chosen)" = "lat" ] ||
    fail "imported chosen: show's primary: $(cat "$tmp/show")"
[ "$(show_primary "$tmp/q.db" flags | tr '\n' ' ')" = "ops lat " ] ||
    fail "imported flags: show's primaries: $(cat "$tmp/show")"
[ "$(families "$tmp/q.db" chosen)" = "lat ok" ] ||
    fail "imported chosen: compare: $(families "$tmp/q.db" chosen)"
[ "$(families "$tmp/q.db" flags)" = "ops lat ok" ] ||
    fail "imported flags: compare: $(families "$tmp/q.db" flags)"

# A database of schema 2 migrates when read; its runs have no flags and
# its sessions no primaries, so wall_s stays its primary.
sqlite3 "$tmp/v2.db" < tests/store/data/schema-v2.sql ||
    fail "could not load the schema 2 database"
[ "$(show_primary "$tmp/v2.db" old)" = "wall_s" ] ||
    fail "schema 2: show's primary: $(cat "$tmp/show")"
[ "$(sqlite3 "$tmp/v2.db" 'SELECT max(version) FROM schema_version')" = 3 ] ||
    fail "schema 2: not migrated"
"$P" compare --db "$tmp/v2.db" --campaign old > "$tmp/out" 2> "$tmp/err" ||
    fail "schema 2: compare: $(cat "$tmp/err")"
has "$tmp/out" "^wall_s " "schema 2: wall_s the primary"

[ "$fails" -eq 0 ] || exit 1
echo "cli_primary: all passed"
