/*
 * report/decimal.h - doubles written in decimal without printf, byte for
 * byte as snprintf's "%.*f" and "%.*g" write them, for the writers that
 * print many numbers (the HTML page: SVG coordinates, value lists).
 *
 * Each function writes into buf, which has at least REPORT_DEC_MAX bytes,
 * a terminated string and returns its length; it returns -1 and writes
 * "" for a value it refuses: NaN and infinities always (a caller says
 * what an undefined figure is, perfreg writes "-"), and for
 * report_dec_fixed a magnitude of 1e15 or more (no coordinate is that
 * large; the text would not fit).  The result is snprintf's in the C
 * locale and the default rounding mode: the digits come from one exact
 * scaling by a power of ten and integer arithmetic, and the few values
 * within rounding error of a tie (..5 exactly, or nearly) and those
 * outside the fast range are handed to snprintf itself.  Thread-safe.
 */
#ifndef PERFREG_REPORT_DECIMAL_H
#define PERFREG_REPORT_DECIMAL_H

/* The bytes a result takes at most, terminator included. */
#define REPORT_DEC_MAX 32

/* x as "%.*f" with prec digits after the point (0 <= prec <= 4, else
 * refused); |x| < 1e15. */
int report_dec_fixed(char *buf, double x, int prec);

/* x as "%.*g" with prec significant digits (1 <= prec <= 17, else
 * refused). */
int report_dec_g(char *buf, double x, int prec);

/* The same without snprintf: -1 also for the values the functions above
 * hand to it (ties and near-ties, zero and subnormals in "%g", prec 16
 * and 17, scales beyond 10^22), so that a test can tell that the fast
 * path is taken and agrees with snprintf where it is. */
int report_dec_fixed_fast(char *buf, double x, int prec);
int report_dec_g_fast(char *buf, double x, int prec);

#endif
