#!/bin/sh
# Installs every Debian package that building, testing and benchmarking
# perfreg needs.  Idempotent: when everything is present it prints nothing
# and touches nothing.
set -eu

PKGS="
build-essential
clang
clang-format
clang-tidy
cmake
cppcheck
pkg-config
libcmocka-dev
libjansson-dev
libpcre2-dev
libclang-rt-14-dev
valgrind
ministat
bc
hyperfine
time
tcsh
python3
openssl
iperf3
linux-perf
man-db
libsqlite3-dev
sqlite3
libpq-dev
postgresql
libssl-dev
"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	    grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: missing packages:$missing (run as root to install)" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
