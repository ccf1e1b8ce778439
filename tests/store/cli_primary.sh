#!/bin/sh
# tests/store/cli_primary.sh - the primary metrics stored with a session
# (schema 3), end to end: `run --campaign --primary` and the parsers'
# result flags, read back by `show` and `compare --campaign` with the
# families of files-mode compare (Holm over the primaries, BH over the
# side metrics), kept through `export` / `import`, and a database of
# schema 2 (tests/store/data/schema-v2.sql) that migrates and keeps the
# old fallback, wall_s.  No timing is checked: the metrics come from a
# counter, the same on every machine.
#
# usage: cli_primary.sh PERFREG
set -u
P=$1
. "$(dirname "$0")/testlib.sh"

# The command of a variant: prints "ops N lat M" from a counter kept in
# $tmp/count.VARIANT, ops around base (100 or 50), lat around 10 on both.
cmd() { # variant base
	printf '%s' "n=\$(cat $tmp/count.$1 2>/dev/null || echo 0);" \
	    " echo \$((n + 1)) > $tmp/count.$1;" \
	    " echo ops \$(($2 + n % 5)) lat \$((10 + n % 3))"
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

# Without --primary, the flags stored with the runs make ops and lat
# primary (both --metric results), wall_s a side metric.
campaign "$db" flags
[ "$(show_primary "$db" flags | tr '\n' ' ')" = "ops lat " ] ||
    fail "flags: show's primaries: $(cat "$tmp/show")"

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

# A database of schema 2 migrates when read; its runs have no flags and
# its sessions no primaries, so wall_s stays its primary.
sqlite3 "$tmp/v2.db" < tests/store/data/schema-v2.sql ||
    fail "could not load the schema 2 database"
[ "$(show_primary "$tmp/v2.db" old)" = "wall_s" ] ||
    fail "schema 2: show's primary: $(cat "$tmp/show")"
[ "$(sqlite3 "$tmp/v2.db" 'SELECT max(version) FROM schema_version')" = 3 ] ||
    fail "schema 2: not migrated"

[ "$fails" -eq 0 ] || exit 1
echo "cli_primary: all passed"
