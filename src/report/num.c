/*
 * report/num.c - the one set of number formatters of every report
 * (report/internal.h): a change in percent with a precision that suits
 * its size ("+8.3%", "-0.25%", "+0.041%", "-119%", "0%"), an interval of
 * two such, a p-value in two significant digits never in exponent form
 * ("0.068", "0.0078", "<0.0001", "1"), and the shortest %g form strtod
 * reads back (CSV).  A value that is not finite, or not had, is "-"
 * (empty for the exact form).
 *
 * Invariant: the same number is written the same way in every command's
 * text, Markdown and HTML, so that a figure can be found again by eye.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "core/banned.h"

void
report_fmt_abs_pct(char *buf, size_t size, double x)
{
	x = fabs(x);
	if (x >= 99.5)
		snprintf(buf, size, "%.0f%%", x);
	else if (x >= 0.995)
		snprintf(buf, size, "%.1f%%", x);
	else if (x >= 0.0995)
		snprintf(buf, size, "%.2f%%", x);
	else if (x > 0)
		snprintf(buf, size, "%.2g%%", x);
	else
		snprintf(buf, size, "0%%");
}

void
report_fmt_pct(char *buf, size_t size, double x)
{
	char a[48];

	if (!isfinite(x)) {
		snprintf(buf, size, "-");
		return;
	}
	report_fmt_abs_pct(a, sizeof(a), x);
	if (strcmp(a, "0%") == 0)
		snprintf(buf, size, "%s", a);
	else
		snprintf(buf, size, "%c%s", x < 0 ? '-' : '+', a);
}

void
report_fmt_interval(char *buf, size_t size, int have, double lo, double hi)
{
	char a[48], b[48];

	if (!have || !isfinite(lo) || !isfinite(hi)) {
		snprintf(buf, size, "-");
		return;
	}
	report_fmt_pct(a, sizeof(a), lo);
	report_fmt_pct(b, sizeof(b), hi);
	snprintf(buf, size, "[%s, %s]", a, b);
}

void
report_fmt_p(char *buf, size_t size, int have, double p)
{
	if (!have || !isfinite(p)) {
		snprintf(buf, size, "-");
		return;
	}
	if (p < 0.0001)
		snprintf(buf, size, "<0.0001");
	else if (p >= 0.995)
		snprintf(buf, size, "1");
	else if (p >= 0.1)
		snprintf(buf, size, "%.2f", p);
	else if (p >= 0.01)
		snprintf(buf, size, "%.3f", p);
	else if (p >= 0.001)
		snprintf(buf, size, "%.4f", p);
	else
		snprintf(buf, size, "%.5f", p);
}

void
report_fmt_exact(char *buf, size_t size, double x)
{
	int prec;

	if (!isfinite(x)) {
		if (size > 0)
			buf[0] = '\0';
		return;
	}
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			return;
	}
}
