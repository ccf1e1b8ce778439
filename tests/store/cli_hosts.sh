#!/bin/sh
# tests/store/cli_hosts.sh - `compare --campaign` on a campaign whose
# sessions come from several hosts (issue 11): three emulated hosts,
# imported from a crafted export (each session names its host and boot),
# whose speeds differ by a factor of 4.  The variant b is 84.5% faster on
# every host: pooling the hosts' boots called it inconclusive (p = 0.20);
# with the host as the unit it is an improvement on every host and
# across them, "consistent on 3 of 3 hosts".  A second campaign is 20%
# slower on two hosts and unchanged on the third: "differs between
# hosts".  --host compares one host only; a host that ran one variant
# only is named and left out.  Then the environment diff of every
# session of a variant, `show` with custom boot ids, and run's progress
# line with stdout piped.  No timing is checked.
#
# usage: cli_hosts.sh PERFREG
set -u
P=$1
. "$(dirname "$0")/testlib.sh"

# export_of CAMPAIGN FACTORS [SKIP]: FACTORS one new / base factor per
# host, comma-separated; host SKIP runs the baseline only.
export_of() {
	awk -v c="$1" -v f="$2" -v skip="${3:-0}" 'BEGIN {
		n = split(f, fac, ",")
		split("1.0,2.5,0.6,1.3", speed, ",")
		print "{\"format\":\"perfreg-export\",\"version\":1,\"schema\":1}"
		printf "{\"type\":\"campaign\",\"name\":\"%s\"}\n", c
		printf "{\"type\":\"variant\",\"campaign\":\"%s\",\"name\":\"a\",\"command\":\"a\"}\n", c
		printf "{\"type\":\"variant\",\"campaign\":\"%s\",\"name\":\"b\",\"command\":\"b\"}\n", c
		key = 0; seq = 0; runs = 0
		for (h = 1; h <= n; h++)
			for (b = 1; b <= 2; b++) {
				key++
				printf "{\"type\":\"session\",\"key\":%d,\"campaign\":\"%s\",\"host\":\"host%d\",\"boot_id\":\"h%d-boot%d\",\"args\":null,\"status\":\"done\",\"started\":%d,\"elapsed_s\":1,\"resumes\":null,\"tags\":[],\"variants\":[[\"a\",\"a\"],[\"b\",\"b\"]],\"env\":null}\n", key, c, h, h, b, 1700000000 + 100 * key
				bootf = 1 + 0.02 * ((key * 7) % 5 - 2)
				for (r = 0; r < 5; r++)
					for (v = 0; v < 2; v++) {
						if (v == 1 && h == skip)
							continue
						noise = 1 + 0.01 * (((seq * 37 + 11) % 9) - 4)
						x = 100 * speed[h] * bootf * noise
						if (v == 1)
							x *= fac[h]
						printf "{\"type\":\"run\",\"session\":%d,\"variant\":\"%s\",\"round\":%d,\"seq\":%d,\"warmup\":false,\"ok\":true,\"outcome\":\"ok\",\"exit_status\":0,\"signal\":0,\"reason\":\"\",\"failed_in\":null,\"truncated\":false,\"start_s\":%d,\"metrics\":[[\"wall_s\",\"s\",\"lower\",%.6f]],\"output\":\"\"}\n", key, v ? "b" : "a", r, seq, seq, x
						seq++; runs++
					}
			}
		printf "{\"type\":\"end\",\"campaigns\":1,\"sessions\":%d,\"runs\":%d}\n", key, runs
	}'
}

db=$tmp/hosts.db
export_of big 0.155,0.155,0.155 > "$tmp/big.jsonl"
export_of mixed 1.2,1.2,1.0 > "$tmp/mixed.jsonl"
for c in big mixed; do
	"$P" import --db "$db" "$tmp/$c.jsonl" > /dev/null 2> "$tmp/err" ||
	    fail "import $c: $(cat "$tmp/err")"
done

"$P" compare --db "$db" --campaign big > "$tmp/out" 2> "$tmp/err" ||
    fail "compare big: $(cat "$tmp/err")"
has "$tmp/out" "^b against a on host host1: boot level" "per-host header"
has "$tmp/out" "^b against a on host host3: boot level" "third host"
has "$tmp/out" "^b against a across 3 hosts, the host as the unit" \
    "across header"
has "$tmp/out" "^  wall_s .*-84\.[0-9]% .* improvement$" "across verdict"
has "$tmp/out" "consistent on 3 of 3 hosts: improvement on 3" "consistent"

"$P" compare --db "$db" --campaign big --json > "$tmp/out" ||
    fail "compare big --json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
c=d["comparisons"][0]
assert len(c["per_host"])==3, c
a=c["across_hosts"][0]
assert a["verdict"]=="improvement" and a["consistent"] and a["hosts"]==3, a
assert -85.5 < a["change_pct"] < -83.5, a
assert c["per_host"][1]["host"]=="host2"' "$tmp/out" ||
    fail "compare big --json: across_hosts"

# The campaign's report as an HTML page too (it was refused): the text
# report still on stdout, or the page alone with '-'.
"$P" compare --db "$db" --campaign big --html "$tmp/big.html" \
    > "$tmp/out" 2> "$tmp/err" || fail "compare big --html: $(cat "$tmp/err")"
has "$tmp/out" "^b against a across 3 hosts, the host as the unit" \
    "--html keeps the text"
has "$tmp/big.html" "<title>perfreg compare --campaign big</title>" \
    "--html title"
has "$tmp/big.html" 'class="comparison"' "--html comparison"
has "$tmp/big.html" "across 3 hosts" "--html across hosts"
# The per-host and across-hosts parts as tables of their own, not text.
has "$tmp/big.html" '<table class="across sortable">' "--html across-hosts table"
has "$tmp/big.html" '<table class="variance">' "--html boot variance table"
grep -q '<pre class="text">' "$tmp/big.html" &&
    fail "--html: a part of the campaign still as text in a <pre>"
"$P" compare --db "$db" --campaign big --html - > "$tmp/out" 2> "$tmp/err" ||
    fail "compare big --html -: $(cat "$tmp/err")"
[ "$(head -n 1 "$tmp/out")" = "<!DOCTYPE html>" ] ||
    fail "--html -: not a page alone on stdout"
[ "$(tail -n 1 "$tmp/out")" = "</body></html>" ] ||
    fail "--html -: something after the page (the text report?)"

"$P" compare --db "$db" --campaign mixed --fail-on-regression \
    > "$tmp/out" 2> "$tmp/err"
has "$tmp/out" "differs between hosts: regression on 2, " "differs"
has "$tmp/out" "host x variant F(2, " "agreement test"

"$P" compare --db "$db" --campaign big --host host2 > "$tmp/out" \
    2> "$tmp/err" || fail "--host: $(cat "$tmp/err")"
has "$tmp/out" "^b against a on host host2: boot level, 2 boots (10 runs)" \
    "--host header"
grep -q "across" "$tmp/out" && fail "--host compares across hosts"
grep -q "host1" "$tmp/out" && fail "--host shows another host"

"$P" compare --db "$db" --campaign big --host nope > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "--host nope: status not 2"
one_line_error "$tmp/err" "--host nope"
has "$tmp/err" "no run of a or b on host 'nope'" "--host nope message"

"$P" compare --host host1 a b > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "--host without --campaign: status not 2"
has "$tmp/err" "go.* with --campaign" "--host without --campaign"

# A fourth host that ran only the baseline is named and left out.
export_of four 0.155,0.155,0.155,0.155 4 > "$tmp/four.jsonl"
"$P" import --db "$db" "$tmp/four.jsonl" > /dev/null 2> "$tmp/err" ||
    fail "import four: $(cat "$tmp/err")"
"$P" compare --db "$db" --campaign four > "$tmp/out" 2> "$tmp/err" ||
    fail "compare four: $(cat "$tmp/err")"
has "$tmp/err" "host host4 ran only a: not compared" "one-sided host"
has "$tmp/out" "consistent on 3 of 3 hosts" "one-sided host left out"

# The environment diff compares every session of a variant, not only its
# first: a clocksource lost in the second boot is shown as a change within
# each variant (the snapshot of the second session edited in an export).
edb=$tmp/env.db
for b in b1 b2; do
	PERFREG_BOOT_ID=$b "$P" run --db "$edb" --campaign e -n 2 --warmup 0 \
	    a=true b=true > /dev/null 2> "$tmp/err" ||
	    fail "run e $b: $(cat "$tmp/err")"
done
"$P" export --db "$edb" > "$tmp/e.jsonl" || fail "export e"
grep -q '"key":"clocksource.current","category":"clock","value":"' \
    "$tmp/e.jsonl" || fail "export e: no clocksource in the snapshot"
awk '/"boot_id":"b2"/ {
	gsub(/"key":"clocksource.current","category":"clock","value":"[^"]*"/,
	    "\"key\":\"clocksource.current\",\"category\":\"clock\",\"value\":\"hpet\"")
} { print }' "$tmp/e.jsonl" > "$tmp/e2.jsonl"
"$P" import --db "$tmp/env2.db" "$tmp/e2.jsonl" > /dev/null 2> "$tmp/err" ||
    fail "import e2: $(cat "$tmp/err")"
"$P" compare --db "$tmp/env2.db" --campaign e > "$tmp/out" 2> "$tmp/err" ||
    fail "compare e: $(cat "$tmp/err")"
has "$tmp/out" "^environment: differs within variant a between boots 1 and 2" \
    "change within a"
has "$tmp/out" "^environment: differs within variant b between boots 1 and 2" \
    "change within b"
has "$tmp/out" "clocksource.current  .* -> hpet" "the change itself"
"$P" compare --db "$tmp/env2.db" --campaign e --json > "$tmp/out" ||
    fail "compare e --json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
w=d["comparisons"][0]["env_within"]
assert [x["variant"] for x in w]==["a","b"], w
assert w[0]["boot_a"]==1 and w[0]["boot_b"]==2, w
assert w[0]["diff"]["changes"][0]["b"]=="hpet", w' "$tmp/out" ||
    fail "compare e --json: env_within"
# Unchanged sessions add nothing.
"$P" compare --db "$edb" --campaign e > "$tmp/out" 2> "$tmp/err" ||
    fail "compare e unchanged: $(cat "$tmp/err")"
grep -q "differs within" "$tmp/out" && fail "unchanged sessions shown as differing"

# show keeps custom boot ids that share a long prefix apart (it cut every
# id to 8 characters: "kernel-6" twice).
sdb=$tmp/show.db
for b in kernel-6.1-old-1 kernel-6.1-old-2; do
	PERFREG_BOOT_ID=$b "$P" run --db "$sdb" --campaign s --variant v -n 1 \
	    --warmup 0 -- true > /dev/null 2> "$tmp/err" ||
	    fail "run s $b: $(cat "$tmp/err")"
done
"$P" show --db "$sdb" s > "$tmp/out" 2> "$tmp/err" ||
    fail "show s: $(cat "$tmp/err")"
has "$tmp/out" " kernel-6.1-old-1 " "first custom boot id in full"
has "$tmp/out" " kernel-6.1-old-2 " "second custom boot id in full"

# run shows its progress line on stderr when stderr is a terminal, even
# with stdout piped into another program (script(1) gives the terminal;
# only stdout is piped, into cat).
if command -v script > /dev/null 2>&1; then
	script -qec "'$P' run -n 3 --warmup 0 a=true b=true | cat > '$tmp/run.out'" \
	    "$tmp/typescript" > /dev/null 2>&1 < /dev/null ||
	    fail "run under script: status $?"
	has "$tmp/typescript" "[0-9]/6 runs" "progress line with stdout piped"
	grep -q "runs, " "$tmp/run.out" && fail "progress line on stdout"
fi

[ $fails -eq 0 ] || exit 1
echo "cli_hosts: ok"
