#!/bin/sh
# pg-test-server.sh - a throwaway PostgreSQL server for perfreg's tests.
#
#   pg-test-server.sh start DIR    start a server, print its conninfo
#   pg-test-server.sh stop DIR     stop it and remove DIR
#   pg-test-server.sh createdb DIR NAME
#                                  (re)create database NAME on DIR's
#                                  server, empty, and print its conninfo
#
# start initialises a new cluster (initdb --no-sync, trust authentication,
# UTF8, C locale, fsync off: the data are thrown away), starts it on the
# first free port from $PERFREG_PG_PORT (default 54320) upward, listening
# on 127.0.0.1 and on a unix socket in the server's own directory, creates
# the database perfreg_test, and prints a libpq conninfo such as
#   host=127.0.0.1 port=54320 user=postgres dbname=perfreg_test
# on stdout and into DIR/conninfo.  It never touches Debian's "main"
# cluster or port 5432.  When no server can be started it says why on
# stderr and in DIR/unavailable, and exits 1.
#
# PostgreSQL refuses to run as root: as root the server runs as the user
# $PERFREG_PG_USER (default postgres).  Its files are then kept in a
# directory of that user's under /tmp (DIR/server names it), because DIR
# may sit in a tree that user cannot enter (/root/...) and because a unix
# socket path must stay under 108 bytes.  As another user the server runs
# as that user, under ${TMPDIR:-/tmp}.
#
# start is idempotent: when DIR's server is running it prints the same
# conninfo; when it died, start cleans up and starts a new one.  stop
# works on a dead or half-started server too.  Both hold a lock on
# DIR.flock (flock), so that two test runs starting at once in one build
# tree share one server instead of leaving one behind.  start also stops
# servers of this script whose DIR is gone or names another server (left
# by a test run that was killed before its stop) once they are ten
# minutes old.  Binaries come from
# $PG_BINDIR, else the newest /usr/lib/postgresql/*/bin, else PATH.
set -eu

prog=pg-test-server.sh

usage() {
	echo "usage: $prog start|stop DIR | createdb DIR NAME" >&2
	exit 2
}

fail() {
	echo "$prog: $*" >&2
	if [ -n "${dir:-}" ] && [ -d "$dir" ]; then
		echo "$*" >"$dir/unavailable"
	fi
	exit 1
}

find_bindir() {
	if [ -n "${PG_BINDIR:-}" ]; then
		[ -x "$PG_BINDIR/initdb" ] && [ -x "$PG_BINDIR/pg_ctl" ] &&
		    { echo "$PG_BINDIR"; return 0; }
		return 1
	fi
	# Newest version first (15 before 9.6): a numeric sort of the names.
	# shellcheck disable=SC2012
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null |
	    sort -t/ -k5,5nr); do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
			echo "$d"
			return 0
		fi
	done
	p=$(command -v initdb 2>/dev/null) || return 1
	d=$(dirname "$p")
	[ -x "$d/pg_ctl" ] || return 1
	echo "$d"
}

# Runs a command as the server's user, from a directory that user can
# enter (initdb and pg_ctl fail when the current one is unreadable).
as_pg() {
	if [ "$(id -u)" -eq 0 ]; then
		(cd / && runuser -u "$pguser" -- "$@" 9>&-)
	else
		(cd / && "$@" 9>&-)
	fi
}

port_busy() {
	if command -v ss >/dev/null 2>&1; then
		ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
		return
	fi
	# Without ss: anything answering there, PostgreSQL or not, counts.
	"$bindir/pg_isready" -q -h 127.0.0.1 -p "$1" -t 2 >/dev/null 2>&1
	[ $? -ne 2 ]
}

# Stops the server recorded in DIR/server, if any, and removes its files.
stop_server() {
	[ -f "$dir/server" ] || return 0
	srv=$(cat "$dir/server")
	case $srv in
	*/perfreg-pg.*) ;;
	*) echo "$prog: $dir/server: unexpected path '$srv', left alone" >&2
	   return 0 ;;
	esac
	if [ -f "$srv/data/postmaster.pid" ]; then
		as_pg "$bindir/pg_ctl" stop -D "$srv/data" -m fast -w -t 30 \
		    >/dev/null 2>&1 ||
		    as_pg "$bindir/pg_ctl" stop -D "$srv/data" -m immediate \
		    -w -t 30 >/dev/null 2>&1 || true
	fi
	rm -rf "$srv"
	rm -f "$dir/server"
}

[ $# -ge 2 ] || usage
cmd=$1
dir=${2%/}
if [ -z "$dir" ] || [ "$dir" = / ]; then
	usage
fi
pguser=${PERFREG_PG_USER:-postgres}
if [ "$(id -u)" -eq 0 ]; then
	id -u "$pguser" >/dev/null 2>&1 ||
	    fail "no user '$pguser' to run PostgreSQL as (it refuses root)"
	command -v runuser >/dev/null 2>&1 ||
	    fail "runuser not found: cannot run PostgreSQL as '$pguser'"
	base=/tmp
else
	base=${TMPDIR:-/tmp}
fi

# Serialises start and stop on one DIR (the lock file outlives DIR).  The
# server must not inherit the lock's descriptor (as_pg closes it), and a
# lock held too long is broken rather than waited for forever.
lock() {
	if command -v flock >/dev/null 2>&1; then
		mkdir -p "$(dirname "$dir")"
		exec 9>"$dir.flock"
		flock -w 120 9 ||
		    echo "$prog: $dir.flock: still locked, going on" >&2
	fi
}

# Stops the servers this script started for a DIR that no longer names
# them.  Those without an owner file are left alone.
reap() {
	for owner in "$base"/perfreg-pg.*/owner; do
		[ -f "$owner" ] || continue
		old=$(dirname "$owner")
		[ "$old" != "$srv" ] || continue
		[ -n "$(find "$owner" -mmin +10 2>/dev/null)" ] || continue
		odir=$(cat "$owner")
		if [ -f "$odir/server" ] && [ "$(cat "$odir/server")" = "$old" ]
		then
			continue
		fi
		if [ -f "$old/data/postmaster.pid" ]; then
			as_pg "$bindir/pg_ctl" stop -D "$old/data" \
			    -m immediate -w -t 30 >/dev/null 2>&1 || continue
		fi
		rm -rf "$old"
	done
}

case $cmd in
start)
	[ $# -eq 2 ] || usage
	lock
	;;
createdb)
	[ $# -eq 3 ] || usage
	name=$3
	case $name in
	"" | *[!a-z0-9_]*) fail "database name '$name': use [a-z0-9_]" ;;
	esac
	[ -f "$dir/conninfo" ] || fail "$dir: no test server running"
	bindir=$(find_bindir) || fail "no PostgreSQL client binaries"
	conn=$(cat "$dir/conninfo")
	port=$(echo "$conn" | sed -n 's/.*port=\([0-9]*\).*/\1/p')
	"$bindir/dropdb" -h 127.0.0.1 -p "$port" -U postgres --if-exists \
	    "$name" >/dev/null 2>&1 || true
	"$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres "$name" ||
	    fail "createdb $name failed"
	echo "$conn" | sed "s/dbname=[^ ]*/dbname=$name/"
	exit 0
	;;
stop)
	[ $# -eq 2 ] || usage
	lock
	if [ -d "$dir" ]; then
		bindir=$(find_bindir) || bindir=/nonexistent
		stop_server
		rm -rf "$dir"
	fi
	exit 0
	;;
*) usage ;;
esac

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
rm -f "$dir/unavailable"
bindir=$(find_bindir) ||
    fail "no initdb and pg_ctl in /usr/lib/postgresql/*/bin or PATH" \
    "(Debian: apt-get install postgresql)"

# A dead postmaster can linger as a zombie that pg_ctl status takes for
# a live one: ask the server itself.
if [ -f "$dir/conninfo" ] && [ -f "$dir/server" ] &&
    "$bindir/pg_isready" -q -d "$(cat "$dir/conninfo")" -t 5 \
    >/dev/null 2>&1; then
	cat "$dir/conninfo"
	exit 0
fi
stop_server
rm -f "$dir/conninfo"

srv=$(mktemp -d "$base/perfreg-pg.XXXXXX") ||
    fail "cannot create a directory under $base"
echo "$srv" >"$dir/server"
echo "$dir" >"$srv/owner"
if [ "$(id -u)" -eq 0 ]; then
	chown "$pguser:" "$srv"
fi
chmod 700 "$srv"
reap

# Says why the server is not there, with the end of its log, and cleans up.
give_up() {
	if [ -f "$2" ]; then
		echo "$prog: last lines of $2:" >&2
		tail -n 15 "$2" | sed 's/^/  /' >&2
	fi
	stop_server
	fail "$1"
}

if ! as_pg "$bindir/initdb" -D "$srv/data" -U postgres -A trust -E UTF8 \
    --locale=C --no-sync >"$srv/initdb.log" 2>&1; then
	give_up "initdb failed" "$srv/initdb.log"
fi
cat >>"$srv/data/postgresql.conf" <<EOF
# perfreg test server: throwaway data, so no durability.
listen_addresses = '127.0.0.1'
unix_socket_directories = '$srv'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 60
max_wal_size = 2GB
EOF

port=${PERFREG_PG_PORT:-54320}
last=$((port + 200))
started=0
while [ "$port" -lt "$last" ]; do
	if port_busy "$port"; then
		port=$((port + 1))
		continue
	fi
	: >"$srv/server.log"
	[ "$(id -u)" -ne 0 ] || chown "$pguser:" "$srv/server.log"
	# 9>&-: the server must not inherit the lock, or it would hold it
	# for its whole life and `stop` would wait for it forever.
	if as_pg "$bindir/pg_ctl" start -D "$srv/data" -w -t 60 \
	    -l "$srv/server.log" -o "-p $port" >/dev/null 2>&1 9>&-; then
		started=1
		break
	fi
	# Another server took the port between the check and the start.
	if grep -q 'could not bind\|could not create any TCP/IP' \
	    "$srv/server.log"; then
		port=$((port + 1))
		continue
	fi
	give_up "the server did not start" "$srv/server.log"
done
[ "$started" -eq 1 ] ||
    give_up "no free port in ${PERFREG_PG_PORT:-54320}..$last" \
    "$srv/server.log"

if ! "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres perfreg_test \
    >"$dir/createdb.log" 2>&1; then
	cat "$dir/createdb.log" >&2
	give_up "createdb perfreg_test failed" "$srv/server.log"
fi
rm -f "$dir/createdb.log"

conninfo="host=127.0.0.1 port=$port user=postgres dbname=perfreg_test"
echo "$conninfo" >"$dir/conninfo.tmp"
mv "$dir/conninfo.tmp" "$dir/conninfo"
echo "$conninfo"
