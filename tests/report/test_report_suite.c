/*
 * tests/report/test_report_suite.c - the suite's report for a person
 * (src/report/suite.c) on synthetic sessions with the longest real
 * figure names of the probes: the summary line comes first and groups
 * a probe's figures that changed alike ("crypto.aes-128-gcm
 * 16B..16384B -50%"), then what is compared, then only the figures that
 * changed (every one with all), then the notes and the method; every
 * line of the text fits 100 columns, also with a 150-byte name and a
 * long intro; the one-session note is said once; Markdown has the table
 * with every figure's name whole; JSON has the counts and every figure;
 * a control byte in a name never reaches the text; HTML has a form of
 * its own for every section.  Deterministic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/report_html.h"
#include "perfreg/report_model.h"
#include "perfreg/report_suite.h"
#include "perfreg/suite.h"

/* The longest names of the real probes, with their units, and a name
 * of 150 bytes with a control byte in it. */
static const struct pr_suite_figure figs[] = {
	{ "crypto.aes-128-gcm.16B", "MB/s", PR_BETTER_HIGHER },
	{ "crypto.aes-128-gcm.1024B", "MB/s", PR_BETTER_HIGHER },
	{ "crypto.aes-128-gcm.16384B", "MB/s", PR_BETTER_HIGHER },
	{ "crypto.chacha20-poly1305.16384B", "MB/s", PR_BETTER_HIGHER },
	{ "copy.devzero-read.4194304B", "MB/s", PR_BETTER_HIGHER },
	{ "pipe-digest.sha256.throughput", "MB/s", PR_BETTER_HIGHER },
	{ "random.getrandom.4096B", "ns/request", PR_BETTER_LOWER },
	{ "syscall.clock_gettime", "ns/call", PR_BETTER_LOWER },
	{ "fake.a-name-of-a-hundred-and-fifty-bytes-that-no-column-holds-"
	  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	  "xxxxxxxx\x1b[2J.tail-of-it-also-far-too-long-for-a-column",
	    "ns", PR_BETTER_LOWER },
};
#define NFIG (sizeof(figs) / sizeof(figs[0]))

/* A session: each figure's samples around its level; the first three
 * (aes-128-gcm) times scale. */
static void
session(struct pr_dataset *d, double scale, double wiggle)
{
	static const double jitter[] = { 0.998, 1.0, 1.002 };
	struct pr_error err;
	size_t i, k;
	double level;

	pr_dataset_init(d);
	for (k = 0; k < 3; k++)
		for (i = 0; i < NFIG; i++) {
			level = 1000.0 * (double)(i + 1) * wiggle;
			if (i < 3)
				level *= scale;
			assert_int_equal(pr_dataset_add(d, figs[i].name,
					     figs[i].unit, figs[i].better,
					     level * jitter[k], &err),
			    PR_OK);
		}
}

/* Renders a comparison of 3 base sessions against 1 with aes-128-gcm
 * halved, into a new string (the caller's); f -1: the HTML page. */
static char *
render(int f, int all, size_t nb, struct pr_suite_cmp *sc)
{
	static const double wig[] = { 1.0, 1.001, 0.999, 1.0005 };
	struct pr_dataset bd[3], nd[1];
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_report_suite_cmp pc;
	struct pr_buf out = PR_BUF_INIT(1 << 24);
	struct pr_error err;
	size_t i;
	char *s;

	for (i = 0; i < 3; i++)
		session(&bd[i], 1.0, wig[i]);
	session(&nd[0], 0.5, wig[3]);
	assert_int_equal(pr_suite_compare(bd, nb, nd, 1, figs, NFIG, NULL, sc,
			     &err),
	    PR_OK);
	memset(&pc, 0, sizeof(pc));
	pc.cmp = sc;
	pc.fig = figs;
	pc.base_name = nb == 1 ? "session 1" : "3 sessions, 1 to 3";
	pc.new_name = "session 4";
	pc.unit = "session";
	pc.intro = "stability check: nothing in the environment changed "
		   "(configuration 6e7780ba): session 4 against this "
		   "configuration's earlier --quick sessions (3 sessions, 1 "
		   "to 3); the unit is the session";
	pc.all = all;
	assert_int_equal(pr_report_suite_compare(&m, &pc, &err), PR_OK);
	assert_int_equal(pr_report_suite_para(&m, NULL, 0, 1, 2,
			     "environment: what differs between session 3 "
			     "and session 4",
			     &err),
	    PR_OK);
	if (f < 0)
		assert_int_equal(pr_report_html(&out, &m, "suite", &err),
		    PR_OK);
	else
		assert_int_equal(pr_report_model_render(&out, &m,
				     (enum pr_report_format)f, &err),
		    PR_OK);
	s = strdup(out.data != NULL ? out.data : "");
	assert_non_null(s);
	pr_buf_release(&out);
	pr_report_model_release(&m);
	for (i = 0; i < 3; i++)
		pr_dataset_release(&bd[i]);
	pr_dataset_release(&nd[0]);
	return s;
}

/* Every line of s at most 100 bytes, and no escape byte. */
static void
assert_narrow(const char *s)
{
	const char *p = s, *nl;

	for (; *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if ((size_t)(nl - p) > PR_REPORT_SUITE_WIDTH)
			fail_msg("a line of %zu columns: %.*s",
			    (size_t)(nl - p), (int)(nl - p), p);
		if (*nl == '\0')
			break;
	}
	assert_null(strchr(s, '\x1b'));
}

static size_t
line_of(const char *s, const char *what)
{
	const char *p = strstr(s, what), *q;
	size_t n = 1;

	if (p == NULL)
		fail_msg("no '%s' in:\n%s", what, s);
	for (q = s; q < p; q++)
		n += *q == '\n';
	return n;
}

static void
test_text_order_width(void **state)
{
	struct pr_suite_cmp sc;
	char *s;

	(void)state;
	s = render(PR_REPORT_TEXT, 0, 3, &sc);
	/* The summary first, the three aes-128-gcm figures as one group. */
	assert_true(strncmp(s,
			"9 figures: 3 regressions (crypto.aes-128-gcm "
			"16B..16384B -50%), 0 improvements, ",
			strlen("9 figures: 3 regressions (crypto.aes-128-gcm "
			       "16B..16384B -50%), 0 improvements, ")) == 0);
	assert_int_equal(line_of(s, "9 figures:"), 1);
	/* Then what is compared, the table, the method, the rest. */
	assert_true(line_of(s, "stability check:") > 1);
	assert_true(line_of(s, "the figures that changed") >
	    line_of(s, "stability check:"));
	assert_true(line_of(s, "\ncrypto.aes-128-gcm\n") >
	    line_of(s, "the figures that changed"));
	assert_true(line_of(s, "  16384B ") > line_of(s, "\ncrypto.aes"));
	assert_true(line_of(s, "method: ") > line_of(s, "  16384B "));
	assert_true(
	    line_of(s, "environment: what differs") > line_of(s, "method: "));
	/* Only the figures that changed. */
	assert_null(strstr(s, "syscall"));
	assert_null(strstr(s, "chacha20"));
	assert_non_null(strstr(s, "regression"));
	/* "+-" is not in the comparison: its change has an interval. */
	assert_null(strstr(s, "+-"));
	assert_non_null(strstr(s, "p BH"));
	assert_narrow(s);
	free(s);
	pr_suite_cmp_release(&sc);

	/* Every figure: the longest names still fit, the 150-byte one on
	 * lines of its own, its control byte escaped. */
	s = render(PR_REPORT_TEXT, 1, 3, &sc);
	assert_narrow(s);
	assert_non_null(strstr(s, "\ncrypto.chacha20-poly1305\n  16384B "));
	assert_non_null(strstr(s, "\ncopy.devzero-read\n  4194304B "));
	assert_non_null(strstr(s, "\nsyscall\n  clock_gettime "));
	assert_non_null(strstr(s, "^[[2J"));
	assert_true(line_of(s, "every figure") > 1);
	free(s);
	pr_suite_cmp_release(&sc);
}

/* One session a side: the note is said once, for all figures. */
static void
test_one_session_note(void **state)
{
	struct pr_suite_cmp sc;
	const char *p;
	char *s;

	(void)state;
	s = render(PR_REPORT_TEXT, 1, 1, &sc);
	assert_narrow(s);
	p = strstr(s, "note: the between-session noise cannot be estimated");
	assert_non_null(p);
	assert_null(strstr(p + 1, "note: the between-session noise"));
	/* Joined: its lines are wrapped. */
	assert_non_null(strstr(s, "all 9"));
	assert_non_null(strstr(s, "method: the between-session noise cannot"));
	free(s);
	pr_suite_cmp_release(&sc);
}

static void
test_markdown_json(void **state)
{
	struct pr_suite_cmp sc;
	char *s;

	(void)state;
	s = render(PR_REPORT_MARKDOWN, 0, 3, &sc);
	assert_true(strncmp(s, "**9 figures: 3 regressions", 26) == 0);
	assert_non_null(strstr(s,
	    "| figure | base | new | unit | change | 95% interval | p BH |"));
	assert_non_null(strstr(s, "| crypto.aes-128-gcm.16384B | "));
	assert_null(strstr(s, "| syscall.clock_gettime | "));
	free(s);
	pr_suite_cmp_release(&sc);
	s = render(PR_REPORT_JSON, 0, 3, &sc);
	assert_non_null(strstr(s, "\"summary\": {"));
	assert_non_null(strstr(s, "\"regressions\": 3"));
	assert_non_null(strstr(s, "\"figures\": 9"));
	assert_non_null(strstr(s, "\"line\": \"9 figures: 3 regressions"));
	/* Every figure in JSON, changed or not. */
	assert_non_null(strstr(s, "\"name\": \"syscall.clock_gettime\""));
	assert_non_null(strstr(s, "\"correction\": \"benjamini-hochberg\""));
	free(s);
	pr_suite_cmp_release(&sc);
}

/* The page: every section of the suite in an HTML form of its own (no
 * text in a <pre>), the verdict a word in a colour, every figure's panel
 * from the comparison, the control byte made visible. */
static void
test_html_forms(void **state)
{
	struct pr_suite_cmp sc;
	char *s;

	(void)state;
	s = render(-1, 0, 3, &sc);
	assert_non_null(strstr(s,
	    "<p class=\"headline\"><b>9 figures: 3 regressions "
	    "(crypto.aes-128-gcm 16B..16384B -50%)"));
	assert_non_null(
	    strstr(s, "<td class=\"verdict v-regression\">regression</td>"));
	assert_non_null(strstr(s, "<p class=\"text\">stability check: "));
	assert_non_null(strstr(s, "<p class=\"text\">method: "));
	assert_null(strstr(s, "<pre"));
	assert_non_null(strstr(s, "class=\"panel\""));
	assert_null(strchr(s, '\x1b'));
	assert_non_null(strstr(s, "^[[2J"));
	free(s);
	pr_suite_cmp_release(&sc);
}

/* A paragraph is wrapped at spaces, a word longer than a line cut. */
static void
test_para(void **state)
{
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_buf out = PR_BUF_INIT(1 << 20);
	struct pr_error err;
	char text[400];

	(void)state;
	memset(text, 'w', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	memcpy(text + 10, " short words ", 13);
	assert_int_equal(pr_report_suite_para(&m, "k", 0, 0, 2, text, &err),
	    PR_OK);
	assert_int_equal(pr_report_model_render(&out, &m, PR_REPORT_TEXT, &err),
	    PR_OK);
	assert_narrow(out.data);
	assert_true(
	    strncmp(out.data, "wwwwwwwwww short words\n  www", 28) == 0);
	pr_buf_reset(&out);
	assert_int_equal(pr_report_model_render(&out, &m, PR_REPORT_JSON, &err),
	    PR_OK);
	assert_non_null(strstr(out.data, "\"k\": \"wwwwwwwwww short"));
	pr_buf_release(&out);
	pr_report_model_release(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_order_width),
		cmocka_unit_test(test_one_session_note),
		cmocka_unit_test(test_markdown_json),
		cmocka_unit_test(test_para),
		cmocka_unit_test(test_html_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
