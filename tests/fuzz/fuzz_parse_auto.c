/*
 * tests/fuzz/fuzz_parse_auto.c - libFuzzer target: `perfreg parse --format
 * auto` on arbitrary input (see fuzz_parse.h for what counts as a crash;
 * scripts/fuzz.sh builds and runs it, seeded with tests/data).
 */
#define FUZZ_FORMAT "auto"
#include "fuzz_parse.h"
