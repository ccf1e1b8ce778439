/*
 * parse/usermetric.c - user-defined metrics: `--metric
 * NAME=REGEX[:UNIT][:higher|lower]`, read with PCRE2.
 *
 * The regex is compiled once (PCRE2_MULTILINE, so that ^ and $ match at
 * every line; no UTF mode, so that any byte sequence can be searched) and
 * matched over the whole output, from each match's end to the next:
 * every match adds one value, the text of its first capture group, which
 * must be a number and nothing else (NaN, 1e999, "12ms" are errors that
 * name the line).  An empty match moves on by one byte, so that a pattern
 * such as "x*(\d*)" cannot loop.  A pattern that matches nothing is an
 * error: a metric the user asked for is never silently missing.
 *
 * Work is bounded.  PCRE2's match and depth limits (MATCH_LIMIT,
 * DEPTH_LIMIT) bound one attempt at one start position, but PCRE2 tries
 * every start position afresh: "\s+(\d+)" over 200 KB of spaces scans
 * the rest of the input from each of them, n^2/2 steps, 12.5 s, with
 * every attempt well inside the limits.  So the pattern is compiled with
 * automatic callouts and without auto-possessification, which makes
 * PCRE2 call back at every step of every attempt, backtracking included,
 * and the callback counts the steps of the whole apply against a budget
 * linear in the input (STEPS_BASE + STEPS_PER_BYTE a byte).  Running out
 * is a clear error (PR_ELIMIT) reached in time linear in the input, never
 * a hang.  Possessification only ever saves backtracking, so turning it
 * off changes no match.
 *
 * The compiled code is read-only after pr_usermetric_new; each apply
 * makes its own match data, so one metric may be applied from several
 * threads at once.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "parse/bench.h"
#include "perfreg/parse.h"
#include "core/banned.h"

#define MATCH_LIMIT 10000000
#define DEPTH_LIMIT 100000
/* Steps of the pattern for a whole input: a constant plus so many a byte. */
#define STEPS_BASE 10000000ULL
#define STEPS_PER_BYTE 64ULL

struct pr_usermetric {
	char name[PR_PARSE_NAME_MAX];
	char unit[PR_PARSE_NAME_MAX];
	enum pr_better better;
	pcre2_code *code;
	char *pattern;
};

const char *
pr_usermetric_name(const struct pr_usermetric *m)
{
	return m->name;
}

void
pr_usermetric_free(struct pr_usermetric *m)
{
	if (m == NULL)
		return;
	pcre2_code_free(m->code);
	free(m->pattern);
	free(m);
}

/* Whether name is acceptable: printable, no blanks at its ends. */
static int
good_name(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n >= PR_PARSE_NAME_MAX || s[0] == ' ' || s[n - 1] == ' ')
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return 1;
}

enum pr_status
pr_usermetric_new(const char *spec, struct pr_usermetric **out,
    struct pr_error *err)
{
	struct pr_usermetric *m;
	const char *eq, *re, *re_e;
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	uint32_t groups;
	int code;
	size_t len = strlen(spec);

	*out = NULL;
	if (len > PR_PARSE_SPEC_MAX)
		return pr_error_set(err, PR_EINVAL,
		    "--metric: spec longer than %d bytes", PR_PARSE_SPEC_MAX);
	if ((eq = strchr(spec, '=')) == NULL ||
	    !good_name(spec, (size_t)(eq - spec)))
		return pr_error_set(err, PR_EINVAL,
		    "--metric '%.60s': expected NAME=REGEX[:UNIT]"
		    "[:higher|lower]",
		    spec);
	if ((m = calloc(1, sizeof(*m))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	memcpy(m->name, spec, (size_t)(eq - spec));
	re = eq + 1;
	re_e = spec + len;
	if (pr_spec_suffixes(re, &re_e, m->unit, &m->better) != 0) {
		/* The message uses m->name: set it before m goes. */
		pr_error_set(err, PR_EINVAL, "--metric '%s': unit too long",
		    m->name);
		pr_usermetric_free(m);
		return PR_EINVAL;
	}
	if (re_e == re) {
		pr_usermetric_free(m);
		return pr_error_set(err, PR_EINVAL,
		    "--metric '%s': empty regular expression", spec);
	}
	if ((m->pattern = malloc((size_t)(re_e - re) + 1)) == NULL) {
		pr_usermetric_free(m);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	memcpy(m->pattern, re, (size_t)(re_e - re));
	m->pattern[re_e - re] = '\0';
	m->code = pcre2_compile((PCRE2_SPTR)m->pattern, PCRE2_ZERO_TERMINATED,
	    PCRE2_MULTILINE | PCRE2_AUTO_CALLOUT | PCRE2_NO_AUTO_POSSESS, &code,
	    &off, NULL);
	if (m->code == NULL) {
		pcre2_get_error_message(code, msg, sizeof(msg));
		pr_error_set(err, PR_EINVAL,
		    "--metric '%s': bad regular expression at offset %zu: %s",
		    m->name, (size_t)off, (const char *)msg);
		pr_usermetric_free(m);
		return PR_EINVAL;
	}
	if (pcre2_pattern_info(m->code, PCRE2_INFO_CAPTURECOUNT, &groups) !=
		0 ||
	    groups < 1) {
		pr_error_set(err, PR_EINVAL,
		    "--metric '%s': the regular expression needs a capture "
		    "group, (...), around the value",
		    m->name);
		pr_usermetric_free(m);
		return PR_EINVAL;
	}
	*out = m;
	return PR_OK;
}

/*
 * The line of p, for matches met in order: counts the newlines from the
 * last position asked (*lp, on line *lno) instead of from the start, so
 * that n matches cost O(input) and not O(n * input).
 */
static long
line_at(const struct pr_input *in, const char *p, const char **lp, long *lno)
{
	const char *q;

	if (p < *lp) {
		*lp = in->data;
		*lno = 1;
	}
	while ((q = memchr(*lp, '\n', (size_t)(p - *lp))) != NULL) {
		*lp = q + 1;
		++*lno;
	}
	return *lno;
}

/* Counts a step of the pattern; a negative return abandons the match. */
static int
step(pcre2_callout_block *cb, void *data)
{
	unsigned long long *left = data;

	(void)cb;
	if (*left == 0)
		return PCRE2_ERROR_CALLOUT;
	--*left;
	return 0;
}

enum pr_status
pr_usermetric_apply(const struct pr_usermetric *m, const struct pr_input *in,
    struct pr_dataset *out, struct pr_error *err)
{
	pcre2_match_data *md;
	pcre2_match_context *mc;
	PCRE2_SIZE *ov, at = 0;
	struct pr_line l;
	const char *s, *e;
	char where[PR_PARSE_NAME_MAX + 32];
	size_t found = 0;
	const char *lp = in->data;
	long lno = 1;
	unsigned long long left;
	double v;
	int rc;
	enum pr_status st = PR_OK;

	md = pcre2_match_data_create_from_pattern(m->code, NULL);
	mc = pcre2_match_context_create(NULL);
	if (md == NULL || mc == NULL) {
		pcre2_match_data_free(md);
		pcre2_match_context_free(mc);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	pcre2_set_match_limit(mc, MATCH_LIMIT);
	pcre2_set_depth_limit(mc, DEPTH_LIMIT);
	left = STEPS_BASE + STEPS_PER_BYTE * (unsigned long long)in->len;
	pcre2_set_callout(mc, step, &left);
	snprintf(where, sizeof(where), "for --metric '%s'", m->name);
	while (at <= in->len) {
		rc = pcre2_match(m->code, (PCRE2_SPTR)in->data, in->len, at, 0,
		    md, mc);
		if (rc == PCRE2_ERROR_NOMATCH)
			break;
		if (rc == PCRE2_ERROR_CALLOUT) {
			st = pr_error_at(err, PR_ELIMIT, in->name,
			    line_at(in, in->data + at, &lp, &lno), 0,
			    "--metric '%s': matching failed: more than %llu "
			    "steps on this input (the expression tries too "
			    "many ways to match); make it more specific, for "
			    "instance with a literal word before the value",
			    m->name,
			    STEPS_BASE +
				STEPS_PER_BYTE * (unsigned long long)in->len);
			break;
		}
		if (rc < 0) {
			PCRE2_UCHAR msg[256];

			pcre2_get_error_message(rc, msg, sizeof(msg));
			st = pr_error_at(err, PR_ELIMIT, in->name,
			    line_at(in, in->data + at, &lp, &lno), 0,
			    "--metric '%s': matching failed: %s", m->name,
			    (const char *)msg);
			break;
		}
		ov = pcre2_get_ovector_pointer(md);
		if (rc < 2 || ov[2] == PCRE2_UNSET) {
			st = pr_error_at(err, PR_EPARSE, in->name,
			    line_at(in, in->data + ov[0], &lp, &lno), 0,
			    "--metric '%s': the capture group took no part "
			    "in the match",
			    m->name);
			break;
		}
		s = in->data + ov[2];
		e = in->data + ov[3];
		l.raw = l.s = s;
		l.e = e;
		l.cut = 0; /* the user's pattern says where a value ends */
		l.no = line_at(in, s, &lp, &lno);
		if ((st = pr_bench_num(in, &l, s, e, 0, 1, where, &v, err)) !=
			PR_OK ||
		    (st = pr_bench_add(out, m->name, m->unit, m->better, v,
			 err)) != PR_OK)
			break;
		found++;
		at = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
	}
	pcre2_match_data_free(md);
	pcre2_match_context_free(mc);
	if (st == PR_OK && found == 0)
		st = pr_error_at(err, PR_EPARSE, in->name, 0, 0,
		    "--metric '%s': no match for /%s/", m->name, m->pattern);
	return st;
}
