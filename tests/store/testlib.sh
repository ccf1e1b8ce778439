# tests/store/testlib.sh - what the shell tests of the store share
# (sourced): a temporary directory removed on exit, a failure counter,
# and checks of files and error messages.  Sets tmp and fails.
# KEEP_TMP=DIR keeps the files there for a look after a failure.
tmp=${KEEP_TMP:-$(mktemp -d)}
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT
fails=0
unset PERFREG_DB XDG_DATA_HOME

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

# kill_after_lines PID FILE N: waits until FILE has N lines (a benchmark
# that logs each run), then kills PID with SIGKILL and reaps it.  Fails
# (and returns 1) when PID ended before that, or when the lines did not
# come in 10 minutes: a slow machine waits, it is never killed early.
kill_after_lines() {
	n=0
	while [ "$(wc -l < "$2")" -lt "$3" ] && kill -0 "$1" 2> /dev/null &&
	    [ $n -lt 6000 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	if [ "$(wc -l < "$2")" -lt "$3" ]; then
		kill -9 "$1" 2> /dev/null
		wait "$1" 2> /dev/null
		fail "kill_after_lines: $3 lines did not come in $2 ($(wc -l < "$2") came)"
		return 1
	fi
	kill -9 "$1"
	wait "$1" 2> /dev/null
}

# bisect_env: what the bisect tests share: a temporary directory and a
# database of the test's own, git with no user or system configuration,
# and the build command and metric of the program they make (BUILD,
# WORK).
bisect_env() {
	export TMPDIR="$tmp/tmpdir" PERFREG_DB="$tmp/db.sqlite"
	mkdir -p "$TMPDIR"
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org \
	    GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org \
	    GIT_CONFIG_NOSYSTEM=1 HOME="$tmp"
	BUILD='cc -O2 -o prog prog.c'
	WORK='work=^work: ([0-9.]+)$:s:lower'
}
