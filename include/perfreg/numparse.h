/*
 * perfreg/numparse.h - reading decimal numbers fast and exactly.
 *
 * pr_parse_double reads a floating-point number in the C locale's syntax
 * (what strtod accepts for decimal input: optional sign, digits with an
 * optional point, optional exponent) and gives the bit-identical double
 * that strtod would give, correctly rounded.  It is several times faster
 * than strtod on the short numbers benchmarks print; numbers it cannot
 * decide quickly (many digits, extreme exponents) are handed to strtod
 * itself, on a NUL-terminated copy, so the result is always strtod's.
 * tests/core checks the equality on millions of random and adversarial
 * strings.
 *
 * Unlike strtod it does not skip leading white space and does not accept
 * hexadecimal floats, "inf", "infinity" or "nan": those are rejected
 * (PR_EPARSE), because they are never valid measurements.  Overflow
 * (1e999) gives PR_ERANGE; underflow to zero or a denormal is accepted
 * and gives strtod's value.  Thread-safe, no allocation.
 */
#ifndef PERFREG_NUMPARSE_H
#define PERFREG_NUMPARSE_H

#include <stddef.h>

#include "perfreg/error.h"

/*
 * Parses a number at the start of [s, end).  On PR_OK, *out is the value
 * and *stop points just past the last character used.  On failure *stop
 * is s and *out is unchanged; err gets a message naming the text.
 */
enum pr_status pr_parse_double(const char *s, const char *end,
    const char **stop, double *out, struct pr_error *err);

#endif /* PERFREG_NUMPARSE_H */
