/*
 * tests/fuzz/fuzz_parse_time.c - libFuzzer target: `perfreg parse --format
 * time` on arbitrary input (see fuzz_parse.h for what counts as a crash;
 * scripts/fuzz.sh builds and runs it, seeded with tests/data).
 */
#define FUZZ_FORMAT "time"
#include "fuzz_parse.h"
