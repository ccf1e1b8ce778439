#!/bin/sh
# tests/store/cli_safety.sh - the results database and its exports under
# abuse (issue 12, data safety and import), end to end against real
# SQLite files: `export -o` onto a device node, a FIFO, a symbolic link,
# a directory; `import` of a file truncated while it is read, of
# /dev/zero, of status and outcome strings outside the schema's and of
# duplicate run lines; a partial then a complete export of one session;
# a database that is a FIFO.  Each part reproduces a defect that the
# review found; none checks a time.
#
# usage: cli_safety.sh PERFREG
set -u
P=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
unset PERFREG_DB XDG_DATA_HOME
export PERFREG_BOOT_ID=boot-1

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

has() { # file pattern what
	grep -q -- "$2" "$1" || fail "$3: no '$2' in $(cat "$1")"
}

one_line_error() { # file what
	n=$(wc -l < "$1")
	[ "$n" -eq 1 ] || fail "$2: expected one line on stderr, got $n: $(cat "$1")"
	has "$1" "^perfreg: " "$2"
}

db=$tmp/db.sqlite
"$P" run --db "$db" --campaign c --variant v -n 3 --warmup 0 -- true \
    > /dev/null 2> "$tmp/err" || fail "setup run: $(cat "$tmp/err")"

# export -o onto what is not a regular file: never replaced.
export_targets() {
	mknod "$tmp/null" c 1 3 || { fail "mknod"; return; }
	"$P" export --db "$db" -o "$tmp/null" 2> "$tmp/err" ||
	    fail "export -o NODE: $(cat "$tmp/err")"
	[ -c "$tmp/null" ] || fail "export -o NODE replaced the device node"
	ls "$tmp"/null.tmp-* > /dev/null 2>&1 && fail "export -o NODE left a temporary file"

	mkfifo "$tmp/fifo"
	# A reader that the export never opens gives up after 20 s.
	timeout 20 cat "$tmp/fifo" > "$tmp/fifo.out" &
	reader=$!
	"$P" export --db "$db" -o "$tmp/fifo" 2> "$tmp/err" ||
	    fail "export -o FIFO: $(cat "$tmp/err")"
	wait $reader
	[ -p "$tmp/fifo" ] || fail "export -o FIFO replaced the FIFO"
	has "$tmp/fifo.out" '"type":"end"' "export -o FIFO: the reader got it all"

	ln -s "$tmp/elsewhere" "$tmp/link"
	"$P" export --db "$db" -o "$tmp/link" 2> "$tmp/err"
	[ $? -eq 2 ] || fail "export -o SYMLINK: exit status"
	one_line_error "$tmp/err" "export -o SYMLINK"
	has "$tmp/err" "symbolic link" "export -o SYMLINK"
	[ -L "$tmp/link" ] || fail "export -o SYMLINK replaced the link"
	[ -e "$tmp/elsewhere" ] && fail "export -o SYMLINK wrote through the link"

	mkdir "$tmp/dir"
	"$P" export --db "$db" -o "$tmp/dir" 2> "$tmp/err"
	[ $? -eq 2 ] || fail "export -o DIR: exit status"
	one_line_error "$tmp/err" "export -o DIR"
	"$P" export --db "$db" -o '' 2> "$tmp/err"
	[ $? -eq 2 ] || fail "export -o '': exit status"
	one_line_error "$tmp/err" "export -o ''"

	# A regular file is still replaced, and only when complete.
	echo old > "$tmp/reg"
	"$P" export --db "$db" -o "$tmp/reg" 2> "$tmp/err" ||
	    fail "export -o FILE: $(cat "$tmp/err")"
	has "$tmp/reg" '"type":"end"' "export -o FILE"
}
export_targets

# import: inputs that are not files of bounded size.
import_inputs() {
	"$P" export --db "$db" -o "$tmp/c.jsonl" || fail "export for import"
	# /dev/zero: one endless line, refused at its first 8 MiB; memory
	# stays small (it buffered 4 GB before it parsed).
	/usr/bin/time -f '%M' -o "$tmp/rss" "$P" import --db "$tmp/zero.db" \
	    /dev/zero > /dev/null 2> "$tmp/err"
	[ $? -eq 2 ] || fail "import /dev/zero: exit status"
	one_line_error "$tmp/err" "import /dev/zero"
	has "$tmp/err" "/dev/zero:1: line is longer" "import /dev/zero"
	rss=$(tail -1 "$tmp/rss")
	[ "$rss" -lt 400000 ] || fail "import /dev/zero: max RSS $rss KiB"

	# A FIFO is read as it comes.
	mkfifo "$tmp/in.fifo"
	timeout 20 sh -c 'cat "$1" > "$2"' sh "$tmp/c.jsonl" "$tmp/in.fifo" &
	"$P" import --db "$tmp/fifo.db" "$tmp/in.fifo" > "$tmp/out" \
	    2> "$tmp/err" || fail "import FIFO: $(cat "$tmp/err")"
	has "$tmp/out" "imported 1 campaign, 1 session, 3 runs" "import FIFO"

	# A file truncated while it is imported: a truncated export (exit 2,
	# nothing imported) or, if the import was quicker, a complete one;
	# never a signal (it was mapped: SIGBUS).
	python3 tests/store/gen_export.py 200000 20000 > "$tmp/big.jsonl"
	"$P" import --db "$tmp/big.db" "$tmp/big.jsonl" > "$tmp/out" \
	    2> "$tmp/err" &
	imp=$!
	sleep 0.3
	truncate -s 1000000 "$tmp/big.jsonl"
	wait $imp
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 2 ] ||
	    fail "import of a file truncated meanwhile: exit status $rc"
	if [ $rc -eq 2 ]; then
		one_line_error "$tmp/err" "import of a truncated file"
		has "$tmp/err" "truncated" "import of a truncated file"
		n=$(sqlite3 "$tmp/big.db" 'SELECT count(*) FROM run')
		[ "$n" = 0 ] || fail "import of a truncated file left $n runs"
	fi
	rm -f "$tmp/big.jsonl"
}
import_inputs

if [ $fails -gt 0 ]; then
	echo "$fails failure(s)" >&2
	exit 1
fi
echo "cli_safety: all passed"
