#!/bin/sh
# Checks the format and runs the static checks (scripts/lint.sh), then
# runs every test in two builds: gcc with warnings as errors (dev), and
# clang with AddressSanitizer and UBSan (asan), each against real SQLite
# files and a throwaway PostgreSQL server, then a valgrind pass over the
# unit tests of the dev build, and 30 s of libFuzzer on every parser.
# Exits non-zero when anything fails.
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc)
# The PostgreSQL tests start their own server (tests/store/pg_server.sh);
# here a server that cannot be started is a failure, not a skip.
export PERFREG_REQUIRE_PG=1

echo "== format: clang-format on every tracked C file"
# .clang-format is the style; a file it would change fails the run.
unformatted=$(git ls-files '*.c' '*.h' | while read -r f; do
	clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || echo "$f"
done)
if [ -n "$unformatted" ]; then
	echo "not clang-formatted (run clang-format -i on them):" $unformatted >&2
	exit 1
fi

# cppcheck and clang-tidy on src/ (doc/HACKING.md, "Checks"); a finding
# fails the run.
LINT_JOBS=$jobs ./scripts/lint.sh

for preset in dev asan; do
	echo "== build: $preset"
	cmake --preset "$preset" >/dev/null
	cmake --build --preset "$preset" -j "$jobs"
	echo "== test: $preset"
	ctest --preset "$preset" -j "$jobs"
done

# The README's main command builds the optimised binary: gcc -O2 warns of
# things -O0 does not see (maybe-uninitialized), and -Werror makes them
# fatal, so it is built here too.
echo "== build: release (scripts/build.sh, the README's main command)"
./scripts/build.sh

echo "== valgrind: dev unit tests"
ctest --test-dir build/dev -L unit -j "$jobs" \
    --overwrite MemoryCheckCommand=/usr/bin/valgrind \
    --overwrite "MemoryCheckCommandOptions=--error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite" \
    -T memcheck --output-on-failure >build/dev/valgrind.log 2>&1 || {
	cat build/dev/valgrind.log
	exit 1
}
grep -E 'tests passed|Memory checking results' -A 20 build/dev/valgrind.log |
    head -n 30

echo "== fuzz: every parser's libFuzzer target, 30 s each"
./scripts/fuzz.sh 30
