#!/bin/sh
# scripts/lint.sh - the static checks of the library and the CLI (every C
# file under src/): cppcheck (--enable=warning,portability) and clang-tidy
# (the checks in .clang-tidy), both with the flags of the dev preset's
# compile_commands.json.  doc/HACKING.md, "Checks", says which checks and
# why.  A finding fails the run; one that is wrong, or right but wanted,
# is suppressed where it is, with the reason:
#   /* cppcheck-suppress ID ; why */          (on the line before)
#   /* NOLINTNEXTLINE(check-name): why */     (on the line before)
# Both tools keep what they learnt under build/dev/lint-cache, so that a
# run after a small change only looks at what the change can affect.
# scripts/test.sh runs this first.  LINT_JOBS sets the parallelism
# (default: the number of CPUs).
set -eu
cd "$(dirname "$0")/.."
jobs=${LINT_JOBS:-$(nproc)}
build=build/dev
if [ ! -f "$build/compile_commands.json" ]; then
	cmake --preset dev >/dev/null
fi
mkdir -p "$build/lint-cache/cppcheck"

echo "== lint: cppcheck on src/"
cppcheck --project="$build/compile_commands.json" \
    --file-filter="src/*" --enable=warning,portability \
    --inline-suppr --suppress=missingIncludeSystem --error-exitcode=1 \
    --cppcheck-build-dir="$build/lint-cache/cppcheck" -j "$jobs" --quiet \
    --template='{file}:{line}: {severity}: {message} [{id}]'

echo "== lint: clang-tidy on src/"
python3 scripts/lint-tidy.py "$build" "$jobs"
