#!/bin/sh
# bench/suite-store-cost.sh - what storing a suite session and comparing
# it costs as the database grows (issue 16, budgets that hold).
#
# usage: bench/suite-store-cost.sh PERFREG DB SESSIONS [OLD_PERFREG]
#   DB is a perfreg SQLite store holding --quick suite sessions (never
#   written: copies are); SESSIONS is the number of sessions to grow a
#   copy to, by cloning its last sessions (runs, metrics, tags) with new
#   ids and later start times.  Then `suite --quick --budget 10` runs
#   once with PERFREG into a fresh copy of the grown database and once
#   into a copy of DB as it is, and the same with OLD_PERFREG (another
#   build, say main's) when given, interleaved; each prints the CPU
#   seconds its storing and comparing took (the JSON's
#   timing.store_cpu_s) and their ratio.  The probes' figures are not
#   the point (10 s of probes on a loaded machine).
#
# Needs python3 (its sqlite3 module).
set -eu
[ $# -ge 3 ] || { echo "usage: $0 PERFREG DB SESSIONS [OLD_PERFREG]" >&2; exit 2; }
new=$1 db=$2 want=$3 old=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cp "$db" "$tmp/small.db"
cp "$db" "$tmp/big.db"
python3 - "$tmp/big.db" "$want" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
want = int(sys.argv[2])
cur = c.cursor()
ids = [r[0] for r in cur.execute(
    "SELECT s.id FROM session s JOIN campaign c ON c.id = s.campaign_id "
    "WHERE c.name = 'suite' AND s.status = 'done' ORDER BY s.started")]
if not ids:
    sys.exit("suite-store-cost: no suite sessions in the database")
src = ids[-6:]
have = len(ids)
last = cur.execute("SELECT max(started) FROM session").fetchone()[0]
sid = cur.execute("SELECT max(id) FROM session").fetchone()[0]
rid = cur.execute("SELECT max(id) FROM run").fetchone()[0]
k = 0
while have < want:
    old = src[k % len(src)]
    k += 1
    sid += 1
    have += 1
    cur.execute("INSERT INTO session SELECT ?, campaign_id, host_id, boot_id, "
                "args_json, status, ?, elapsed_s, resumes, env_id, imported, "
                "pid FROM session WHERE id = ?", (sid, last + 60.0 * k, old))
    cur.execute("INSERT INTO session_variant SELECT ?, variant_id, pos, "
                "command FROM session_variant WHERE session_id = ?", (sid, old))
    cur.execute("INSERT INTO tag SELECT ?, pos, key, value FROM tag "
                "WHERE session_id = ?", (sid, old))
    for (r,) in cur.execute("SELECT id FROM run WHERE session_id = ? "
                            "ORDER BY id", (old,)).fetchall():
        rid += 1
        cur.execute("INSERT INTO run SELECT ?, ?, variant_id, round, seq, "
                    "warmup, ok, outcome, exit_status, signal, reason, "
                    "failed_in, output, output_len, truncated, start_s "
                    "FROM run WHERE id = ?", (rid, sid, r))
        cur.execute("INSERT INTO run_metric SELECT ?, metric_id, pos, value, "
                    "flags FROM run_metric WHERE run_id = ?", (rid, r))
c.commit()
print("suite-store-cost: %d suite sessions in the small copy, %d in the big"
      % (len(ids), have))
EOF
cost() { # PERFREG DB -> store_cpu_s
	cp "$2" "$tmp/run.db"
	"$1" suite --quick --budget 10 --db "$tmp/run.db" --json \
	    > "$tmp/out.json" 2> "$tmp/err" || [ $? -eq 1 ]
	python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["timing"]["store_cpu_s"])' "$tmp/out.json"
}
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for size in small big; do
	n=$(cost "$new" "$tmp/$size.db")
	line="$size database: perfreg $n s"
	if [ -n "$old" ]; then
		o=$(cost "$old" "$tmp/$size.db")
		line="$line, old $o s, new / old $(echo "scale=3; $n / $o" | bc)"
	fi
	echo "$line"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
