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
#include "fixture.h"

static const double bv[] = { 4.83, 5.16, 4.87 };
static const double nv[] = { 5.30, 5.18, 5.61 };

/* One tested metric, a regression, with the given name. */
static void
one_metric(struct pr_report *r, struct pr_report_metric *m, const char *name)
{
	struct pr_comparison *c = &m->cmp;

	fx_metric(m, name, "s", bv, 3, nv, 3);
	fx_side(&c->base, 4.953333, 4.953333, 0.18);
	fx_side(&c->new, 5.363333, 5.363333, 0.22);
	fx_tested(c, PR_METHOD_WELCH, 8.3, 0.5, 16.1, 0.04,
	    PR_VERDICT_REGRESSION);
	c->holm_m = 1;
	fx_report(r, m, 1, "a.txt", "b.txt");
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
	got = fx_render_model(&m, PR_REPORT_TEXT);
	cmp = compare_alone(&r, PR_REPORT_TEXT);
	snprintf(want, sizeof(want),
	    "intro 1\n\nWARNING: one boot\n%selapsed regressed\n", cmp);
	assert_string_equal(got, want);
	assert_null(strstr(got, "42"));
	free(got);
	free(cmp);
	/* CSV: only the comparison. */
	got = fx_render_model(&m, PR_REPORT_CSV);
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
	got = fx_render_model(&m, PR_REPORT_JSON);
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
	got = fx_render_model(&m, PR_REPORT_TEXT);
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
	got = fx_render_model(&m, PR_REPORT_CSV);
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

/* An environment diff whose values and kernel log lines hold escapes:
 * text shows them, never sends them. */
static void
test_hostile_envdiff(void **state)
{
	struct pr_envdiff_item it;
	struct pr_envdiff d;
	struct pr_buf b = PR_BUF_INIT(1 << 16);
	char la[] = "clocksource \x1b]52;c;SGk=\x07 tsc\r";
	char *loga[] = { la };
	char key[] = "kernel", cat[] = "kernel", va[] = "6.1\x1b[2J",
	     vb[] = "6.2", reason[] = "the kernel changed";

	(void)state;
	memset(&it, 0, sizeof(it));
	memset(&d, 0, sizeof(d));
	it.kind = PR_ENVDIFF_CHANGED;
	it.key = key;
	it.category = cat;
	it.a = va;
	it.b = vb;
	it.reason = reason;
	it.relevant = 1;
	d.items = &it;
	d.n = 1;
	d.log_a = loga;
	d.nlog_a = 1;
	d.log_compared = 1;
	assert_int_equal(pr_envdiff_format_text(&d, "A", "B", 20, &b, NULL),
	    PR_OK);
	assert_int_equal(pr_buf_addc(&b, '\0', NULL), PR_OK);
	assert_null(strchr(b.data, '\x1b'));
	assert_null(strchr(b.data, '\x07'));
	assert_null(strchr(b.data, '\r'));
	assert_non_null(strstr(b.data, "6.1^[[2J -> 6.2"));
	assert_non_null(
	    strstr(b.data, "  - clocksource ^[]52;c;SGk=^G tsc^M\n"));
	pr_buf_release(&b);
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
		cmocka_unit_test(test_hostile_envdiff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
