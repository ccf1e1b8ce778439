#!/bin/sh
# tests/store/pg_server.sh - CTest's side of the PostgreSQL test server.
#
#   pg_server.sh start DIR              the pg_server fixture's setup
#   pg_server.sh stop DIR               its cleanup
#   pg_server.sh run DIR NAME PROG...   runs PROG with PERFREG_TEST_PG set
#                                       to a fresh, empty database NAME
#
# start runs scripts/pg-test-server.sh.  When no server can be started it
# prints why and succeeds, so that the tests that need the server run and
# skip (exit 77) on their own - unless PERFREG_REQUIRE_PG=1, as in CI,
# where a missing server fails start and every test that needs it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
server="$here/../../scripts/pg-test-server.sh"
required=0
[ "${PERFREG_REQUIRE_PG:-}" = 1 ] && required=1

usage() {
	echo "usage: pg_server.sh start|stop DIR | run DIR NAME PROG..." >&2
	exit 2
}

[ $# -ge 2 ] || usage
cmd=$1
dir=$2
shift 2

case $cmd in
start)
	if sh "$server" start "$dir"; then
		exit 0
	fi
	if [ "$required" -eq 1 ]; then
		echo "pg_server.sh: PERFREG_REQUIRE_PG=1 but no server" >&2
		exit 1
	fi
	echo "pg_server.sh: no PostgreSQL server: the tests that need one skip"
	exit 0
	;;
stop)
	exec sh "$server" stop "$dir"
	;;
run)
	[ $# -ge 2 ] || usage
	name=$1
	shift
	if [ ! -f "$dir/conninfo" ]; then
		if [ "$required" -eq 1 ]; then
			echo "pg_server.sh: PERFREG_REQUIRE_PG=1 and" \
			    "no server in $dir" >&2
			exit 1
		fi
		echo "pg_server.sh: no PostgreSQL server in $dir: skipped"
		exit 77
	fi
	conn=$(sh "$server" createdb "$dir" "$name") || exit 1
	PERFREG_TEST_PG=$conn
	export PERFREG_TEST_PG
	exec "$@"
	;;
*)
	usage
	;;
esac
