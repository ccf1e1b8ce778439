#!/bin/sh
# bench/probes-vs-tools.sh - the crypto, tcp and pipe-digest probes against
# the real tools they stand in for, run interleaved (probe, tool, probe,
# tool, ...) so that both see the same machine:
#   crypto       `openssl speed -seconds 1 -mr -evp ALG`, per block size
#                (16 B ... 16 KiB); both divide by CPU time (speed by
#                user time, the probe by its thread's CPU time)
#   tcp          iperf3 on 127.0.0.1 (`iperf3 -s -1`, then `iperf3 -c
#                127.0.0.1 -t 1`, with -P 2 for two streams), receiver rate
#   pipe-digest  seed 002's pipeline `dd if=/dev/zero bs=1048576 count=128
#                | openssl dgst -md5`, wall time by date +%s.%N (it includes
#                starting dd and openssl, 10 to 40 ms; the probe does not)
# Each figure is the median over ROUNDS rounds; in a round, tcp and
# pipe-digest alternate three times with their tool, so that both sample
# the same moments of a busy machine (the probe's figure in a run is the
# median of its samples).  Prints, per comparison, the probe,
# the tool, the ratio probe/tool (both as throughput, or both as time for
# pipe-digest) and "OUTSIDE" when the ratio is outside [0.75, 1.25]: a
# probe that disagrees with its twin by more than 25% is a defect.
#
# Usage: bench/probes-vs-tools.sh [-r ROUNDS] [-a "ALG ..."]
#   -r  rounds, default 5
#   -a  crypto algorithms, default "aes-128-gcm sha256 chacha20-poly1305
#       des-ede3-cbc"
# Environment: PROBE_RUN, the probe-run binary to use; by default it is
# built optimised in build/bench.  IPERF_PORT, default 5299.
# Needs openssl, iperf3, dd, GNU date, awk and cmake.  Exits 1 when a ratio
# is outside the band, 2 on a usage or setup error.
set -eu

rounds=5
algs="aes-128-gcm sha256 chacha20-poly1305 des-ede3-cbc"
while getopts r:a: opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	a) algs=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-a \"ALG ...\"]" >&2; exit 2 ;;
	esac
done
case $rounds in
'' | *[!0-9]* | 0) echo "$0: -r wants a positive number" >&2; exit 2 ;;
esac
port=${IPERF_PORT:-5299}
root=$(cd "$(dirname "$0")/.." && pwd)
for tool in openssl iperf3 dd awk; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "$0: $tool is missing" >&2
		exit 2
	}
done
if [ -z "${PROBE_RUN:-}" ]; then
	. "$root/bench/lib.sh"
	bench_build probe-run
	PROBE_RUN=$root/build/bench/bench/probe-run
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C

now() { date +%s.%N; }

# median FILE: the median of the numbers in FILE, one a line.
median() {
	sort -g "$1" | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	}'
}

# iperf_mbps STREAMS: one iperf3 run, the receiver's rate in MB/s.
iperf_mbps() {
	iperf3 -s -1 -p "$port" >/dev/null 2>&1 &
	spid=$!
	sleep 0.3
	iperf3 -c 127.0.0.1 -p "$port" -t 1 -f m -P "$1" 2>/dev/null |
	    awk -v n="$1" '/receiver/ && (n == 1 || /SUM/) {
		for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec")
			print $i / 8 }'
	wait "$spid" 2>/dev/null || true
}

sizes="16 64 256 1024 8192 16384"
r=1
while [ "$r" -le "$rounds" ]; do
	echo "round $r of $rounds ..." >&2
	for alg in $algs; do
		"$PROBE_RUN" -n 5 crypto "$alg" 2>/dev/null |
		    awk -v d="$tmp" -v a="$alg" '{ sub(/^crypto\./, "", $1)
			sub(/B$/, "", $1)
			print $2 >> (d "/p.crypto." a "." $1) }'
		openssl speed -seconds 1 -mr -evp "$alg" 2>/dev/null |
		    awk -F: -v d="$tmp" -v a="$alg" -v s="$sizes" '
			BEGIN { n = split(s, z, " ") }
			/^\+F:/ { for (i = 1; i <= n; i++)
				print $(i + 3) / 1e6 >> (d "/t.crypto." a "." z[i])
			}'
	done
	for k in 1 2 3; do
		for n in 1 2; do
			v=1stream
			[ "$n" = 2 ] && v=2streams
			"$PROBE_RUN" -n 3 tcp "$v" 2>/dev/null |
			    awk '{ print $2 }' >>"$tmp/p.tcp.$v"
			iperf_mbps "$n" >>"$tmp/t.tcp.$v"
		done
		"$PROBE_RUN" -n 1 pipe-digest md5 2>/dev/null |
		    awk '$1 == "pipe-digest.wall" { print $2 }' \
		    >>"$tmp/p.pipe-digest"
		t0=$(now)
		dd if=/dev/zero bs=1048576 count=128 2>/dev/null |
		    openssl dgst -md5 >/dev/null
		t1=$(now)
		echo "$t0 $t1" | awk '{ print $2 - $1 }' >>"$tmp/t.pipe-digest"
	done
	r=$((r + 1))
done

bad=0
printf '%-34s %12s %12s %7s\n' comparison probe tool ratio
# row LABEL KEY UNIT: prints a comparison of medians and flags it.
row() {
	p=$(median "$tmp/p.$2")
	t=$(median "$tmp/t.$2")
	line=$(awk -v l="$1" -v p="$p" -v t="$t" -v u="$3" 'BEGIN {
		r = (t > 0) ? p / t : 0
		f = (r < 0.75 || r > 1.25) ? "  OUTSIDE" : ""
		printf "%-34s %9.2f %-2s %9.2f %-2s %7.3f%s\n", l, p, u, t, u,
		    r, f }')
	echo "$line"
	case $line in *OUTSIDE) bad=1 ;; esac
}
for alg in $algs; do
	for z in $sizes; do
		row "crypto $alg ${z}B vs openssl speed" "crypto.$alg.$z" MB
	done
done
row "tcp 1 stream vs iperf3" tcp.1stream MB
row "tcp 2 streams vs iperf3 -P 2" tcp.2streams MB
row "pipe-digest md5 wall vs dd|dgst" pipe-digest s
echo "(MB = MB/s, 10^6 bytes per second; ratio = probe / tool)"
exit "$bad"
