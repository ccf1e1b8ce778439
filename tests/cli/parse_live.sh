#!/bin/sh
# parse_live.sh PERFREG: runs the real tools now (openssl speed, an iperf3
# server and client on 127.0.0.1, GNU time, bash/tcsh time, dd, perf
# stat) and checks that `perfreg parse` reads their output: the format is
# detected and the expected metrics are there with numeric values, and
# the throughputs are above zero.  The captured files under tests/data
# pin exact values; this test guards against the tools' output changing
# under us.  No timing thresholds.  A missing tool is a failure (scripts/
# deps.sh installs them), except perf, which is skipped when absent or
# not permitted.
set -u
PERFREG=$1
export LC_ALL=C
tmp=$(mktemp -d) || exit 2
srv=
cleanup() {
	[ -n "$srv" ] && kill "$srv" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0

# expect FILE FORMAT [OPTIONS...] -- METRIC...: each METRIC has a value
# that is a number; a METRIC written NAME+ must be above zero.
expect() {
	file=$1 fmt=$2
	shift 2
	opts=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts="$opts $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	if ! "$PERFREG" parse $opts "$file" >"$tmp/out" 2>"$tmp/err"; then
		echo "parse_live: $file: perfreg parse failed:" >&2
		cat "$tmp/err" "$file" >&2
		fail=1
		return
	fi
	if [ "$(head -n 1 "$tmp/out")" != "$file: $fmt" ]; then
		echo "parse_live: $file: not read as $fmt:" >&2
		head -n 1 "$tmp/out" >&2
		fail=1
	fi
	for m in "$@"; do
		name=${m%+}
		v=$(awk -v n="$name" '$1 == n { print $2; exit }' "$tmp/out")
		case $v in
		'' | - | *[!0-9.e+-]*)
			echo "parse_live: $file: no value for $name" >&2
			cat "$tmp/out" "$file" >&2
			fail=1
			continue
			;;
		esac
		if [ "$name" != "$m" ] && ! awk -v v="$v" 'BEGIN {
		    exit !(v + 0 > 0) }'; then
			echo "parse_live: $file: $name is $v, not above 0" >&2
			fail=1
		fi
	done
}

need() {
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "parse_live: $1 is not installed (scripts/deps.sh)" >&2
		fail=1
		return 1
	fi
}

if need openssl; then
	openssl speed -seconds 1 -bytes 64 sha256 >"$tmp/ossl.txt" 2>&1
	expect "$tmp/ossl.txt" openssl -- sha256/64B+ sha256/64B/ops+ \
	    sha256/64B/ops_per_s+
	openssl speed -mr -seconds 1 -bytes 64 sha256 >"$tmp/osslmr.txt" 2>&1
	expect "$tmp/osslmr.txt" openssl -- sha256/64B+ sha256/64B/ops+
	openssl speed -seconds 1 rsa2048 >"$tmp/rsa.txt" 2>&1
	expect "$tmp/rsa.txt" openssl -- rsa2048/sign+ rsa2048/verify+
fi

if need iperf3; then
	# A free port the kernel picks (a fixed or pid-derived one can be an
	# ephemeral port another test's connection holds: "Address already
	# in use"); retry the client while the server starts, and start the
	# server again on another port when it could not listen.
	free_port() {
		python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
		    echo $((20000 + $$ % 10000 + ${1:-0}))
	}
	port=$(free_port)
	run_iperf() {
		out=$1
		shift
		tries=0
		while :; do
			iperf3 -s -1 -p "$port" >"$tmp/srv.txt" 2>&1 &
			srv=$!
			i=0
			while [ $i -lt 20 ]; do
				if iperf3 -c 127.0.0.1 -p "$port" -t 1 "$@" \
				    >"$out" 2>&1 &&
				    ! grep -q 'iperf3: error\|"error"' "$out"
				then
					break
				fi
				# The server gave up (its port taken): no
				# client will reach it.
				kill -0 "$srv" 2>/dev/null || break
				sleep 0.2
				i=$((i + 1))
			done
			if grep -q 'unable to start listener' "$tmp/srv.txt" &&
			    [ $tries -lt 5 ]; then
				wait "$srv"
				tries=$((tries + 1))
				port=$(free_port $tries)
				continue
			fi
			break
		done
		wait "$srv"
		srv=
	}
	run_iperf "$tmp/tcp.txt"
	expect "$tmp/tcp.txt" iperf3 -- sender_bitrate+ receiver_bitrate+ \
	    sender_transfer+ sender_retransmits
	expect "$tmp/srv.txt" iperf3 -- receiver_bitrate+
	run_iperf "$tmp/tcp.json" -J
	expect "$tmp/tcp.json" iperf3 -- sender_bitrate+ receiver_transfer+
	run_iperf "$tmp/udp.txt" -u
	expect "$tmp/udp.txt" iperf3 -- receiver_jitter receiver_lost_pct \
	    receiver_bitrate+
	# Nobody listens now: an error, exit 2.
	iperf3 -c 127.0.0.1 -p "$port" -t 1 -J >"$tmp/refused.json" 2>&1
	if "$PERFREG" parse "$tmp/refused.json" >/dev/null 2>&1; then
		echo "parse_live: iperf3 error accepted" >&2
		fail=1
	fi
fi

if need /usr/bin/time; then
	/usr/bin/time sh -c 'echo x >/dev/null' >"$tmp/t1.txt" 2>&1
	expect "$tmp/t1.txt" time -- elapsed user sys maxrss+
	/usr/bin/time -v sh -c 'echo x >/dev/null' >"$tmp/t2.txt" 2>&1
	expect "$tmp/t2.txt" time -- elapsed maxrss+ minor_faults+
	/usr/bin/time -p true >"$tmp/t3.txt" 2>&1
	expect "$tmp/t3.txt" time -- elapsed user sys
fi
bash -c 'time true' >"$tmp/bash.txt" 2>&1
expect "$tmp/bash.txt" time -- elapsed user sys
if need tcsh; then
	tcsh -c 'time /bin/sleep 0.05' >"$tmp/tcsh.txt" 2>&1
	expect "$tmp/tcsh.txt" time -- elapsed+ user sys cpu
fi
dd if=/dev/zero of=/dev/null bs=1M count=10 >"$tmp/dd.txt" 2>&1
expect "$tmp/dd.txt" time -- dd_bytes+ dd_seconds dd_rate

if command -v perf >/dev/null 2>&1 &&
    perf stat -x, true >"$tmp/perfx.txt" 2>&1; then
	expect "$tmp/perfx.txt" perf -- task-clock
	perf stat true >"$tmp/perf.txt" 2>&1
	expect "$tmp/perf.txt" perf -- task-clock elapsed
else
	echo "parse_live: perf stat not available here; skipped" >&2
fi
exit $fail
