/*
 * tests/fuzz/fuzz_parse_format.c - the libFuzzer target of one format of
 * `perfreg parse`: built once per line of perfreg/parse_formats.def as
 * fuzz_parse_<name>, with FUZZ_FORMAT defined to "<name>" on the command
 * line by tests/fuzz/CMakeLists.txt (see fuzz_parse.h for what counts as
 * a crash; scripts/fuzz.sh builds and runs it, seeded with tests/data).
 */
#ifndef FUZZ_FORMAT
#error "FUZZ_FORMAT must name a format (tests/fuzz/CMakeLists.txt sets it)"
#endif
#include "fuzz_parse.h"
