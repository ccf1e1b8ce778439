/*
 * tests/report/test_report_run.c - the sections of `perfreg run`'s report
 * (perfreg/report_run.h) on a synthetic session, built by hand without
 * running anything: the session lines, the paired analysis (its text,
 * Markdown and JSON), the decisions of --until-decided, the failed runs
 * with their output escaped, one variant's summaries, and a comparison
 * given inline (PR_SECTION_INLINE) so that its members are the
 * document's own.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "perfreg/buf.h"
#include "perfreg/report.h"
#include "perfreg/report_model.h"
#include "perfreg/report_run.h"
#include "perfreg/runner.h"
#include "fixture.h"
#include "report/internal.h"

/* wall_s of the baseline's three rounds; variant b takes twice as long,
 * variant c is the baseline with noise. */
static const double base_s[] = { 1.0, 1.2, 0.9 };
static const double c_s[] = { 1.1, 1.1, 1.0 };

static void
add_run(struct pr_session *s, size_t variant, size_t round, int ok, double v,
    const char *reason, const char *output)
{
	struct pr_run *r;

	if (s->nruns == s->rcap) {
		s->rcap = s->rcap > 0 ? 2 * s->rcap : 8;
		s->runs = realloc(s->runs, s->rcap * sizeof(*s->runs));
		assert_non_null(s->runs);
	}
	r = &s->runs[s->nruns];
	memset(r, 0, sizeof(*r));
	r->variant = variant;
	r->round = round;
	r->seq = s->nruns++;
	r->ok = ok;
	r->outcome = ok ? PR_SPAWN_OK : PR_SPAWN_EXIT;
	r->exit_status = ok ? 0 : 1;
	r->reason = strdup(reason);
	assert_non_null(r->reason);
	if (!ok) {
		r->failed_in = "command";
		r->output = strdup(output);
		assert_non_null(r->output);
		r->output_len = strlen(output);
		s->v[variant].runs_failed++;
		return;
	}
	pr_dataset_init(&r->metrics);
	assert_int_equal(pr_dataset_add(&r->metrics, "wall_s", "s",
			     PR_BETTER_LOWER, v, NULL),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&s->v[variant].data, "wall_s", "s",
			     PR_BETTER_LOWER, v, NULL),
	    PR_OK);
	s->v[variant].runs_ok++;
}

/* A session of a, b (twice as slow, its name holds an ESC) and c (one
 * failed run whose output clears the screen). */
static void
make_session(struct pr_session *s, size_t nv)
{
	size_t i;

	pr_session_init(s);
	pr_runner_opts_init(&s->opts);
	s->opts.runs = 3;
	assert_int_equal(pr_session_add_variant(s, "a", "true", 0, NULL, NULL,
			     NULL, NULL),
	    PR_OK);
	if (nv > 1)
		assert_int_equal(pr_session_add_variant(s, "b\033]52",
				     "sleep 1", 0, NULL, NULL, NULL, NULL),
		    PR_OK);
	if (nv > 2)
		assert_int_equal(pr_session_add_variant(s, "c", "c|x", 1, NULL,
				     NULL, NULL, NULL),
		    PR_OK);
	for (i = 0; i < 3; i++) {
		add_run(s, 0, i, 1, base_s[i], "", NULL);
		if (nv > 1)
			add_run(s, 1, i, 1, 2 * base_s[i], "", NULL);
		if (nv > 2)
			add_run(s, 2, i, 1, c_s[i], "", NULL);
	}
	if (nv > 2)
		add_run(s, 2, 3, 0, 0, "exit status 1", "oops\033[2J\nline 2");
	s->rounds_done = 3;
	s->stop = PR_STOP_DONE;
	s->elapsed_s = 9.5;
	s->clock_res_s = 1e-9;
	s->overhead_s = 2e-5;
}

/* Renders m in format f and checks that it gives want. */
static void
expect(const struct pr_report_model *m, enum pr_report_format f,
    const char *want)
{
	char *got = fx_render_model(m, f);

	assert_string_equal(got, want);
	free(got);
}

/* The session's lines; control bytes of a name shown, not obeyed. */
static void
test_session(void **state)
{
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_session s;
	char *got;

	(void)state;
	make_session(&s, 2);
	assert_int_equal(pr_report_run_session(&m, NULL, 0, &s, NULL), PR_OK);
	expect(&m, PR_REPORT_TEXT,
	    "baseline a: true  (3 runs ok, 0 failed)\n"
	    "variant  b^[]52: sleep 1  (3 runs ok, 0 failed)\n"
	    "session: 3 rounds of 3, shuffled order, seed 1, 1 warm-up "
	    "round, 6 runs in 9.500 s; stopped: done\n"
	    "timer: CLOCK_MONOTONIC, resolution 1e-09 s; perfreg's own time "
	    "per run 2e-05 s (not in the measurements)\n");
	got = fx_render_model(&m, PR_REPORT_MARKDOWN);
	assert_non_null(strstr(got, "- variant  b^[]52: sleep 1  (3 runs"));
	assert_null(strchr(got, '\033'));
	free(got);
	/* Without a key the session is not in JSON. */
	expect(&m, PR_REPORT_JSON, "{}\n");
	pr_report_model_release(&m);
	pr_session_release(&s);
}

/*
 * The paired analysis: b is exactly twice a in every round, so the
 * change is +100% with no spread, and no test: "p -", never "p -0".
 * c against a: log-ratios ln(1.1), ln(1.1/1.2), ln(1.0/0.9).
 */
static void
test_paired(void **state)
{
	static const char *const names[] = { "wall_s" };
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_session s;
	json_t *j, *row;
	char *got;

	(void)state;
	make_session(&s, 3);
	/* No grid: zero spread is zero (with one, it is the grid's). */
	s.clock_res_s = 0;
	assert_int_equal(pr_report_run_paired(&m, "paired", 0, &s, 1, names, 1,
			     NULL),
	    PR_OK);
	expect(&m, PR_REPORT_TEXT,
	    "\npaired, round by round (shuffled order; mean of the per-round "
	    "log-ratios b^[]52/a, one-sample t):\n"
	    "  wall_s         +100.00%  95% interval [+100.00%, +100.00%]  "
	    "p -  3 pairs  (no spread: no test)\n");
	got = fx_render_model(&m, PR_REPORT_TEXT);
	assert_null(strstr(got, "-0"));
	free(got);
	got = fx_render_model(&m, PR_REPORT_MARKDOWN);
	assert_non_null(strstr(got,
	    "| metric | change | 95% interval | p | pairs | note |\n"
	    "|---|--:|---|--:|--:|---|\n"
	    "| wall_s | +100.00% | [+100.00%, +100.00%] | - | 3 | no spread: "
	    "no test |\n"));
	free(got);
	pr_report_model_release(&m);

	/* c: a test, and its JSON. */
	assert_int_equal(pr_report_run_paired(&m, "paired", 0, &s, 2, names, 1,
			     NULL),
	    PR_OK);
	got = fx_render_model(&m, PR_REPORT_JSON);
	j = json_loads(got, 0, NULL);
	assert_non_null(j);
	row = json_array_get(json_object_get(j, "paired"), 0);
	assert_string_equal(json_string_value(json_object_get(row, "name")),
	    "wall_s");
	assert_int_equal(json_integer_value(json_object_get(row, "pairs")), 3);
	/* exp(mean(ln 1.1, ln(1.1/1.2), ln(1/0.9))) - 1 = 2.9698...%. */
	assert_true(fabs(json_real_value(json_object_get(row, "change_pct")) -
			100 * (cbrt(1.1 * 1.1 / 1.2 / 0.9) - 1)) < 1e-9);
	assert_true(json_is_real(json_object_get(row, "p_value")));
	json_decref(j);
	free(got);
	/* Variant 0 is no variant to pair. */
	assert_int_equal(pr_report_run_paired(&m, "paired", 0, &s, 0, names, 1,
			     NULL),
	    PR_EINVAL);
	pr_report_model_release(&m);
	pr_session_release(&s);
}

/* The failed runs in text: the output indented, its ESC shown. */
static void
test_runs(void **state)
{
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_session s;
	json_t *j, *runs;
	char *got;

	(void)state;
	make_session(&s, 3);
	assert_int_equal(pr_report_run_runs(&m, "runs", 0, &s, NULL), PR_OK);
	expect(&m, PR_REPORT_TEXT,
	    "\nfailed: c, counted run 4: exit status 1\n"
	    "    oops^[[2J\n"
	    "    line 2\n");
	expect(&m, PR_REPORT_MARKDOWN,
	    "\nFailed: c, counted run 4: exit status 1\n\n"
	    "    oops^[[2J\n"
	    "    line 2\n");
	got = fx_render_model(&m, PR_REPORT_JSON);
	j = json_loads(got, 0, NULL);
	assert_non_null(j);
	runs = json_object_get(j, "runs");
	assert_int_equal(json_array_size(runs), 10);
	assert_string_equal(json_string_value(
				json_object_get(json_array_get(runs, 9),
				    "output")),
	    "oops\033[2J\nline 2");
	assert_true(
	    json_is_false(json_object_get(json_array_get(runs, 9), "ok")));
	json_decref(j);
	free(got);
	pr_report_model_release(&m);
	pr_session_release(&s);
}

/* The old way: the whole tree, dumped at once (report_json_dump). */
static char *
render_whole(const struct pr_report_model *m)
{
	struct pr_buf out = PR_BUF_INIT(1 << 24);
	json_t *root = report_model_json(m, NULL);

	assert_non_null(root);
	assert_int_equal(report_json_dump(&out, root,
			     JSON_INDENT(2) | JSON_PRESERVE_ORDER, NULL),
	    PR_OK);
	return out.data;
}

/*
 * The runs written one at a time (issue 16) give byte for byte the text
 * of the whole tree dumped at once: no run, one, and many, with strings
 * that jansson and the DEL / C1 pass escape (quotes, a newline, a tab,
 * ESC, DEL, U+009B, a byte that is not UTF-8), non-finite metrics
 * (null), monitors and output, sections before and after the runs, and
 * a later section of the same key replacing the runs.
 */
static void
test_runs_streamed(void **state)
{
	static const char odd[] =
	    "q\"uote\\ \n\t\033[2J \x7f \xc2\x9b \xff end";
	static const char key[] = "k\"\x7f\xc2\x9b\033"; /* UTF-8: a key */
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_session s;
	struct pr_run *r;
	char *got, *want;
	size_t n, i, all;

	(void)state;
	for (n = 0; n < 4; n++) {
		make_session(&s, 3);
		all = s.nruns;
		if (n == 0)
			s.nruns = 0;
		if (n >= 2) {
			r = &s.runs[1];
			free(r->reason);
			r->reason = strdup(odd);
			r->failed_in = odd;
			r->output = strdup(odd);
			r->output_len = sizeof(odd) - 1;
			r->signal = 9;
			assert_int_equal(pr_dataset_add(&r->metrics, key, "",
					     PR_BETTER_LOWER, 1e-300, NULL),
			    PR_OK);
			r->metrics.metrics[0].values.v[0] = NAN;
			assert_int_equal(pr_dataset_add(&r->monitors,
					     "mon.cpu\x7f", "%",
					     PR_BETTER_LOWER, 12.5, NULL),
			    PR_OK);
			s.runs[2].start_s = 1e21;
			s.runs[3].start_s = -0.0;
		}
		if (n == 1)
			s.nruns = 1;
		assert_int_equal(pr_report_run_session(&m, "session", 0, &s,
				     NULL),
		    PR_OK);
		assert_int_equal(pr_report_run_runs(&m, "runs", 0, &s, NULL),
		    PR_OK);
		if (n == 3) {
			/* The same key again: the last one's value, in the
			 * first one's place, as jansson keeps it. */
			assert_int_equal(pr_report_model_string(&m, "after", 0,
					     odd, NULL),
			    PR_OK);
			assert_int_equal(pr_report_run_runs(&m, "runs", 0, &s,
					     NULL),
			    PR_OK);
			assert_int_equal(pr_report_model_string(&m, "runs", 0,
					     "replaced", NULL),
			    PR_OK);
		}
		got = fx_render_model(&m, PR_REPORT_JSON);
		want = render_whole(&m);
		assert_string_equal(got, want);
		if (n >= 2)
			for (i = 0; got[i] != '\0'; i++)
				assert_true((unsigned char)got[i] != 0x7f);
		free(got);
		free(want);
		pr_report_model_release(&m);
		s.nruns = all;
		pr_session_release(&s);
	}
}

/* The decisions are copied: the caller's rows can go at once. */
static void
test_sequential(void **state)
{
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_report_seq_row rows[2];
	struct pr_report_seq q;
	char *got, name[16] = "wall_s";

	(void)state;
	memset(rows, 0, sizeof(rows));
	rows[0].name = name;
	rows[0].r.decision = PR_SEQ_REGRESSION;
	rows[0].r.n = 12;
	rows[0].r.change_pct = 20;
	rows[0].r.bounded = 1;
	rows[0].r.lo_pct = 5;
	rows[0].r.hi_pct = 35;
	rows[1].name = "user_s";
	rows[1].undefined = "no pair yet";
	q.method = "sequential test";
	q.alpha = 0.05;
	q.equivalence_pct = 1;
	q.stopped = "every metric decided";
	q.rows = rows;
	q.n = 2;
	assert_int_equal(pr_report_run_sequential(&m, NULL, 0, &q, NULL),
	    PR_OK);
	assert_int_equal(pr_report_run_sequential(&m, "sequential",
			     PR_SECTION_NO_TEXT, &q, NULL),
	    PR_OK);
	strcpy(name, "gone");
	expect(&m, PR_REPORT_TEXT,
	    "until decided (sequential test, per round; anytime-valid: the "
	    "chance that any decision below is wrong is at most 5%, however "
	    "the session stopped; every metric decided):\n"
	    "  wall_s         regression   +20.00%  95% confidence sequence "
	    "[+5.00%, +35.00%]  12 rounds\n"
	    "  user_s         undefined: no pair yet\n"
	    "note: the tables below analyse the same runs as if their number "
	    "had been fixed in advance; after a sequential stop their "
	    "p-values describe, the decisions above decide\n\n");
	got = fx_render_model(&m, PR_REPORT_JSON);
	assert_non_null(strstr(got, "\"decision\": \"regression\""));
	assert_non_null(strstr(got, "\"stopped\": \"every metric decided\""));
	assert_non_null(strstr(got, "\"undefined\": \"no pair yet\""));
	free(got);
	pr_report_model_release(&m);
}

/* One variant: its summaries, in text only. */
static void
test_summaries(void **state)
{
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_session s;

	(void)state;
	make_session(&s, 1);
	assert_int_equal(pr_report_run_summaries(&m, 0, &s, NULL), PR_OK);
	expect(&m, PR_REPORT_TEXT,
	    "wall_s         mean 1.03333 s  median 1  min 0.9  max 1.2  n 3\n");
	expect(&m, PR_REPORT_JSON, "{}\n");
	pr_report_model_release(&m);
	pr_session_release(&s);
}

/* An inline comparison gives its members to the document, before the
 * members added after it; an inline section must be an object. */
static void
test_inline(void **state)
{
	static const double bv[] = { 4.83, 5.16, 4.87 };
	static const double nv[] = { 5.30, 5.18, 5.61 };
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_report_metric rm;
	struct pr_report r;
	struct pr_session s;
	json_t *j;
	const char *key;
	void *it;
	char *got;

	(void)state;
	memset(&rm, 0, sizeof(rm));
	memset(&r, 0, sizeof(r));
	rm.name = "elapsed";
	rm.unit = "s";
	rm.base_values = bv;
	rm.base_n = 3;
	rm.new_values = nv;
	rm.new_n = 3;
	rm.cmp.base.n = rm.cmp.new.n = 3;
	rm.cmp.better = PR_BETTER_LOWER;
	rm.cmp.verdict = PR_VERDICT_INCONCLUSIVE;
	r.base_source = "a";
	r.new_source = "b";
	r.conf = 0.95;
	r.equivalence_pct = 1;
	r.metrics = &rm;
	r.n = 1;
	make_session(&s, 2);
	assert_int_equal(pr_report_model_comparison(&m, NULL, PR_SECTION_INLINE,
			     &r, NULL),
	    PR_OK);
	assert_int_equal(pr_report_run_session(&m, "session",
			     PR_SECTION_NO_TEXT, &s, NULL),
	    PR_OK);
	got = fx_render_model(&m, PR_REPORT_JSON);
	j = json_loads(got, 0, NULL);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "base_file")),
	    "a");
	assert_non_null(json_object_get(j, "metrics"));
	/* The last member is the session, added last. */
	for (it = json_object_iter(j), key = NULL; it != NULL;
	     it = json_object_iter_next(j, it))
		key = json_object_iter_key(it);
	assert_string_equal(key, "session");
	json_decref(j);
	free(got);
	pr_report_model_release(&m);

	/* An inline string is refused when rendered. */
	assert_int_equal(pr_report_model_string(&m, NULL, PR_SECTION_INLINE,
			     "x", NULL),
	    PR_OK);
	{
		struct pr_buf b = PR_BUF_INIT(1 << 20);

		assert_int_not_equal(pr_report_model_render(&b, &m,
					 PR_REPORT_JSON, NULL),
		    PR_OK);
		pr_buf_release(&b);
	}
	pr_report_model_release(&m);
	pr_session_release(&s);
}

/* The line --output appends: compact, one run, a newline. */
static void
test_line(void **state)
{
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	struct pr_session s;

	(void)state;
	make_session(&s, 1);
	assert_int_equal(pr_report_run_line(&b, &s, &s.runs[0], NULL), PR_OK);
	assert_int_equal(pr_buf_addc(&b, '\0', NULL), PR_OK);
	assert_string_equal(b.data,
	    "{\"variant\":\"a\",\"seq\":0,\"round\":0,\"warmup\":false,"
	    "\"ok\":true,\"outcome\":\"ok\",\"exit_status\":0,"
	    "\"signal\":null,\"reason\":\"\",\"failed_in\":null,"
	    "\"start_s\":0.0,\"metrics\":{\"wall_s\":1.0}}\n");
	pr_buf_release(&b);
	pr_session_release(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_runs_streamed),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_summaries),
		cmocka_unit_test(test_inline),
		cmocka_unit_test(test_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
