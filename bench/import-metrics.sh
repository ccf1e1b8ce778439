#!/bin/sh
# bench/import-metrics.sh - `perfreg import` of one run with N metrics
# (issue 12: a run with 40,000 metrics took 44 s to import, a quadratic
# path), N doubling from 10,000 to 160,000, side by side with the peer:
# the sqlite3 shell's .import of the same N metric rows as CSV into a
# bare table (no JSON, no ids).  For each N it prints perfreg's and the
# peer's wall and CPU (user + system) seconds, perfreg's ratio to the
# peer, and perfreg's growth from the previous N (linear: 2.0; quadratic:
# 4.0).  CPU time is the figure to read on a loaded machine.
#
# usage: bench/import-metrics.sh   (PERFREG: the binary; default
# build/release/perfreg).  Needs python3 and sqlite3.
set -eu
cd "$(dirname "$0")/.."
P=${PERFREG:-build/release/perfreg}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gen() { # N OUT.jsonl OUT.csv
	python3 - "$1" "$2" "$3" <<'PY'
import sys
n, out, csv = int(sys.argv[1]), sys.argv[2], sys.argv[3]
with open(out, "w") as f:
    w = f.write
    w('{"format":"perfreg-export","version":1,"schema":2}\n')
    w('{"type":"campaign","name":"m"}\n')
    w('{"type":"variant","campaign":"m","name":"a","command":"x"}\n')
    w('{"type":"session","campaign":"m","key":1,"host":"h","boot_id":"b",'
      '"started":1700000000.0,"elapsed_s":1.0,"status":"done","args":null,'
      '"resumes":null,"variants":[["a","x"]],"tags":[],"env":null}\n')
    ms = ",".join('["metric_%d","s","lower",%d.5]' % (i, i) for i in range(n))
    w('{"type":"run","session":1,"variant":"a","round":0,"seq":0,'
      '"warmup":false,"ok":true,"outcome":"ok","exit_status":0,"signal":0,'
      '"reason":"","failed_in":null,"truncated":false,"start_s":0.1,'
      '"metrics":[%s],"output":""}\n' % ms)
    w('{"type":"end","campaigns":1,"sessions":1,"runs":1}\n')
with open(csv, "w") as f:
    for i in range(n):
        f.write("1,metric_%d,s,%d.5\n" % (i, i))
PY
}

# Prints "WALL CPU" of the command, from /usr/bin/time's format.
timed() {
	/usr/bin/time -f "%e %U %S" -o "$tmp/t" "$@" > /dev/null 2>&1
	awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$tmp/t"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
printf '%8s %9s %9s %9s %9s %8s %8s\n' N pr_wall pr_cpu sq_wall sq_cpu \
    cpu_ratio growth
prev=
for n in 10000 20000 40000 80000 160000; do
	gen "$n" "$tmp/m.jsonl" "$tmp/m.csv"
	rm -f "$tmp"/p.db*
	set -- $(timed "$P" import --db "$tmp/p.db" "$tmp/m.jsonl")
	pw=$1 pc=$2
	got=$(sqlite3 "$tmp/p.db" 'SELECT count(*) FROM run_metric')
	[ "$got" -eq "$n" ] || { echo "perfreg stored $got of $n metrics" >&2; exit 1; }
	rm -f "$tmp"/s.db*
	sqlite3 "$tmp/s.db" 'CREATE TABLE m(run INTEGER, name TEXT, unit TEXT, v REAL)'
	set -- $(timed sqlite3 "$tmp/s.db" -cmd '.mode csv' ".import $tmp/m.csv m")
	sw=$1 sc=$2
	r=$(echo "scale=2; $pc / ($sc + 0.001)" | bc -l)
	g=-
	[ -n "$prev" ] && g=$(echo "scale=2; $pc / ($prev + 0.001)" | bc -l)
	printf '%8d %9s %9s %9s %9s %8s %8s\n' "$n" "$pw" "$pc" "$sw" "$sc" "$r" "$g"
	prev=$pc
done
