/*
 * tests/probes/test_suite_process.c - the suite in several processes
 * (src/probes/process.c) with fake probes, deterministic and without
 * timing: a worker's results written and read back are the same (every
 * value bit-exactly, notes with tabs, newlines and backslashes, a skipped
 * probe's reason); text that is not a worker's is refused with its line;
 * the results of four processes, one of them four times slower, merge
 * into one session whose samples carry their process, and loading groups
 * them back into process means: a figure's session value is the mean of
 * its process means (not of its samples) and its standard error comes
 * from the process means; a session stored before processes (each sample
 * a round of its own) reads as before.  A worker's results written one
 * probe at a time read as written at once, and a worker cut short keeps
 * the results that ended (pr_suite_results_whole); the parent's view of
 * a running worker's pace (pr_suite_pace) with made-up floors.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfreg/rng.h"
#include "perfreg/suite.h"

/* The process the fakes run in, and how much slower each one is. */
static size_t process;
static const double slowness[4] = { 1.0, 1.0, 4.0, 1.0 };

struct fake {
	unsigned long calls;
};

static enum pr_status
fake_init(const struct pr_probe_opts *o, void **state, struct pr_buf *notes,
    struct pr_error *err)
{
	(void)o;
	if ((*state = calloc(1, sizeof(struct fake))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	return pr_buf_adds(notes, "odd: a\ttab, a \\ and\na second line", err);
}

/* 100 ns (times the process's slowness), +-1 alternately; and a figure
 * whose values need all 17 digits. */
static enum pr_status
proc_sample(void *state, struct pr_dataset *out, struct pr_error *err)
{
	struct fake *f = state;
	double v = 100.0 * slowness[process] + (f->calls % 2 ? 1.0 : -1.0);

	f->calls++;
	if (pr_dataset_add(out, "proc.time", "ns", PR_BETTER_LOWER, v, err) !=
	    PR_OK)
		return PR_ENOMEM;
	return pr_dataset_add(out, "proc.odd", "MB/s", PR_BETTER_HIGHER,
	    0.1 + (double)f->calls / 3.0, err);
}

static enum pr_status
absent_init(const struct pr_probe_opts *o, void **state, struct pr_buf *notes,
    struct pr_error *err)
{
	(void)o;
	(void)notes;
	*state = NULL;
	return pr_error_set(err, PR_ENOTFOUND, "not\there");
}

static void
fake_fini(void *state)
{
	free(state);
}

static const struct pr_probe proc = { "proc", "a fake", "none", NULL, fake_init,
	proc_sample, fake_fini, PR_PROBE_FIGURE_MEAN };
static const struct pr_probe absent = { "absent", "cannot run", "none", NULL,
	absent_init, proc_sample, fake_fini, PR_PROBE_FIGURE_MEAN };

/* Runs the two fakes as process p would, with max samples. */
static void
run_process(size_t p, size_t max, struct pr_suite_result **r, size_t *n)
{
	const struct pr_probe *const probes[] = { &proc, &absent };
	struct pr_suite_opts o;
	struct pr_error err;

	process = p;
	pr_suite_opts_init(&o);
	o.target_pct = 0;
	o.min_samples = 2;
	o.max_samples = max;
	o.budget_s = 1e6;
	assert_int_equal(pr_suite_run(probes, 2, &o, r, n, &err), PR_OK);
	assert_int_equal(*n, 2);
}

static void
test_roundtrip(void **state)
{
	const struct pr_probe *const probes[] = { &proc, &absent };
	struct pr_suite_result *r, *back;
	struct pr_buf text = PR_BUF_INIT(1 << 20);
	struct pr_error err;
	size_t n, nb, i, k, j;

	(void)state;
	run_process(0, 5, &r, &n);
	assert_int_equal(pr_suite_results_write(r, n, &text, &err), PR_OK);
	assert_int_equal(pr_suite_results_read(text.data, text.len, probes, 2,
			     &back, &nb, &err),
	    PR_OK);
	assert_int_equal(nb, n);
	for (i = 0; i < n; i++) {
		assert_ptr_equal(back[i].probe, r[i].probe);
		assert_string_equal(back[i].label, r[i].label);
		assert_int_equal(back[i].samples, r[i].samples);
		assert_true(back[i].elapsed_s == r[i].elapsed_s);
		assert_true(back[i].floor_s == r[i].floor_s);
		assert_true(back[i].cpu_s == r[i].cpu_s);
		assert_int_equal(back[i].capped, r[i].capped);
		assert_int_equal(back[i].converged, r[i].converged);
		assert_int_equal(back[i].budget_cut, r[i].budget_cut);
		assert_string_equal(back[i].notes, r[i].notes);
		assert_int_equal(back[i].data.n, r[i].data.n);
		for (k = 0; k < r[i].data.n; k++) {
			const struct pr_metric *a = &r[i].data.metrics[k],
					       *b = &back[i].data.metrics[k];

			assert_string_equal(a->name, b->name);
			assert_string_equal(a->unit, b->unit);
			assert_int_equal(a->better, b->better);
			assert_int_equal(a->values.n, b->values.n);
			for (j = 0; j < a->values.n; j++)
				assert_memory_equal(&a->values.v[j],
				    &b->values.v[j], sizeof(double));
		}
	}
	assert_string_equal(r[0].notes, "odd: a\ttab, a \\ and\na second line");
	assert_null(back[0].skipped);
	assert_string_equal(back[1].skipped, "not\there");
	assert_int_equal(back[1].samples, 0);
	pr_suite_results_free(back, nb);
	pr_suite_results_free(r, n);
	pr_buf_release(&text);
}

/* Text that is not a worker's is refused, naming its line. */
static void
test_read_rejects(void **state)
{
	static const char *const bad[] = {
		"R\tproc\tproc\t1\t0.5\t0\t0\t1\t-1\t0.1\t0.2\nX\tsomething\n",
		"M\tproc.time\tns\tlower\t1\n",
		"R\tproc\tnosuch\t1\t0.5\t0\t0\t1\t-1\t0.1\t0.2\n",
		"R\tproc\tproc\t1\t0.5\t0\t0\t1\t-1\t0.1\t0.2\n"
		"M\tproc.time\tns\tlower\t1 nan\n",
		"R\tproc\tproc\t1\t0.5\t0\t0\t1\t-1\t0.1\t0.2\n"
		"M\tproc.time\tns\tsideways\t1\n",
		"R\tproc\tproc\t1\t0.5\t0\t0\t2\t-1\t0.1\t0.2\n",
		"R\tproc\tproc\tx\t0.5\t0\t0\t1\t-1\t0.1\t0.2\n",
		"R\tproc\tproc\t1\t0.5\t0\t0\t1\t-1\t0.1\t0.2\n"
		"M\tproc.time\tns\tlower\t1 2\nE\n",
		"R\tproc\tproc\t1\t0.5\t0\t0\t1\t-1\t0.1\t0.2\nN\tbad\\q\n",
		"R\tother\tproc\t1\t0.5\t0\t0\t1\t-1\t0.1\t0.2\n",
		/* A worker cut short: a result without its end line. */
		"R\tproc\tproc\t1\t0.5\t0\t0\t1\t-1\t0.1\t0.2\nE\n"
		"R\tproc\tproc\t1\t0.5\t0\t0\t1\t-1\t0.1\t0.2\n"
		"M\tproc.time\tns\tlower\t1\n",
		"E\n",
		"R\tproc\tproc\t1\t0.5\t0\t0\t1\t-1\t0.1\t0.2\nE\tx\n",
		"R\tproc\tproc\t1\t0.5\t0\t0\t1\t-1\t0.1\t0.2\nE\n"
		"M\tproc.time\tns\tlower\t1\n",
		/* Without its CPU field, or with a negative one. */
		"R\tproc\tproc\t1\t0.5\t0\t0\t1\t-1\t0.1\n",
		"R\tproc\tproc\t1\t0.5\t0\t0\t1\t-1\t0.1\t-0.2\n",
	};
	static const char *const where[] = { "line 2", "line 1", "line 1",
		"line 2", "line 2", "line 1", "line 1", "2 values", "line 2",
		"line 1", "line 4: the text ends inside a result", "line 1",
		"line 2", "line 3", "line 1", "line 1" };
	const struct pr_probe *const probes[] = { &proc };
	struct pr_suite_result *r;
	struct pr_error err;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pr_error_clear(&err);
		assert_int_equal(pr_suite_results_read(bad[i], strlen(bad[i]),
				     probes, 1, &r, &n, &err),
		    PR_EPARSE);
		assert_null(r);
		assert_int_equal(n, 0);
		assert_non_null(strstr(err.msg, where[i]));
	}
	/* Nothing is no result, not an error. */
	assert_int_equal(pr_suite_results_read("", 0, probes, 1, &r, &n, &err),
	    PR_OK);
	assert_int_equal(n, 0);
	pr_suite_results_free(r, n);
}

/* on_probe: each probe's result written as it is done, as a worker
 * does. */
static void
write_one(const struct pr_suite_result *r, void *arg)
{
	struct pr_error err;

	assert_int_equal(pr_suite_results_write(r, 1, arg, &err), PR_OK);
}

/*
 * A worker writes each probe's result as soon as the probe is done
 * (on_probe, once a probe, the skipped one too): the text is the same as
 * written all at once; any prefix of it keeps exactly the results that
 * ended in it (pr_suite_results_whole), which read back; a prefix cut
 * inside a result is refused, naming it.
 */
static void
test_stream(void **state)
{
	const struct pr_probe *const probes[] = { &proc, &absent };
	struct pr_suite_result *r, *back;
	struct pr_buf text = PR_BUF_INIT(1 << 20),
		      streamed = PR_BUF_INIT(1 << 20);
	struct pr_suite_opts o;
	struct pr_error err;
	size_t n, nb, len, cut, first = 0, w;

	(void)state;
	process = 0;
	pr_suite_opts_init(&o);
	o.target_pct = 0;
	o.min_samples = 2;
	o.max_samples = 5;
	o.budget_s = 1e6;
	o.on_probe = write_one;
	o.arg = &streamed;
	assert_int_equal(pr_suite_run(probes, 2, &o, &r, &n, &err), PR_OK);
	assert_int_equal(pr_suite_results_write(r, n, &text, &err), PR_OK);
	assert_int_equal(streamed.len, text.len);
	assert_memory_equal(streamed.data, text.data, text.len);
	len = text.len;
	/* The first result ends at its E line. */
	for (cut = 0; cut + 2 <= len; cut++)
		if (memcmp(text.data + cut, "\nE\n", 3) == 0) {
			first = cut + 3;
			break;
		}
	assert_true(first > 0 && first < len);
	for (cut = 0; cut <= len; cut++) {
		w = pr_suite_results_whole(text.data, cut);
		assert_int_equal(w,
		    cut == len         ? len
			: cut >= first ? first
				       : 0);
		pr_error_clear(&err);
		assert_int_equal(pr_suite_results_read(text.data, w, probes, 2,
				     &back, &nb, &err),
		    PR_OK);
		assert_int_equal(nb, w == len ? 2 : w == first ? 1 : 0);
		if (nb > 0)
			assert_int_equal(back[0].samples, r[0].samples);
		pr_suite_results_free(back, nb);
	}
	/* Cut inside the first result, after its R line. */
	cut = (size_t)(strchr(text.data, '\n') - text.data) + 1;
	assert_int_equal(pr_suite_results_read(text.data, cut, probes, 2, &back,
			     &nb, &err),
	    PR_EPARSE);
	assert_non_null(strstr(err.msg, "ends inside a result"));
	pr_suite_results_free(r, n);
	pr_buf_release(&text);
	pr_buf_release(&streamed);
}

/*
 * The parent's view of a running worker (pr_suite_pace): three probes
 * whose floors are 2 s, not measured, and 4 s; one not measured counts
 * as the mean of those measured (3 s); the running probe has spent part
 * of its floor; late when what is needed at the least exceeds what is
 * left.
 */
static void
test_pace(void **state)
{
	const double floors[] = { 2, 0, 4 }, none[] = { 0, 0, 0 };
	struct pr_suite_pace_est e;

	(void)state;
	pr_suite_pace(floors, 3, 0, 0, 10, &e);
	assert_true(fabs(e.need_s - 9) < 1e-12);
	assert_int_equal(e.known, 1);
	assert_int_equal(e.late, 0);
	pr_suite_pace(floors, 3, 0, 0, 8.5, &e);
	assert_int_equal(e.late, 1);
	pr_suite_pace(floors, 3, 0, 1.5, 8.5, &e);
	assert_true(fabs(e.need_s - 7.5) < 1e-12);
	assert_int_equal(e.late, 0);
	/* Past its floor, the running probe counts nothing more: the
	 * probes after it still do. */
	pr_suite_pace(floors, 3, 0, 5, -1, &e);
	assert_true(fabs(e.need_s - 7) < 1e-12);
	assert_int_equal(e.late, 1);
	pr_suite_pace(floors, 3, 1, 1, 6.5, &e);
	assert_true(fabs(e.need_s - 6) < 1e-12);
	assert_int_equal(e.late, 0);
	pr_suite_pace(floors, 3, 1, 1, 5.5, &e);
	assert_int_equal(e.late, 1);
	/* All done: nothing is needed, whatever the time. */
	pr_suite_pace(floors, 3, 3, 100, -50, &e);
	assert_true(e.need_s == 0);
	assert_int_equal(e.late, 0);
	/* Nothing measured: nothing known, never late. */
	pr_suite_pace(none, 3, 0, 100, -50, &e);
	assert_int_equal(e.known, 0);
	assert_int_equal(e.late, 0);
}

/* The mean of v[0..n). */
static double
mean_of(const double *v, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	return s / (double)n;
}

/*
 * Four processes of 4, 6, 8 and 10 samples, the third four times
 * slower; merged, stored by process (as cmd_suite.c stores them: the
 * process is the round) and loaded back into process means.
 */
static void
four_processes(struct pr_suite_result *into, struct pr_dataset *units)
{
	struct pr_suite_result *w;
	struct pr_error err;
	const struct pr_metric *m;
	size_t p, n, k, j;

	memset(into, 0, 2 * sizeof(*into));
	into[0].probe = &proc;
	into[1].probe = &absent;
	pr_dataset_init(&into[0].data);
	pr_dataset_init(&into[1].data);
	for (p = 0; p < 4; p++) {
		run_process(p, 4 + 2 * p, &w, &n);
		assert_int_equal(pr_suite_results_merge(into, w, 2, p, &err),
		    PR_OK);
		pr_suite_results_free(w, n);
	}
	for (p = 0; p < 4; p++)
		pr_dataset_init(&units[p]);
	for (k = 0; k < into[0].data.n; k++) {
		m = &into[0].data.metrics[k];
		for (j = 0; j < m->values.n; j++)
			assert_int_equal(pr_dataset_add(&units[into[0]
								   .process[j]],
					     m->name, m->unit, m->better,
					     m->values.v[j], &err),
			    PR_OK);
	}
}

static void
test_merge_and_group(void **state)
{
	const struct pr_suite_figure fig[] = {
		{ "proc.time", "ns", PR_BETTER_LOWER },
	};
	const struct pr_probe *const pl[] = { &proc };
	struct pr_suite_result into[2];
	struct pr_dataset units[4], base, new_;
	struct pr_suite_cmp sc;
	struct pr_error err;
	const struct pr_metric *m;
	double pm[4], mean, h, sd = 0, raw;
	size_t p, j;

	(void)state;
	four_processes(into, units);
	assert_int_equal(into[0].samples, 4 + 6 + 8 + 10);
	assert_int_equal(into[0].processes, 4);
	assert_string_equal(into[0].label, "proc");
	for (j = 0; j < into[0].samples; j++)
		assert_int_equal(into[0].process[j],
		    j < 4        ? 0
			: j < 10 ? 1
			: j < 18 ? 2
				 : 3);
	/* The probe that cannot run here stays skipped, with no samples. */
	assert_string_equal(into[1].skipped, "not\there");
	assert_int_equal(into[1].samples, 0);
	assert_int_equal(into[1].processes, 0);
	/* Each process's values are +-1 about 100 (400 for the third), an
	 * even count of them: its mean is exactly 100 or 400. */
	for (p = 0; p < 4; p++)
		pm[p] = 100.0 * slowness[p];
	m = pr_dataset_find(&into[0].data, "proc.time");
	raw = mean_of(m->values.v, m->values.n);
	/* The session mean is that of the process means (175), not the
	 * samples' (the slow process has 8 of 28: 185.7). */
	pr_suite_result_stats(&into[0], m, &mean, &h);
	assert_true(fabs(mean - 175.0) < 1e-9);
	assert_true(fabs(raw - 175.0) > 10);
	for (p = 0; p < 4; p++)
		sd += (pm[p] - 175.0) * (pm[p] - 175.0);
	sd = sqrt(sd / 3.0);
	/* t(0.975, 3) = 3.182446305284263 */
	assert_true(
	    fabs(h - 100.0 * 3.182446305284263 * sd / 2.0 / 175.0) < 1e-6);
	/* Loading: one value a process, its mean. */
	pr_dataset_init(&base);
	assert_int_equal(pr_suite_unit_values(units, 4, pl, 1, &base, &err),
	    PR_OK);
	m = pr_dataset_find(&base, "proc.time");
	assert_int_equal(m->values.n, 4);
	for (p = 0; p < 4; p++)
		assert_true(fabs(m->values.v[p] - pm[p]) < 1e-9);
	/* The comparison takes the session's value as the mean of its
	 * process means and its log standard error from them. */
	pr_dataset_init(&new_);
	assert_int_equal(pr_suite_unit_values(units, 4, pl, 1, &new_, &err),
	    PR_OK);
	assert_int_equal(pr_suite_compare(&base, 1, &new_, 1, fig, 1, NULL, &sc,
			     &err),
	    PR_OK);
	assert_int_equal(sc.n, 1);
	assert_true(fabs(sc.values[0] - 175.0) < 1e-9);
	assert_true(fabs(sc.values[sc.nb + sc.nn] - sd / 2.0 / 175.0) < 1e-12);
	/* A/A with a slow process: nothing called. */
	assert_true(sc.cmp[0].verdict != PR_VERDICT_REGRESSION &&
	    sc.cmp[0].verdict != PR_VERDICT_IMPROVEMENT);
	pr_suite_cmp_release(&sc);
	pr_dataset_release(&base);
	pr_dataset_release(&new_);
	for (p = 0; p < 4; p++)
		pr_dataset_release(&units[p]);
	pr_dataset_release(&into[0].data);
	pr_dataset_release(&into[1].data);
	free(into[0].notes);
	free(into[1].notes);
	free(into[1].skipped);
	free(into[0].process);
}

/* A session stored before processes, each sample its own round, and a
 * session of one process read as their samples. */
static void
test_old_sessions(void **state)
{
	static const double v[] = { 3, 5, 4, 8 };
	const struct pr_probe *const pl[] = { &proc };
	struct pr_dataset units[4], out, one;
	struct pr_error err;
	const struct pr_metric *m;
	size_t i;

	(void)state;
	pr_dataset_init(&one);
	for (i = 0; i < 4; i++) {
		pr_dataset_init(&units[i]);
		assert_int_equal(pr_dataset_add(&units[i], "f", "ns",
				     PR_BETTER_LOWER, v[i], &err),
		    PR_OK);
		assert_int_equal(pr_dataset_add(&one, "f", "ns",
				     PR_BETTER_LOWER, v[i], &err),
		    PR_OK);
	}
	pr_dataset_init(&out);
	assert_int_equal(pr_suite_unit_values(units, 4, pl, 1, &out, &err),
	    PR_OK);
	m = pr_dataset_find(&out, "f");
	assert_int_equal(m->values.n, 4);
	assert_memory_equal(m->values.v, v, sizeof(v));
	pr_dataset_release(&out);
	pr_dataset_init(&out);
	assert_int_equal(pr_suite_unit_values(&one, 1, pl, 1, &out, &err),
	    PR_OK);
	m = pr_dataset_find(&out, "f");
	assert_int_equal(m->values.n, 4);
	assert_memory_equal(m->values.v, v, sizeof(v));
	pr_dataset_release(&out);
	pr_dataset_release(&one);
	for (i = 0; i < 4; i++)
		pr_dataset_release(&units[i]);
}

/* Fakes that only name a probe and its rule. */
static const struct pr_probe bestp = { "bestp", "a fake", "none", NULL,
	fake_init, proc_sample, fake_fini, PR_PROBE_FIGURE_BEST };
static const struct pr_probe meanp = { "meanp", "a fake", "none", NULL,
	fake_init, proc_sample, fake_fini, PR_PROBE_FIGURE_MEAN };

/* A unit's value by each rule, and which rule a figure's name gives. */
static void
test_unit_value(void **state)
{
	static const double v[] = { 5, 3, 9, 4 };
	/* Which rule a name gives: the probe's whole name, not a prefix of
	 * it; the built-in probes' rules (issue 10). */
	static const struct {
		const char *name;
		int builtin;
		enum pr_probe_figure want;
	} rules[] = {
		{ "bestp.x.64B", 0, PR_PROBE_FIGURE_BEST },
		{ "meanp.x", 0, PR_PROBE_FIGURE_MEAN },
		{ "bestpx.y", 0, PR_PROBE_FIGURE_MEAN },
		{ "best.y", 0, PR_PROBE_FIGURE_MEAN },
		{ "mon.cpu_s", 0, PR_PROBE_FIGURE_MEAN },
		{ "copy.memcpy.64B", 1, PR_PROBE_FIGURE_BEST },
		{ "crypto.sha256.16B", 1, PR_PROBE_FIGURE_BEST },
		{ "syscall.getppid", 1, PR_PROBE_FIGURE_BEST },
		{ "fault.4k", 1, PR_PROBE_FIGURE_BEST },
		{ "pipe-digest.sha256.cpu", 1, PR_PROBE_FIGURE_MEAN },
		{ "handoff.spin.p99", 1, PR_PROBE_FIGURE_BEST },
		{ "random.rdrand.16B", 1, PR_PROBE_FIGURE_BEST },
		{ "tcp.1stream.throughput", 1, PR_PROBE_FIGURE_MEAN },
	};
	const struct pr_probe *const pl[] = { &meanp, &bestp };
	size_t i;

	(void)state;
	assert_true(pr_suite_unit_value(v, 4, PR_BETTER_LOWER,
			PR_PROBE_FIGURE_MEAN) == 5.25);
	assert_true(pr_suite_unit_value(v, 4, PR_BETTER_HIGHER,
			PR_PROBE_FIGURE_MEAN) == 5.25);
	assert_true(pr_suite_unit_value(v, 4, PR_BETTER_LOWER,
			PR_PROBE_FIGURE_BEST) == 3);
	assert_true(pr_suite_unit_value(v, 4, PR_BETTER_HIGHER,
			PR_PROBE_FIGURE_BEST) == 9);
	assert_true(pr_suite_unit_value(v + 3, 1, PR_BETTER_HIGHER,
			PR_PROBE_FIGURE_BEST) == 4);
	assert_true(isnan(
	    pr_suite_unit_value(v, 0, PR_BETTER_LOWER, PR_PROBE_FIGURE_BEST)));
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		assert_int_equal(pr_suite_figure_rule(rules[i].builtin
					 ? pr_probes
					 : pl,
				     rules[i].builtin ? 8 : 2, rules[i].name),
		    rules[i].want);
}

static void
add_all(struct pr_dataset *d, const char *name, enum pr_better better,
    const double *v, size_t n)
{
	struct pr_error err;
	size_t j;

	for (j = 0; j < n; j++)
		assert_int_equal(pr_dataset_add(d, name, "ns", better, v[j],
				     &err),
		    PR_OK);
}

/* A session's units by the rules: a process's best, one process's
 * blocks' bests, and what the probe lines show from a result. */
static void
test_best_units(void **state)
{
	static const double v[] = { 7, 3, 6, 2, 9, 8, 5, 1, 4, 10 };
	const struct pr_probe *const pl[] = { &meanp, &bestp };
	struct pr_dataset units[2], out;
	struct pr_suite_result r;
	struct pr_error err;
	const struct pr_metric *m;
	size_t proc_of[10], j;
	double mean, h;

	(void)state;
	/* Two processes, 4 and 6 samples: one value each. */
	pr_dataset_init(&units[0]);
	pr_dataset_init(&units[1]);
	add_all(&units[0], "bestp.t", PR_BETTER_LOWER, v, 4);
	add_all(&units[1], "bestp.t", PR_BETTER_LOWER, v + 4, 6);
	add_all(&units[0], "bestp.r", PR_BETTER_HIGHER, v, 4);
	add_all(&units[1], "bestp.r", PR_BETTER_HIGHER, v + 4, 6);
	add_all(&units[0], "meanp.t", PR_BETTER_LOWER, v, 4);
	add_all(&units[1], "meanp.t", PR_BETTER_LOWER, v + 4, 6);
	pr_dataset_init(&out);
	assert_int_equal(pr_suite_unit_values(units, 2, pl, 2, &out, &err),
	    PR_OK);
	m = pr_dataset_find(&out, "bestp.t");
	assert_int_equal(m->values.n, 2);
	assert_true(m->values.v[0] == 2 && m->values.v[1] == 1);
	m = pr_dataset_find(&out, "bestp.r");
	assert_true(m->values.v[0] == 7 && m->values.v[1] == 10);
	m = pr_dataset_find(&out, "meanp.t");
	assert_true(m->values.v[0] == 4.5 && m->values.v[1] == 37.0 / 6);
	pr_dataset_release(&out);
	pr_dataset_release(&units[0]);
	pr_dataset_release(&units[1]);

	/* One process of 10 samples: blocks [0,2) [2,5) [5,7) [7,10), each
	 * its best; a mean figure its samples; 3 samples: 3 blocks. */
	pr_dataset_init(&units[0]);
	add_all(&units[0], "bestp.t", PR_BETTER_LOWER, v, 10);
	add_all(&units[0], "bestp.r", PR_BETTER_HIGHER, v, 10);
	add_all(&units[0], "meanp.t", PR_BETTER_LOWER, v, 10);
	add_all(&units[0], "bestp.few", PR_BETTER_LOWER, v, 3);
	pr_dataset_init(&out);
	assert_int_equal(pr_suite_unit_values(units, 1, pl, 2, &out, &err),
	    PR_OK);
	m = pr_dataset_find(&out, "bestp.t");
	assert_int_equal(m->values.n, PR_SUITE_BLOCKS);
	assert_true(m->values.v[0] == 3 && m->values.v[1] == 2 &&
	    m->values.v[2] == 5 && m->values.v[3] == 1);
	m = pr_dataset_find(&out, "bestp.r");
	assert_true(m->values.v[0] == 7 && m->values.v[1] == 9 &&
	    m->values.v[2] == 8 && m->values.v[3] == 10);
	m = pr_dataset_find(&out, "meanp.t");
	assert_int_equal(m->values.n, 10);
	assert_memory_equal(m->values.v, v, sizeof(v));
	m = pr_dataset_find(&out, "bestp.few");
	assert_int_equal(m->values.n, 3);
	assert_memory_equal(m->values.v, v, 3 * sizeof(v[0]));
	pr_dataset_release(&out);

	/* A suite ab process: a best figure's best, one value, a mean
	 * figure's samples. */
	pr_dataset_init(&out);
	assert_int_equal(pr_suite_ab_values(&units[0], pl, 2, &out, &err),
	    PR_OK);
	m = pr_dataset_find(&out, "bestp.t");
	assert_int_equal(m->values.n, 1);
	assert_true(m->values.v[0] == 1);
	m = pr_dataset_find(&out, "bestp.r");
	assert_int_equal(m->values.n, 1);
	assert_true(m->values.v[0] == 10);
	m = pr_dataset_find(&out, "meanp.t");
	assert_int_equal(m->values.n, 10);
	assert_memory_equal(m->values.v, v, sizeof(v));
	pr_dataset_release(&out);

	/* The probe line's figure from a result: the same units. */
	memset(&r, 0, sizeof(r));
	r.probe = &bestp;
	r.data = units[0];
	r.samples = 10;
	m = pr_dataset_find(&r.data, "bestp.t");
	pr_suite_result_stats(&r, m, &mean, &h);
	assert_true(mean == (3 + 2 + 5 + 1) / 4.0);
	for (j = 0; j < 10; j++)
		proc_of[j] = j < 4 ? 0 : 1;
	r.process = proc_of;
	r.processes = 2;
	pr_suite_result_stats(&r, m, &mean, &h);
	assert_true(mean == (2 + 1) / 2.0);
	r.probe = &meanp;
	pr_suite_result_stats(&r, m, &mean, &h);
	assert_true(fabs(mean - (4.5 + 37.0 / 6) / 2) < 1e-12);
	pr_dataset_release(&units[0]);
}

/*
 * One figure's samples in one session: 4 processes of 12, each about
 * t (+-0.2%); a share `busy` of the samples (not the first of a process)
 * other work landing on them (+50% to +250%), and one in `tail` (0:
 * none) twice as slow.
 */
static void
fake_session(struct pr_rng *g, struct pr_dataset *units, const char *name,
    double t, double busy, size_t tail)
{
	struct pr_error err;
	size_t p, j;
	double v;

	for (p = 0; p < 4; p++)
		for (j = 0; j < 12; j++) {
			v = t * (1 + 0.002 * (2 * pr_rng_uniform(g) - 1));
			if (j > 0 && pr_rng_uniform(g) < busy)
				v *= 1.5 + 2 * pr_rng_uniform(g);
			if (tail > 0 && j % tail == tail - 1)
				v *= 2;
			assert_int_equal(pr_dataset_add(&units[p], name, "ns",
					     PR_BETTER_LOWER, v, &err),
			    PR_OK);
		}
}

/*
 * Decides 3 base sessions against 1 new one, 8 figures of each probe
 * (bestp's and meanp's from the same samples); *best and *mean get how
 * many of each were called regressions.
 */
static void
fake_verdicts(const double *busy, double slow, size_t tail, size_t *best,
    size_t *mean)
{
	const struct pr_probe *const pl[] = { &meanp, &bestp };
	struct pr_suite_figure fig[16];
	struct pr_dataset units[4], d[4];
	struct pr_suite_cmp sc;
	struct pr_error err;
	struct pr_rng g;
	char names[16][32];
	size_t s, f, p, i;

	pr_rng_seed(&g, 10);
	for (f = 0; f < 16; f++) {
		snprintf(names[f], sizeof(names[f]), "%s.f%zu",
		    f < 8 ? "bestp" : "meanp", f % 8);
		fig[f].name = names[f];
		fig[f].unit = "ns";
		fig[f].better = PR_BETTER_LOWER;
	}
	for (s = 0; s < 4; s++) {
		for (p = 0; p < 4; p++)
			pr_dataset_init(&units[p]);
		/* The same samples for both rules. */
		for (f = 0; f < 8; f++) {
			struct pr_rng h = g;

			fake_session(&g, units, names[f],
			    100.0 * (double)(f + 1) * (s == 3 ? slow : 1),
			    busy[s], s == 3 ? tail : 0);
			fake_session(&h, units, names[f + 8],
			    100.0 * (double)(f + 1) * (s == 3 ? slow : 1),
			    busy[s], s == 3 ? tail : 0);
		}
		pr_dataset_init(&d[s]);
		assert_int_equal(pr_suite_unit_values(units, 4, pl, 2, &d[s],
				     &err),
		    PR_OK);
		for (p = 0; p < 4; p++)
			pr_dataset_release(&units[p]);
	}
	assert_int_equal(pr_suite_compare(d, 3, &d[3], 1, fig, 16, NULL, &sc,
			     &err),
	    PR_OK);
	assert_int_equal(sc.n, 16);
	*best = *mean = 0;
	for (i = 0; i < sc.n; i++)
		if (sc.cmp[i].verdict == PR_VERDICT_REGRESSION)
			(*(sc.index[i] < 8 ? best : mean))++;
	pr_suite_cmp_release(&sc);
	for (s = 0; s < 4; s++)
		pr_dataset_release(&d[s]);
}

/*
 * What the rule buys and what it costs, with fake samples: interference
 * that varies from session to session hides a 10% slowdown from the
 * mean, not from the best sample; a slowdown of one sample in four (a
 * tail) is called by the mean and not seen by the best sample.
 */
static void
test_best_verdicts(void **state)
{
	static const double busy[] = { 0.2, 0.5, 0.35, 0.25 };
	static const double quiet[] = { 0, 0, 0, 0 };
	size_t best, mean;

	(void)state;
	fake_verdicts(busy, 1.10, 0, &best, &mean);
	assert_int_equal(best, 8);
	assert_int_equal(mean, 0);
	fake_verdicts(quiet, 1.0, 4, &best, &mean);
	assert_int_equal(best, 0);
	assert_int_equal(mean, 8);
	/* A/A: nothing called either way. */
	fake_verdicts(busy, 1.0, 0, &best, &mean);
	assert_int_equal(best, 0);
	assert_int_equal(mean, 0);
}

/* The reserve for storing and comparing at the measured pace. */
static void
test_reserve(void **state)
{
	struct pr_suite_result r[3];
	double wall, cpu;

	(void)state;
	/* Unknown or idle pace: the old 0.3 s + 3% of the budget. */
	assert_true(fabs(pr_suite_reserve(0, 60, 0) - 2.1) < 1e-12);
	assert_true(fabs(pr_suite_reserve(1, 60, 0) - 2.1) < 1e-12);
	/* pace x 1.5 s of CPU past it. */
	assert_true(fabs(pr_suite_reserve(4, 60, 0) - 6.0) < 1e-12);
	assert_true(fabs(pr_suite_reserve(8, 60, 0) - 12.0) < 1e-12);
	/* And with the sessions stored before: 1.5 s covers 5 of them,
	 * 0.15 s each one more, counted up to 40 (review of s12, finding
	 * 2: 2.53 s of CPU at 20 against the 1.5 s kept). */
	assert_true(fabs(pr_suite_reserve(2, 60, 5) - 3.0) < 1e-12);
	assert_true(fabs(pr_suite_reserve(2, 60, 20) - 7.5) < 1e-12);
	assert_true(fabs(pr_suite_reserve(2, 60, 40) - 13.5) < 1e-12);
	assert_true(fabs(pr_suite_reserve(2, 60, 1000) - 13.5) < 1e-12);
	assert_true(fabs(pr_suite_reserve(0, 60, 20) - 2.1) < 1e-12);
	/* At most 25% of the budget... */
	assert_true(fabs(pr_suite_reserve(100, 3, 0) - 0.75) < 1e-12);
	assert_true(fabs(pr_suite_reserve(1000, 60, 0) - 15.0) < 1e-12);
	/* ...but never below the least. */
	assert_true(fabs(pr_suite_reserve(100, 1, 0) - 0.33) < 1e-12);
	assert_true(fabs(pr_suite_reserve(NAN, 60, 0) - 2.1) < 1e-12);
	/* The pace: wall over CPU, both summed; a result without CPU time
	 * (skipped, or from an older worker) does not count. */
	memset(r, 0, sizeof(r));
	r[0].elapsed_s = 3;
	r[0].cpu_s = 1;
	r[1].elapsed_s = 5;
	r[1].cpu_s = 0;
	r[2].elapsed_s = 9;
	r[2].cpu_s = 0.5;
	wall = cpu = 0;
	assert_true(
	    fabs(pr_suite_pace_of(r, 3, &wall, &cpu) - 12.0 / 1.5) < 1e-12);
	/* Added to: the pace of all results so far. */
	assert_true(
	    fabs(pr_suite_pace_of(r, 1, &wall, &cpu) - 15.0 / 2.5) < 1e-12);
	wall = cpu = 0;
	assert_true(pr_suite_pace_of(r + 1, 1, &wall, &cpu) == 0);
	assert_true(pr_suite_pace_of(r, 0, &wall, &cpu) == 0);
}

/*
 * A figure one process left out (an instruction that gave no value
 * there) is left out of the merged session, whose values would no
 * longer line up with the samples; that process's note is kept, once.
 */
static void
test_merge_left_out(void **state)
{
	struct pr_suite_result into[1], w[2];
	struct pr_error err;
	size_t p, j;

	(void)state;
	memset(into, 0, sizeof(into));
	into[0].probe = &proc;
	pr_dataset_init(&into[0].data);
	for (p = 0; p < 2; p++) {
		memset(&w[p], 0, sizeof(w[p]));
		w[p].probe = &proc;
		w[p].label = "proc";
		w[p].samples = 3;
		w[p].notes = p == 0 ? "proc: odd, left out\n"
				    : "proc: odd, left out\nproc: x gave no "
				      "value at sample 2, left out from then "
				      "on\nproc: 3 tries retried\n";
		pr_dataset_init(&w[p].data);
		for (j = 0; j < 3; j++) {
			assert_int_equal(pr_dataset_add(&w[p].data, "proc.time",
					     "ns", PR_BETTER_LOWER, 1.0 + j,
					     &err),
			    PR_OK);
			if (p == 0)
				assert_int_equal(pr_dataset_add(&w[p].data,
						     "proc.x", "ns",
						     PR_BETTER_LOWER, 5.0,
						     &err),
				    PR_OK);
		}
		assert_int_equal(pr_suite_results_merge(into, &w[p], 1, p,
				     &err),
		    PR_OK);
		pr_dataset_release(&w[p].data);
	}
	assert_int_equal(into[0].samples, 6);
	assert_non_null(pr_dataset_find(&into[0].data, "proc.time"));
	assert_int_equal(pr_dataset_find(&into[0].data, "proc.time")->values.n,
	    6);
	assert_null(pr_dataset_find(&into[0].data, "proc.x"));
	assert_string_equal(into[0].notes,
	    "proc: odd, left out\nprocess 2: proc: x gave no value at sample "
	    "2, left out from then on\n");
	pr_dataset_release(&into[0].data);
	free(into[0].notes);
	free(into[0].process);
}

/* The one CPU clock of the pace and the reserve counts a reaped child's
 * CPU (a probe's child processes), which this process's own clock does
 * not: a child that uses 0.05 s of CPU and is reaped moves it by that
 * much at the least. */
static void
test_cpu_children(void **state)
{
	struct timespec ts;
	double before, self;
	volatile unsigned long spin = 0;
	pid_t pid;
	int status;

	(void)state;
	before = pr_suite_cpu_s();
	assert_true(before > 0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	self = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		do {
			spin++;
			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
		} while ((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 < 0.05);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	/* This process's own CPU moved less than the child's. */
	assert_true((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 - self <
	    pr_suite_cpu_s() - before);
	assert_true(pr_suite_cpu_s() - before >= 0.05 - 1e-3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_read_rejects),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_pace),
		cmocka_unit_test(test_merge_and_group),
		cmocka_unit_test(test_old_sessions),
		cmocka_unit_test(test_unit_value),
		cmocka_unit_test(test_best_units),
		cmocka_unit_test(test_best_verdicts),
		cmocka_unit_test(test_reserve),
		cmocka_unit_test(test_cpu_children),
		cmocka_unit_test(test_merge_left_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
