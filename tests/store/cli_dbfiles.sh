#!/bin/sh
# tests/store/cli_dbfiles.sh - the database file itself under abuse
# (issue 12, data safety): a FIFO, a directory or a device given as the
# database is refused in one line instead of blocking forever; a
# database in a directory this user cannot write is still read by the
# commands that only read (show, export, history, campaigns); past the
# file size limit (ulimit -f) a run stops with a one-line error that
# says so, instead of dying of SIGXFSZ, and keeps the runs committed
# before it.  None checks a time (a timeout only stops a hang).
#
# usage: cli_dbfiles.sh PERFREG
set -u
P=$1
. "$(dirname "$0")/testlib.sh"
export PERFREG_BOOT_ID=boot-1

# Not a regular file: refused at once, with what it is.
not_regular() {
	mkfifo "$tmp/fifo.db"
	for cmd in "show c" "export c" "campaigns" "history c"; do
		# shellcheck disable=SC2086
		timeout 20 "$P" $cmd --db "$tmp/fifo.db" > /dev/null 2> "$tmp/err"
		rc=$?
		[ $rc -eq 2 ] || fail "$cmd --db FIFO: exit $rc (124: it hung)"
		one_line_error "$tmp/err" "$cmd --db FIFO"
		has "$tmp/err" "not a regular file (a FIFO)" "$cmd --db FIFO"
	done
	timeout 20 "$P" run --db "$tmp/fifo.db" --campaign c -n 1 --warmup 0 \
	    a=true > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "run --db FIFO: exit $rc (124: it hung)"
	has "$tmp/err" "not a regular file (a FIFO)" "run --db FIFO"
	[ -p "$tmp/fifo.db" ] || fail "run --db FIFO replaced the FIFO"
	mkdir "$tmp/dir.db"
	"$P" show c --db "$tmp/dir.db" > /dev/null 2> "$tmp/err"
	[ $? -eq 2 ] || fail "show --db DIR: exit status"
	has "$tmp/err" "not a regular file (a directory)" "show --db DIR"
	"$P" run --db /dev/null --campaign c -n 1 --warmup 0 a=true \
	    > /dev/null 2> "$tmp/err"
	[ $? -eq 2 ] || fail "run --db /dev/null: exit status"
	has "$tmp/err" "not a regular file (a character device)" \
	    "run --db /dev/null"
	[ -c /dev/null ] || fail "run --db /dev/null replaced the device"
}
not_regular

# A read-only directory.  Root writes anywhere, so as root the reader
# is another user (nobody), when one can be switched to.
read_only_dir() {
	ro=$tmp/ro
	mkdir "$ro"
	"$P" run --db "$ro/p.db" --campaign c -n 3 --warmup 0 a=true b=true \
	    > /dev/null 2> "$tmp/err" || fail "setup run: $(cat "$tmp/err")"
	ls "$ro"/p.db-wal > /dev/null 2>&1 && fail "setup: a WAL file is left"
	chmod 755 "$tmp"
	chmod 555 "$ro"
	chmod 644 "$ro/p.db"
	if [ "$(id -u)" -eq 0 ]; then
		if ! su nobody -s /bin/sh -c "test -x '$P'" 2> /dev/null; then
			echo "read_only_dir: skipped (nobody cannot run $P)"
			return
		fi
		as() { su nobody -s /bin/sh -c "$*"; }
	else
		as() { sh -c "$*"; }
	fi
	for cmd in "show c" "export c" "campaigns" "history c --metric wall_s"; do
		as "'$P' $cmd --db '$ro/p.db'" > "$tmp/out" 2> "$tmp/err"
		rc=$?
		# history exits 2 with too few sessions for change points,
		# after it has read them: the message says so.
		case $cmd in
		history*) has "$tmp/err" "1 session of 'c'" "$cmd in a read-only directory" ;;
		*) [ $rc -eq 0 ] || fail "$cmd in a read-only directory: exit $rc: $(cat "$tmp/err")" ;;
		esac
		grep -q "read-only\|readonly" "$tmp/err" &&
		    fail "$cmd in a read-only directory: $(cat "$tmp/err")"
	done
	as "'$P' export c --db '$ro/p.db'" > "$tmp/out" 2> "$tmp/err"
	has "$tmp/out" '"type":"end"' "export in a read-only directory"
	as "'$P' show c --db '$ro/p.db'" > "$tmp/out" 2> "$tmp/err"
	has "$tmp/out" "variants" "show in a read-only directory"
	# Writing is still refused, in one line.
	as "'$P' run --db '$ro/p.db' --campaign c -n 1 --warmup 0 a=true" \
	    > /dev/null 2> "$tmp/err"
	[ $? -ne 0 ] || fail "run in a read-only directory succeeded"
	chmod 755 "$ro"
}
read_only_dir

# The file size limit: a clear error, the committed runs kept.
fsize() {
	mkdir "$tmp/fs"
	(
		ulimit -f 4000
		exec "$P" run --db "$tmp/fs/p.db" --campaign c -n 300 --warmup 0 \
		    -L 'i=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20' \
		    a='echo {i}'
	) > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "run past ulimit -f: exit $rc (153: killed by SIGXFSZ)"
	one_line_error "$tmp/err" "run past ulimit -f"
	has "$tmp/err" "file size limit (ulimit -f" "run past ulimit -f"
	has "$tmp/err" "the runs before it are stored" "run past ulimit -f"
	n=$(sqlite3 "$tmp/fs/p.db" 'SELECT count(*) FROM run')
	r=$(sed -n 's/.*run \([0-9]*\) could not be stored.*/\1/p' "$tmp/err")
	[ -n "$r" ] && [ "$n" -eq $((r - 1)) ] ||
	    fail "run past ulimit -f: $n runs stored, the error says run '$r' failed"
	# A benchmark keeps the default SIGXFSZ (a handler, not SIG_IGN,
	# which exec would keep).
	"$P" run -n 1 --warmup 0 --shell \
	    a='grep SigIgn /proc/self/status > '"$tmp/sig" > /dev/null 2>&1
	ign=$(sed 's/SigIgn:[[:space:]]*//' "$tmp/sig")
	# SIGXFSZ is signal 25: bit 24 of the mask.
	[ $(( (0x$ign >> 24) & 1 )) -eq 0 ] ||
	    fail "the benchmark inherits an ignored SIGXFSZ ($ign)"
}
fsize

# libpq is loaded only for a postgresql:// store (issue 16): the other
# commands run without it, and a libpq.so.5 that cannot be loaded (here
# one that is not a library, found first through LD_LIBRARY_PATH) is a
# one-line error that names it, not a crash.
nolibpq() {
	mkdir "$tmp/nolibpq"
	echo "not a library" > "$tmp/nolibpq/libpq.so.5"
	LD_LIBRARY_PATH=$tmp/nolibpq "$P" campaigns \
	    --db "postgresql://127.0.0.1:1/none" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "postgresql:// without libpq: exit $rc"
	one_line_error "$tmp/err" "postgresql:// without libpq"
	has "$tmp/err" "cannot load libpq.so.5 (the libpq5 package): .*nolibpq/libpq.so.5" \
	    "postgresql:// without libpq"
	LD_LIBRARY_PATH=$tmp/nolibpq "$P" run --db "$tmp/nolibpq.db" \
	    --campaign c -n 1 --warmup 0 a=true > /dev/null 2> "$tmp/err" ||
	    fail "an SQLite store needs libpq: $(cat "$tmp/err")"
	if command -v ldd > /dev/null 2>&1 && ldd "$P" | grep -q 'libpq\.so'; then
		fail "perfreg is linked with libpq: $(ldd "$P" | grep libpq)"
	fi
}
nolibpq

[ "$fails" -eq 0 ] || exit 1
echo "cli_dbfiles: all passed"
