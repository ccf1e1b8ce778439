#!/bin/sh
# tests/cli/install.sh - `cmake --install` of a build tree: with --prefix
# P, P/bin/perfreg runs and `MANPATH=P/share/man man -w perfreg` finds the
# manual that was installed; with the default prefix (staged with
# DESTDIR, so that nothing outside a temporary directory is written) the
# same two files land under the prefix, in a folder that man searches
# by default on this system.
#
# usage: install.sh BUILD_DIR
set -u
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

cmake --install "$build" --prefix "$tmp/p" > "$tmp/log" 2>&1 ||
    fail "cmake --install --prefix: $(cat "$tmp/log")"
"$tmp/p/bin/perfreg" --help > "$tmp/out" 2>&1 ||
    fail "installed perfreg --help: status $?"
grep -q "^usage: perfreg" "$tmp/out" || fail "installed --help: $(cat "$tmp/out")"
cmp -s doc/perfreg.1 "$tmp/p/share/man/man1/perfreg.1" ||
    fail "the man page is not installed as share/man/man1/perfreg.1"
found=$(MANPATH="$tmp/p/share/man" man -w perfreg 2>&1)
[ "$found" = "$tmp/p/share/man/man1/perfreg.1" ] ||
    fail "MANPATH=P/share/man man -w perfreg: '$found'"
MANPATH="$tmp/p/share/man" MANPAGER=cat PAGER=cat man perfreg \
    > "$tmp/man" 2>&1 || fail "man perfreg: status $?"
grep -q "perfreg" "$tmp/man" || fail "man perfreg shows nothing"

# The default prefix, staged.
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
[ -n "$prefix" ] || fail "no CMAKE_INSTALL_PREFIX in $build/CMakeCache.txt"
DESTDIR="$tmp/d" cmake --install "$build" > "$tmp/log" 2>&1 ||
    fail "DESTDIR=... cmake --install: $(cat "$tmp/log")"
[ -x "$tmp/d$prefix/bin/perfreg" ] || fail "no $prefix/bin/perfreg"
[ -f "$tmp/d$prefix/share/man/man1/perfreg.1" ] ||
    fail "no $prefix/share/man/man1/perfreg.1"
# man's own search path (MANPATH unset) holds PREFIX/share/man.
case ":$(env -u MANPATH manpath 2>/dev/null):" in
*":$prefix/share/man:"*) ;;
*) fail "$prefix/share/man is not in man's search path:" \
    "$(env -u MANPATH manpath 2>&1)" ;;
esac

[ $fails -eq 0 ] && echo "install: all passed"
exit $fails
