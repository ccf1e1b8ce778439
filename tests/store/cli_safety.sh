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

if [ $fails -gt 0 ]; then
	echo "$fails failure(s)" >&2
	exit 1
fi
echo "cli_safety: all passed"
