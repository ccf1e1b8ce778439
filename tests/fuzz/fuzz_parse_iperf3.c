/*
 * tests/fuzz/fuzz_parse_iperf3.c - libFuzzer target: `perfreg parse --format
 * iperf3` on arbitrary input (see fuzz_parse.h for what counts as a crash;
 * scripts/fuzz.sh builds and runs it, seeded with tests/data).
 */
#define FUZZ_FORMAT "iperf3"
#include "fuzz_parse.h"
