/*
 * tests/fuzz/fuzz_parse_perf.c - libFuzzer target: `perfreg parse --format
 * perf` on arbitrary input (see fuzz_parse.h for what counts as a crash;
 * scripts/fuzz.sh builds and runs it, seeded with tests/data).
 */
#define FUZZ_FORMAT "perf"
#include "fuzz_parse.h"
