/*
 * tests/run/test_runner.c - benchmark sessions: the shuffled order and its
 * seed, warm-ups not counted, failed runs recorded with their reason and
 * output and not counted, --max-failures, setup/prepare/cleanup, parsed
 * and derived metrics, pairing of rounds, the stop hook, Ctrl-C, the
 * sequential order and -L expansion.  Only lower bounds on times.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfreg/parse.h"
#include "perfreg/runner.h"

#ifndef PROGS_DIR
#error "PROGS_DIR must name the folder of the helper programs"
#endif

static void
add(struct pr_session *s, const char *name, const char *cmd, int shell)
{
	struct pr_error err;

	assert_int_equal(pr_session_add_variant(s, name, cmd, shell, NULL, NULL,
			     NULL, &err),
	    PR_OK);
}

static void
go(struct pr_session *s, const struct pr_runner_opts *o)
{
	struct pr_error err;

	pr_error_clear(&err);
	if (pr_session_run(s, o, &err) != PR_OK)
		fail_msg("session failed: %s", err.msg);
}

/* A session of two variants that both run `true`, default options. */
static void
session_ab(struct pr_session *s, struct pr_runner_opts *o)
{
	pr_session_init(s);
	add(s, "a", "true", 0);
	add(s, "b", "true", 0);
	pr_runner_opts_init(o);
}

/* Variant indices of the counted runs, in the order they ran. */
static size_t
order_of(const struct pr_session *s, size_t *out)
{
	size_t i, k = 0;

	for (i = 0; i < s->nruns; i++)
		if (!s->runs[i].warmup)
			out[k++] = s->runs[i].variant;
	return k;
}

static void
shuffled_session(uint64_t seed, size_t *order, size_t *n)
{
	struct pr_session s;
	struct pr_runner_opts o;
	size_t r, i, seen;

	pr_session_init(&s);
	add(&s, "a", "true", 0);
	add(&s, "b", "true", 0);
	add(&s, "c", "true", 0);
	pr_runner_opts_init(&o);
	o.runs = 8;
	o.warmup = 1;
	o.seed = seed;
	go(&s, &o);
	assert_int_equal(s.stop, PR_STOP_DONE);
	assert_int_equal(s.rounds_done, 8);
	*n = order_of(&s, order);
	assert_int_equal(*n, 24);
	/* Every round runs every variant exactly once. */
	for (r = 0; r < 8; r++) {
		seen = 0;
		for (i = 0; i < 3; i++) {
			assert_int_equal(s.runs[3 + 3 * r + i].round, r);
			seen |= (size_t)1 << order[3 * r + i];
		}
		assert_int_equal(seen, 7);
	}
	assert_true(s.overhead_s >= 0);
	assert_true(s.clock_res_s > 0);
	pr_session_release(&s);
}

static void
test_order_seed(void **state)
{
	size_t a[24], b[24], c[24], na, nb, nc, i;
	int same = 1, first = 1;

	(void)state;
	shuffled_session(42, a, &na);
	shuffled_session(42, b, &nb);
	shuffled_session(7, c, &nc);
	assert_memory_equal(a, b, sizeof(a));
	for (i = 0; i < 24; i++) {
		same &= a[i] == c[i];
		/* Not just the order the variants were given in. */
		first &= a[i] == i % 3;
	}
	assert_false(same);
	assert_false(first);
}

static void
test_warmup_not_counted(void **state)
{
	struct pr_session s;
	struct pr_runner_opts o;
	struct pr_metric *m;
	size_t i, warm = 0;

	(void)state;
	pr_session_init(&s);
	add(&s, "t", "sleep 0.05", 0);
	add(&s, "u", "true", 0);
	pr_runner_opts_init(&o);
	o.runs = 3;
	o.warmup = 2;
	go(&s, &o);
	assert_int_equal(s.nruns, 10);
	for (i = 0; i < s.nruns; i++) {
		assert_int_equal(s.runs[i].seq, i);
		assert_true(s.runs[i].ok);
		warm += s.runs[i].warmup;
		/* Warm-ups come first. */
		assert_int_equal(s.runs[i].warmup, i < 4);
	}
	assert_int_equal(warm, 4);
	for (i = 0; i < 2; i++) {
		assert_int_equal(s.v[i].runs_ok, 3);
		m = pr_dataset_find(&s.v[i].data, "wall_s");
		assert_non_null(m);
		assert_int_equal(m->values.n, 3);
		assert_string_equal(m->unit, "s");
		assert_int_equal(m->better, PR_BETTER_LOWER);
		assert_int_equal(s.v[i].data.n, PR_RUN_NBUILTIN);
	}
	m = pr_dataset_find(&s.v[0].data, "wall_s");
	for (i = 0; i < 3; i++)
		assert_true(m->values.v[i] >= 0.05);
	m = pr_dataset_find(&s.v[0].data, "maxrss_kib");
	assert_true(m->values.v[0] > 0);
	/* The program was looked up in PATH once and kept. */
	assert_non_null(s.v[1].exe);
	assert_non_null(strstr(s.v[1].exe, "/true"));
	assert_true(s.elapsed_s >= 5 * 0.05);
	pr_session_release(&s);
}

static void
test_failures(void **state)
{
	struct pr_session s;
	struct pr_runner_opts o;
	const struct pr_run *r;
	size_t i, bad = 0;

	(void)state;
	pr_session_init(&s);
	add(&s, "good", "true", 0);
	add(&s, "bad", PROGS_DIR "/prog_exit3", 0);
	add(&s, "crash", PROGS_DIR "/prog_crash", 0);
	add(&s, "missing", "perfreg-test-no-such-command", 0);
	pr_runner_opts_init(&o);
	o.runs = 3;
	o.warmup = 0;
	go(&s, &o);
	assert_int_equal(s.stop, PR_STOP_DONE);
	assert_int_equal(s.failures, 9);
	assert_int_equal(s.v[0].runs_ok, 3);
	for (i = 1; i < 4; i++) {
		assert_int_equal(s.v[i].runs_ok, 0);
		assert_int_equal(s.v[i].runs_failed, 3);
		/* Nothing of a failed run is counted. */
		assert_int_equal(s.v[i].data.n, 0);
	}
	for (i = 0; i < s.nruns; i++) {
		r = &s.runs[i];
		if (r->variant == 0) {
			assert_true(r->ok);
			assert_string_equal(r->reason, "");
			assert_null(r->output);
			assert_null(r->failed_in);
			continue;
		}
		bad++;
		assert_false(r->ok);
		assert_string_equal(r->failed_in, "command");
		if (r->variant == 1) {
			assert_int_equal(r->outcome, PR_SPAWN_EXIT);
			assert_string_equal(r->reason, "exit status 3");
			assert_string_equal(r->output,
			    "to stdout\nto stderr\n");
			/* The measurements of a failed run are kept. */
			assert_non_null(
			    pr_dataset_find(&s.runs[i].metrics, "wall_s"));
		} else if (r->variant == 2) {
			assert_int_equal(r->outcome, PR_SPAWN_SIGNAL);
			assert_non_null(strstr(r->reason, "signal 11"));
		} else {
			assert_int_equal(r->outcome, PR_SPAWN_NOEXEC);
			assert_string_equal(r->reason,
			    "cannot run "
			    "'perfreg-test-no-such-command': No such file or "
			    "directory");
		}
	}
	assert_int_equal(bad, 9);
	pr_session_release(&s);

	/* --max-failures stops the session. */
	pr_session_init(&s);
	add(&s, "good", "true", 0);
	add(&s, "bad", "false", 0);
	o.runs = 100;
	o.max_failures = 2;
	go(&s, &o);
	assert_int_equal(s.stop, PR_STOP_FAILURES);
	assert_int_equal(s.failures, 2);
	assert_true(s.nruns <= 4);
	assert_true(s.rounds_done <= 1);
	pr_session_release(&s);
}

static long
count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	long n = 0;
	int c;

	if (f == NULL)
		return -1;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static void
test_setup_prepare_cleanup(void **state)
{
	char dir[] = "/tmp/perfreg-test-runner-XXXXXX";
	char setup[256], prepare[256], cleanup[256], path[256];
	struct pr_session s;
	struct pr_runner_opts o;
	struct pr_error err;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(setup, sizeof(setup), "sh -c 'echo s >> %s/log'", dir);
	snprintf(prepare, sizeof(prepare), "sh -c 'echo p >> %s/log'", dir);
	snprintf(cleanup, sizeof(cleanup), "sh -c 'echo c >> %s/log'", dir);
	snprintf(path, sizeof(path), "%s/log", dir);
	pr_session_init(&s);
	assert_int_equal(pr_session_add_variant(&s, "a", "true", 0, setup,
			     prepare, cleanup, &err),
	    PR_OK);
	pr_runner_opts_init(&o);
	o.runs = 4;
	o.warmup = 1;
	go(&s, &o);
	/* Setup once, prepare before each of the 5 runs, cleanup once. */
	assert_int_equal(count_lines(path), 7);
	pr_session_release(&s);

	/* A failing prepare fails the run. */
	pr_session_init(&s);
	assert_int_equal(pr_session_add_variant(&s, "a", "true", 0, NULL,
			     "false", NULL, &err),
	    PR_OK);
	o.runs = 2;
	o.warmup = 0;
	go(&s, &o);
	assert_int_equal(s.failures, 2);
	for (i = 0; i < s.nruns; i++) {
		assert_string_equal(s.runs[i].reason,
		    "its prepare command failed: exit status 1");
		assert_string_equal(s.runs[i].failed_in, "prepare");
	}
	pr_session_release(&s);

	/* A failing setup stops before any run, and says why; cleanup
	 * still runs. */
	unlink(path);
	pr_session_init(&s);
	assert_int_equal(pr_session_add_variant(&s, "a", "true", 0,
			     PROGS_DIR "/prog_exit3", NULL, cleanup, &err),
	    PR_OK);
	assert_int_equal(pr_session_run(&s, &o, &err), PR_EINVAL);
	assert_non_null(strstr(err.msg,
	    "the setup command of 'a' failed: "
	    "exit status 3; its output: to stdout"));
	assert_int_equal(s.nruns, 0);
	pr_session_release(&s);
	unlink(path);
	rmdir(dir);
}

static void
test_parse(void **state)
{
	struct pr_session s;
	struct pr_runner_opts o;
	struct pr_parser *p;
	struct pr_error err;
	struct pr_metric *m;

	(void)state;
	assert_int_equal(pr_parser_new(&p, &err), PR_OK);
	assert_int_equal(pr_parser_set_format(p, "none", &err), PR_OK);
	assert_int_equal(pr_parser_add_metric(p,
			     "ops=^ops: (\\d+)$:ops/s:higher", &err),
	    PR_OK);
	assert_int_equal(pr_parser_add_derive(p, "half=ops/2", &err), PR_OK);
	assert_int_equal(pr_parser_add_derive(p, "ops_wall=ops*wall_s/wall_s",
			     &err),
	    PR_OK);
	pr_session_init(&s);
	add(&s, "a", "echo 'ops: 42'", 0);
	add(&s, "b", "echo nothing here", 0);
	pr_runner_opts_init(&o);
	o.runs = 2;
	o.warmup = 0;
	o.parser = p;
	o.parse_output = 1;
	go(&s, &o);
	m = pr_dataset_find(&s.v[0].data, "ops");
	assert_non_null(m);
	assert_int_equal(m->values.n, 2);
	assert_true(m->values.v[0] == 42);
	assert_string_equal(m->unit, "ops/s");
	assert_int_equal(m->better, PR_BETTER_HIGHER);
	m = pr_dataset_find(&s.v[0].data, "half");
	assert_non_null(m);
	assert_true(m->values.v[1] == 21);
	m = pr_dataset_find(&s.v[0].data, "ops_wall");
	assert_non_null(m);
	assert_true(m->values.v[0] > 41.99 && m->values.v[0] < 42.01);
	/* Output without the metric: the run fails, its output kept. */
	assert_int_equal(s.v[1].runs_failed, 2);
	assert_int_equal(s.v[1].runs_ok, 0);
	for (size_t i = 0; i < s.nruns; i++) {
		if (s.runs[i].variant != 1)
			continue;
		assert_non_null(
		    strstr(s.runs[i].reason, "cannot parse its output: "));
		assert_string_equal(s.runs[i].failed_in, "parse");
		assert_string_equal(s.runs[i].output, "nothing here\n");
	}
	pr_session_release(&s);
	pr_parser_free(p);
}

static void
test_paired(void **state)
{
	struct pr_session s;
	struct pr_runner_opts o;
	struct pr_paired p;
	struct pr_error err;
	size_t n;

	(void)state;
	session_ab(&s, &o);
	add(&s, "c", "false", 0);
	o.runs = 5;
	go(&s, &o);
	assert_int_equal(pr_session_paired(&s, 1, "wall_s", 0.95, s.clock_res_s,
			     &p, &n, &err),
	    PR_OK);
	assert_int_equal(n, 5);
	assert_int_equal(p.n, 5);
	assert_true(p.have_ci);
	assert_true(p.ci_lo_pct <= p.change_pct && p.change_pct <= p.ci_hi_pct);
	/* c never succeeded: no pairs. */
	assert_int_equal(pr_session_paired(&s, 2, "wall_s", 0.95, 0, &p, &n,
			     &err),
	    PR_ENOTFOUND);
	assert_int_equal(n, 0);
	assert_int_equal(pr_session_paired(&s, 0, "wall_s", 0.95, 0, &p, &n,
			     &err),
	    PR_EINVAL);
	assert_int_equal(pr_session_paired(&s, 1, "nosuch", 0.95, 0, &p, &n,
			     &err),
	    PR_ENOTFOUND);
	pr_session_release(&s);
}

static int
stop_after_two(const struct pr_session *s, void *arg)
{
	(void)arg;
	return s->rounds_done >= 2;
}

static volatile sig_atomic_t cancel_flag;

static void
cancel_after_three(const struct pr_session *s, const struct pr_run *r,
    void *arg)
{
	size_t *calls = arg;

	(void)r;
	(*calls)++;
	if (s->nruns == 3)
		cancel_flag = 1;
}

static void
test_hooks(void **state)
{
	struct pr_session s;
	struct pr_runner_opts o;
	size_t calls = 0;

	(void)state;
	session_ab(&s, &o);
	o.runs = 50;
	o.warmup = 0;
	o.should_stop = stop_after_two;
	go(&s, &o);
	assert_int_equal(s.stop, PR_STOP_HOOK);
	assert_int_equal(s.rounds_done, 2);
	assert_int_equal(s.nruns, 4);
	pr_session_release(&s);

	/* Ctrl-C: the flag stops the session after the running command. */
	session_ab(&s, &o);
	o.runs = 50;
	o.on_run = cancel_after_three;
	o.arg = &calls;
	o.spawn.cancel = &cancel_flag;
	cancel_flag = 0;
	go(&s, &o);
	assert_int_equal(s.stop, PR_STOP_INTERRUPTED);
	assert_int_equal(s.nruns, 3);
	assert_int_equal(calls, 3);
	assert_int_equal(s.failures, 0);
	pr_session_release(&s);
}

static void
test_sequential(void **state)
{
	struct pr_session s;
	struct pr_runner_opts o;
	size_t order[6], n, i;

	(void)state;
	session_ab(&s, &o);
	o.runs = 3;
	o.order = PR_ORDER_SEQUENTIAL;
	go(&s, &o);
	n = order_of(&s, order);
	assert_int_equal(n, 6);
	for (i = 0; i < 6; i++) {
		assert_int_equal(order[i], i / 3);
		assert_int_equal(s.runs[2 + i].round, i % 3);
	}
	assert_int_equal(s.rounds_done, 3);
	assert_string_equal(pr_order_str(s.opts.order), "sequential");
	pr_session_release(&s);
}

static void
test_variants(void **state)
{
	struct pr_session s;
	struct pr_runner_opts o;
	struct pr_error err;
	const char *const nv[] = { "1", "22" }, *const mv[] = { "x" };
	const struct pr_param params[] = { { "n", nv, 2 }, { "m", mv, 1 } };
	size_t choice[] = { 1, 0 };
	char *out;

	(void)state;
	pr_session_init(&s);
	add(&s, "a", "true", 0);
	assert_int_equal(pr_session_add_variant(&s, "a", "true", 0, NULL, NULL,
			     NULL, &err),
	    PR_EINVAL);
	assert_non_null(strstr(err.msg, "'a' is given twice"));
	assert_int_equal(pr_session_add_variant(&s, "b", "ls | wc", 0, NULL,
			     NULL, NULL, &err),
	    PR_EINVAL);
	assert_non_null(strstr(err.msg, "needs a shell"));
	/* With a shell the same line is fine. */
	assert_int_equal(pr_session_add_variant(&s, "b", "ls | wc", 1, NULL,
			     NULL, NULL, &err),
	    PR_OK);
	assert_int_equal(pr_session_add_variant(&s, "", "true", 0, NULL, NULL,
			     NULL, &err),
	    PR_EINVAL);
	pr_runner_opts_init(&o);
	o.runs = 0;
	assert_int_equal(pr_session_run(&s, &o, &err), PR_EINVAL);
	pr_session_release(&s);

	assert_int_equal(pr_param_expand("f {n} {m}{n} {x} {", params, 2,
			     choice, &out, &err),
	    PR_OK);
	assert_string_equal(out, "f 22 x22 {x} {");
	free(out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_seed),
		cmocka_unit_test(test_warmup_not_counted),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_setup_prepare_cleanup),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_hooks),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_variants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
