/*
 * tests/fuzz/fuzz_parse_openssl.c - libFuzzer target: `perfreg parse --format
 * openssl` on arbitrary input (see fuzz_parse.h for what counts as a crash;
 * scripts/fuzz.sh builds and runs it, seeded with tests/data).
 */
#define FUZZ_FORMAT "openssl"
#include "fuzz_parse.h"
