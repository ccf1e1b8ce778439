/*
 * perfreg/numparse.h - reading decimal numbers fast and exactly.
 *
 * pr_parse_double reads a floating-point number in the C locale's decimal
 * syntax - an optional sign, digits with an optional point (at least one
 * digit in all: "5.", ".5"), and an optional exponent ('e' or 'E', an
 * optional sign, at least one digit) - and gives the bit-identical double
 * that strtod gives for the same text, correctly rounded (round to
 * nearest, ties to even), subnormals and -0 included.  Like strtod it
 * takes the longest prefix in that syntax: "1e" and "1e+" read as 1 and
 * stop before the 'e', "1.5x" reads 1.5 and stops before the 'x'.  The
 * caller checks *stop to demand that a whole field is a number.
 *
 * It is several times faster than strtod on the short numbers benchmarks
 * print (up to 19 significant digits).  Numbers it cannot decide exactly
 * by itself (rare: more than 19 significant digits close to a rounding
 * boundary, subnormal or overflowing results, exponents beyond the
 * double range) are handed to strtod on a NUL-terminated copy of the
 * number's text, so the result is always strtod's.  tests/core/
 * test_numparse.c checks the equality on millions of random and
 * adversarial strings.
 *
 * Differences from strtod, on purpose: no leading white space is
 * skipped; hexadecimal numbers ("0x1p3"), "inf", "infinity" and "nan" in
 * any case are rejected (PR_EPARSE), because they are never valid
 * measurements; overflow ("1e999", "-1e999") is PR_ERANGE instead of an
 * infinity, and so is nonzero text that rounds to zero ("1e-400"), which
 * would otherwise be a silent zero.  Underflow to a subnormal is accepted
 * and gives strtod's value, because it is still the nearest double.  The text need not be NUL-terminated: nothing at
 * or past end is read.
 *
 * Assumes the C locale's LC_NUMERIC for the rare strtod fallback
 * (perfreg's main sets LC_ALL to "C"; a program that sets another locale
 * would get strtod's idea of the decimal point in those cases) and the
 * default floating-point rounding mode.
 *
 * Thread-safe (no state).  Allocates only for the strtod fallback of a
 * number longer than 128 characters, freed before returning.
 */
#ifndef PERFREG_NUMPARSE_H
#define PERFREG_NUMPARSE_H

#include <stddef.h>

#include "perfreg/error.h"

/*
 * Parses a number at the start of [s, end), s <= end.  On PR_OK, *out is
 * the value and *stop points just past the last character used (never
 * past end).  On failure *stop is s, *out is unchanged, and err (which
 * may be NULL) gets a message quoting the start of [s, end), at most 32
 * bytes, non-printable bytes escaped as \xNN:
 *   PR_EPARSE  no number at s ("expected a number, got 'abc'"), or a
 *              hexadecimal number, an infinity or a NaN;
 *   PR_ERANGE  the magnitude exceeds DBL_MAX ("number out of range: ..."),
 *              or nonzero digits round to 0 ("1e-400");
 *   PR_ENOMEM  the fallback copy of a very long number failed.
 * The error carries no file or line: the caller adds them.
 */
enum pr_status pr_parse_double(const char *s, const char *end,
    const char **stop, double *out, struct pr_error *err);

/*
 * As pr_parse_double, but the whole of [s, end) must be the number: text
 * left after it is PR_EPARSE ("expected a number, got '1.5x'").  The
 * helper for readers that have already cut a field out of a line; white
 * space around the field is the caller's to strip.
 */
enum pr_status pr_parse_double_all(const char *s, const char *end, double *out,
    struct pr_error *err);

#endif /* PERFREG_NUMPARSE_H */
