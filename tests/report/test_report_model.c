/*
 * tests/report/test_report_model.c - the report model
 * (perfreg/report_model.h) on synthetic reports: each section lands
 * where its format wants it, JSON nests comparisons and diffs as values
 * with lists, nulls and groups, CSV writes its header once with the
 * extra columns; the escaping of perfreg/report.h (control bytes as
 * cat -v shows them, spreadsheet formulas disarmed).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "perfreg/buf.h"
#include "perfreg/report.h"
#include "perfreg/report_model.h"

static const double bv[] = { 4.83, 5.16, 4.87 };
static const double nv[] = { 5.30, 5.18, 5.61 };

/* One tested metric, a regression, with the given name. */
static void
one_metric(struct pr_report *r, struct pr_report_metric *m, const char *name)
{
	struct pr_comparison *c = &m->cmp;

	memset(m, 0, sizeof(*m));
	memset(r, 0, sizeof(*r));
	m->name = name;
	m->unit = "s";
	m->base_values = bv;
	m->base_n = 3;
	m->new_values = nv;
	m->new_n = 3;
	c->base.n = c->new.n = 3;
	c->base.mean = c->base.median = 4.953333;
	c->new.mean = c->new.median = 5.363333;
	c->base.stddev = 0.18;
	c->new.stddev = 0.22;
	c->base.defined = c->new.defined = PR_SUM_STDDEV;
	c->better = PR_BETTER_LOWER;
	c->method = PR_METHOD_WELCH;
	c->tested = 1;
	c->have_change = 1;
	c->change_pct = 8.3;
	c->have_ci = 1;
	c->ci_lo_pct = 0.5;
	c->ci_hi_pct = 16.1;
	c->p_value = c->p_adjusted = 0.04;
	c->holm_m = 1;
	c->verdict = PR_VERDICT_REGRESSION;
	r->base_source = "a.txt";
	r->new_source = "b.txt";
	r->conf = 0.95;
	r->equivalence_pct = 1;
	r->metrics = m;
	r->n = 1;
}

static char *
render(const struct pr_report_model *m, enum pr_report_format f)
{
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	struct pr_error err;

	pr_error_clear(&err);
	assert_int_equal(pr_report_model_render(&b, m, f, &err), PR_OK);
	assert_int_equal(pr_buf_addc(&b, '\0', &err), PR_OK);
	return pr_buf_detach(&b, NULL);
}

static char *
compare_alone(const struct pr_report *r, enum pr_report_format f)
{
	struct pr_buf b = PR_BUF_INIT(1 << 20);

	assert_int_equal(pr_report_compare(&b, r, f, NULL), PR_OK);
	assert_int_equal(pr_buf_addc(&b, '\0', NULL), PR_OK);
	return pr_buf_detach(&b, NULL);
}

/* Text: the sections in order, the comparison as its own writer gives
 * it, a warning on its own line, values for programs left out. */
static void
test_text(void **state)
{
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_report_metric rm;
	struct pr_report r;
	char *got, *cmp, want[8192];

	(void)state;
	one_metric(&r, &rm, "elapsed");
	assert_int_equal(pr_report_model_textf(&m, PR_SECTION_TEXT, NULL, 0,
			     NULL, "intro %d\n\n", 1),
	    PR_OK);
	assert_int_equal(pr_report_model_textf(&m, PR_SECTION_WARNING,
			     "warnings", PR_SECTION_LIST, NULL, "one boot"),
	    PR_OK);
	assert_int_equal(pr_report_model_comparison(&m, "comparison", 0, &r,
			     NULL),
	    PR_OK);
	assert_int_equal(pr_report_model_integer(&m, "session", 0, 1, 42, NULL),
	    PR_OK);
	assert_int_equal(pr_report_model_textf(&m, PR_SECTION_HEADLINE,
			     "headline", 0, NULL, "elapsed regressed"),
	    PR_OK);
	got = render(&m, PR_REPORT_TEXT);
	cmp = compare_alone(&r, PR_REPORT_TEXT);
	snprintf(want, sizeof(want),
	    "intro 1\n\nWARNING: one boot\n%selapsed regressed\n", cmp);
	assert_string_equal(got, want);
	assert_null(strstr(got, "42"));
	free(got);
	free(cmp);
	/* CSV: only the comparison. */
	got = render(&m, PR_REPORT_CSV);
	cmp = compare_alone(&r, PR_REPORT_CSV);
	assert_string_equal(got, cmp);
	free(got);
	free(cmp);
	pr_report_model_release(&m);
	assert_int_equal(m.n, 0);
}

/* JSON: keyed sections only, lists, an empty list, null, groups, and the
 * comparison equal to its writer's own JSON. */
static void
test_json(void **state)
{
	struct pr_report_model m = PR_REPORT_MODEL_INIT, *g;
	struct pr_report_metric rm;
	struct pr_report r;
	json_t *root, *alone, *a;
	char *got, *cmp;
	int i;

	(void)state;
	one_metric(&r, &rm, "elapsed");
	assert_int_equal(pr_report_model_textf(&m, PR_SECTION_TEXT, NULL, 0,
			     NULL, "words only"),
	    PR_OK);
	assert_int_equal(pr_report_model_list(&m, "empty", 0, NULL), PR_OK);
	for (i = 0; i < 2; i++) {
		assert_int_equal(pr_report_model_group(&m, "pairs",
				     PR_SECTION_LIST, &g, NULL),
		    PR_OK);
		assert_int_equal(pr_report_model_string(g, "base", 0, "A",
				     NULL),
		    PR_OK);
		assert_int_equal(pr_report_model_comparison(g, "report", 0, &r,
				     NULL),
		    PR_OK);
	}
	assert_int_equal(pr_report_model_integer(&m, "baseline", 0, 0, 7, NULL),
	    PR_OK);
	assert_int_equal(pr_report_model_real(&m, "x", 0, 1, NAN, NULL), PR_OK);
	assert_int_equal(pr_report_model_bool(&m, "ok", 0, 5, NULL), PR_OK);
	assert_int_equal(pr_report_model_string(&m, "none", 0, NULL, NULL),
	    PR_OK);
	got = render(&m, PR_REPORT_JSON);
	root = json_loads(got, 0, NULL);
	assert_non_null(root);
	assert_int_equal(json_object_size(root), 6);
	assert_true(json_is_array(json_object_get(root, "empty")));
	assert_int_equal(json_array_size(json_object_get(root, "empty")), 0);
	a = json_object_get(root, "pairs");
	assert_int_equal(json_array_size(a), 2);
	assert_string_equal(json_string_value(
				json_object_get(json_array_get(a, 1), "base")),
	    "A");
	cmp = compare_alone(&r, PR_REPORT_JSON);
	alone = json_loads(cmp, 0, NULL);
	assert_true(
	    json_equal(json_object_get(json_array_get(a, 0), "report"), alone));
	assert_true(json_is_null(json_object_get(root, "baseline")));
	assert_true(json_is_null(json_object_get(root, "x")));
	assert_true(json_is_true(json_object_get(root, "ok")));
	assert_true(json_is_null(json_object_get(root, "none")));
	assert_null(strstr(got, "words only"));
	json_decref(root);
	json_decref(alone);
	free(got);
	free(cmp);
	/* Text of the same model: the two comparisons, in place. */
	got = render(&m, PR_REPORT_TEXT);
	assert_non_null(strstr(got, "words only"));
	assert_non_null(strstr(strstr(got, "regression") + 1, "base: a.txt"));
	free(got);
	pr_report_model_release(&m);
}

/* CSV of two comparisons: one header, each line with its own extra
 * columns. */
static void
test_csv_columns(void **state)
{
	static const char *const head[] = { "base", "new" };
	static const char *const c1[] = { "a", "b" },
				 *const c2[] = { "a", "=c" };
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_report_metric rm;
	struct pr_report r;
	char *got;

	(void)state;
	one_metric(&r, &rm, "elapsed");
	assert_int_equal(pr_report_model_csv_columns(&m, head, c1, 2, NULL),
	    PR_EINVAL);
	assert_int_equal(pr_report_model_comparison(&m, NULL, 0, &r, NULL),
	    PR_OK);
	assert_int_equal(pr_report_model_csv_columns(&m, head, c1, 2, NULL),
	    PR_OK);
	assert_int_equal(pr_report_model_comparison(&m, NULL, 0, &r, NULL),
	    PR_OK);
	assert_int_equal(pr_report_model_csv_columns(&m, head, c2, 2, NULL),
	    PR_OK);
	got = render(&m, PR_REPORT_CSV);
	assert_int_equal(strncmp(got, "base,new,metric,unit,", 21), 0);
	assert_null(strstr(got + 1, "base,new,metric"));
	assert_non_null(strstr(got, "\na,b,elapsed,s,"));
	assert_non_null(strstr(got, "\na,\"'=c\",elapsed,s,"));
	free(got);
	pr_report_model_release(&m);
}

static char *
esc(const char *s, size_t n, int flags)
{
	struct pr_buf b = PR_BUF_INIT(1 << 16);

	assert_int_equal(pr_report_escape(&b, s, n, flags, NULL), PR_OK);
	assert_int_equal(pr_buf_addc(&b, '\0', NULL), PR_OK);
	return pr_buf_detach(&b, NULL);
}

#define ESC_EQ(in, flags, want) \
	do { \
		char *got_ = esc(in, sizeof(in) - 1, flags); \
		assert_string_equal(got_, want); \
		free(got_); \
	} while (0)

/* Control bytes as cat -v shows them; UTF-8 kept, C1 and broken bytes
 * not. */
static void
test_escape(void **state)
{
	(void)state;
	ESC_EQ("plain copy.memcpy.64B", 0, "plain copy.memcpy.64B");
	ESC_EQ("\x1b[2Jx", 0, "^[[2Jx");
	ESC_EQ("\x1b]52;c;SGk=\x07", 0, "^[]52;c;SGk=^G");
	ESC_EQ("\x1b]0;title\x1b\\", 0, "^[]0;title^[\\");
	ESC_EQ("a\nb\r\tc\x7f", 0, "a^Jb^M^Ic^?");
	ESC_EQ("a\nb\tc", PR_ESCAPE_NEWLINE | PR_ESCAPE_TAB, "a\nb\tc");
	ESC_EQ("\xc2\xb5s \xe2\x82\xac", 0, "\xc2\xb5s \xe2\x82\xac");
	ESC_EQ("\xc2\x9b"
	       "2J",
	    0, "M-BM-^[2J");
	ESC_EQ("\x9b"
	       "2J",
	    0, "M-^[2J");
	ESC_EQ("caf\xe9!", 0, "cafM-i!");
	ESC_EQ("\xe2\x82", 0, "M-bM-^B");
	ESC_EQ("a\0b", 0, "a^@b");
}

static char *
cell(const char *s)
{
	struct pr_buf b = PR_BUF_INIT(1 << 16);

	assert_int_equal(pr_report_csv_cell(&b, s, NULL), PR_OK);
	assert_int_equal(pr_buf_addc(&b, '\0', NULL), PR_OK);
	return pr_buf_detach(&b, NULL);
}

#define CELL_EQ(in, want) \
	do { \
		char *got_ = cell(in); \
		assert_string_equal(got_, want); \
		free(got_); \
	} while (0)

/* OWASP's rule, but numbers stay numbers. */
static void
test_csv_cell(void **state)
{
	(void)state;
	CELL_EQ("elapsed", "elapsed");
	CELL_EQ("=cmd|' /C calc'!A0", "\"'=cmd|' /C calc'!A0\"");
	CELL_EQ("+1+1", "\"'+1+1\"");
	CELL_EQ("-1+cmd", "\"'-1+cmd\"");
	CELL_EQ("@SUM(A1)", "\"'@SUM(A1)\"");
	CELL_EQ("\tx", "\"'\tx\"");
	CELL_EQ("\rx", "\"'\rx\"");
	CELL_EQ("-0.93", "-0.93");
	CELL_EQ("+8.3", "+8.3");
	CELL_EQ("-1.5e-07", "-1.5e-07");
	CELL_EQ("-", "\"'-\"");
	CELL_EQ("a,\"b\"", "\"a,\"\"b\"\"\"");
	CELL_EQ("", "");
}

/* The text, Markdown and CSV of a comparison with hostile names. */
static void
test_hostile_names(void **state)
{
	struct pr_report_metric rm;
	struct pr_report r;
	char *t;

	(void)state;
	one_metric(&r, &rm, "x\x1b[2J\x1b]52;c;SGk=\x07y\nz\r");
	r.base_source = "a\x1b]0;t\x07";
	t = compare_alone(&r, PR_REPORT_TEXT);
	assert_null(strchr(t, '\x1b'));
	assert_null(strchr(t, '\x07'));
	assert_null(strchr(t, '\r'));
	assert_non_null(strstr(t, "x^[[2J^[]52;c;SGk=^Gy^Jz^M"));
	assert_non_null(strstr(t, "base: a^[]0;t^G\n"));
	/* The name did not split the table: a row per metric. */
	assert_non_null(strstr(t, "\nx^[[2J"));
	free(t);
	t = compare_alone(&r, PR_REPORT_MARKDOWN);
	assert_null(strchr(t, '\r'));
	assert_null(strchr(t, '\x1b'));
	free(t);
	one_metric(&r, &rm, "=HYPERLINK(\"http://x\")");
	t = compare_alone(&r, PR_REPORT_CSV);
	assert_non_null(strstr(t, "\n\"'=HYPERLINK(\"\"http://x\"\")\",s,"));
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_csv_columns),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_csv_cell),
		cmocka_unit_test(test_hostile_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
