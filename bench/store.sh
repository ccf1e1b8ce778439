#!/bin/sh
# bench/store.sh - the speed targets of the results database (issue 4),
# each printed as a ratio to a peer run side by side:
#
#  1. `perfreg import` of RUNS runs with 5 metrics each (default 10^6)
#     into SQLite, against the sqlite3 shell's .import of the same runs
#     and metric values as CSV into bare tables in one transaction (the
#     floor: no parsing of JSON, no ids to look up); target >= 100k
#     runs/s.  The same into a throwaway PostgreSQL server
#     (scripts/pg-test-server.sh), against psql's \copy of the same CSV.
#  2. A live `perfreg run` of LIVE runs of /bin/true (default 10^4) with
#     and without --campaign: the store's cost per run as a ratio to the
#     run itself (target < 10%); and bench/store-commit: the commit of a
#     run alone against raw SQLite writing the same rows, a transaction
#     each, with the same settings (the floor).
#  3. `perfreg compare --campaign` of 10^4 and 10^5 runs per variant:
#     seconds (target < 1 s at 10^5) and the growth from 10^4 to 10^5
#     against n log n's 12.5.
#
# usage: bench/store.sh [RUNS [LIVE]]   (PERFREG: the binary; default
# build/release/perfreg).  Needs python3, sqlite3 and, for PostgreSQL,
# the postgresql package; times are wall clock, best of 3 where cheap.
set -eu
cd "$(dirname "$0")/.."
P=${PERFREG:-build/release/perfreg}
RUNS=${1:-1000000}
LIVE=${2:-10000}
tmp=$(mktemp -d)
pgdir=$tmp/pg
cleanup() {
	[ -d "$pgdir" ] && sh scripts/pg-test-server.sh stop "$pgdir" \
	    >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l; }
ratio() { echo "scale=3; $1 / $2" | bc -l; }

echo "== generating $RUNS runs (tests/store/gen_export.py)"
python3 tests/store/gen_export.py "$RUNS" > "$tmp/big.jsonl"
python3 - "$tmp/big.jsonl" "$tmp/runs.csv" "$tmp/metrics.csv" <<'PY'
import json, sys
src, runs, mets = sys.argv[1:4]
with open(src) as f, open(runs, "w") as r, open(mets, "w") as m:
    rid = 0
    for line in f:
        o = json.loads(line)
        if o.get("type") != "run":
            continue
        rid += 1
        r.write("%d,%d,%s,%d,%d,%d,1,ok\n" % (rid, o["session"],
            o["variant"], o["round"], o["seq"], 1 if o["warmup"] else 0))
        for k, (name, unit, better, v) in enumerate(o["metrics"]):
            m.write("%d,%d,%.17g\n" % (rid, k + 1, v))
PY

echo "== 1. import into SQLite"
t0=$(now)
"$P" import --db "$tmp/p.db" "$tmp/big.jsonl" > /dev/null
t1=$(now)
pr_s=$(secs "$t0" "$t1")
sqlite3 "$tmp/floor.db" <<'SQL' > /dev/null
PRAGMA journal_mode=WAL;
CREATE TABLE run(id INTEGER PRIMARY KEY, session INTEGER, variant TEXT,
    round INTEGER, seq INTEGER, warmup INTEGER, ok INTEGER, outcome TEXT);
CREATE TABLE run_metric(run_id INTEGER, metric_id INTEGER, value REAL,
    PRIMARY KEY(run_id, metric_id)) WITHOUT ROWID;
SQL
t0=$(now)
sqlite3 "$tmp/floor.db" <<SQL
.mode csv
BEGIN;
.import $tmp/runs.csv run
.import $tmp/metrics.csv run_metric
COMMIT;
SQL
t1=$(now)
fl_s=$(secs "$t0" "$t1")
printf 'perfreg import: %.2f s, %.0f runs/s (target >= 100000)\n' \
    "$pr_s" "$(echo "$RUNS / $pr_s" | bc -l)"
printf 'sqlite3 .import of the same rows as CSV: %.2f s, %.0f runs/s\n' \
    "$fl_s" "$(echo "$RUNS / $fl_s" | bc -l)"
echo "ratio perfreg/sqlite3 time: $(ratio "$pr_s" "$fl_s")"

echo "== 1b. import into PostgreSQL"
if conn=$(sh scripts/pg-test-server.sh start "$pgdir" 2>/dev/null); then
	t0=$(now)
	"$P" import --db "$conn" "$tmp/big.jsonl" > /dev/null
	t1=$(now)
	pg_s=$(secs "$t0" "$t1")
	floorconn=$(sh scripts/pg-test-server.sh createdb "$pgdir" floor)
	psql -q "$floorconn" -c "CREATE TABLE run(id bigint PRIMARY KEY,
	    session bigint, variant text, round bigint, seq bigint,
	    warmup int, ok int, outcome text);
	    CREATE TABLE run_metric(run_id bigint, metric_id bigint,
	    value double precision, PRIMARY KEY(run_id, metric_id));"
	t0=$(now)
	psql -q "$floorconn" -c "\\copy run FROM '$tmp/runs.csv' CSV" \
	    -c "\\copy run_metric FROM '$tmp/metrics.csv' CSV"
	t1=$(now)
	pf_s=$(secs "$t0" "$t1")
	printf 'perfreg import: %.2f s, %.0f runs/s\n' "$pg_s" \
	    "$(echo "$RUNS / $pg_s" | bc -l)"
	printf 'psql \\copy of the same rows: %.2f s, %.0f runs/s\n' "$pf_s" \
	    "$(echo "$RUNS / $pf_s" | bc -l)"
	echo "ratio perfreg/psql time: $(ratio "$pg_s" "$pf_s")"
else
	echo "no PostgreSQL server could be started: skipped"
fi

echo "== 2. live run of $LIVE x /bin/true, with and without --campaign"
best() { # label args...: best of 3 wall times
	b=""
	for i in 1 2 3; do
		rm -f "$tmp/live.db"*
		t0=$(now)
		"$@" > /dev/null 2>&1
		t1=$(now)
		s=$(secs "$t0" "$t1")
		if [ -z "$b" ] || [ "$(echo "$s < $b" | bc -l)" = 1 ]; then
			b=$s
		fi
	done
	echo "$b"
}
plain=$(best "$P" run -n "$LIVE" --warmup 0 t=/bin/true)
stored=$(best "$P" run -n "$LIVE" --warmup 0 --db "$tmp/live.db" \
    --campaign live --variant t -- /bin/true)
run_ms=$(echo "1000 * $plain / $LIVE" | bc -l)
add_ms=$(echo "1000 * ($stored - $plain) / $LIVE" | bc -l)
printf 'without --campaign: %.2f s (%.3f ms a run)\n' "$plain" "$run_ms"
printf 'with --campaign:    %.2f s (+%.3f ms a run)\n' "$stored" "$add_ms"
echo "store's cost per run / the run: $(ratio "$add_ms" "$run_ms") (target < 0.10)"

BENCH=${BENCH:-$(dirname "$P")/bench}
if [ -x "$BENCH/store-commit" ]; then
	echo "== 2b. the commit alone: pr_store_add_run against raw SQLite"
	mkdir "$tmp/sc"
	"$BENCH/store-commit" "$tmp/sc" "$LIVE"
fi

echo "== 3. compare --campaign at 10^4 and 10^5 runs per variant"
for per in 10000 100000; do
	python3 tests/store/gen_export.py $((2 * per)) > "$tmp/c.jsonl"
	rm -f "$tmp/c.db"*
	"$P" import --db "$tmp/c.db" "$tmp/c.jsonl" > /dev/null
	b=""
	for i in 1 2 3; do
		t0=$(now)
		"$P" compare --db "$tmp/c.db" --campaign bench > /dev/null 2>&1
		t1=$(now)
		s=$(secs "$t0" "$t1")
		if [ -z "$b" ] || [ "$(echo "$s < $b" | bc -l)" = 1 ]; then
			b=$s
		fi
	done
	printf 'compare --campaign, %d runs per variant: %.3f s\n' "$per" "$b"
	eval "cmp_$per=$b"
done
echo "growth 10^4 -> 10^5: $(ratio "$cmp_100000" "$cmp_10000") (n log n: 12.5; target: no worse)"
