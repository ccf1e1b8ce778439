/*
 * tests/probes/test_probes_b.c - the crypto, pipe-digest, handoff and tcp
 * probes run through their tables as the suite runs them (quick): each
 * reports the same metrics, with units and directions, in two samples,
 * with finite positive values; a selected variant drops the variant part
 * of the names and two variants report the same names; unknown variants
 * and parameters are PR_ENOTFOUND; a raised cancel flag stops a sample;
 * a pinned probe restores the affinity in fini.  Correctness without
 * timing: crypto's timed path gives the published answers (NIST GCM test
 * case 2, SHA-256("abc") of FIPS 180-2), which init writes to its notes;
 * pipe-digest's samples succeed only if the digest of the bytes through
 * the pipe equals the one in its notes, checked here against a one-shot
 * EVP digest of as many zeros; tcp's samples succeed only if every stream
 * received exactly the bytes sent (two samples in a row on the same
 * connections, so that a byte too many or too few in the first fails the
 * second).  No timing thresholds.
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "perfreg/probe.h"

struct expect {
	const struct pr_probe *p;
	size_t metrics, per_variant;     /* in a full run, in a variant */
	const char *var_a, *var_b;       /* two variants */
	const char *suffix[3], *unit[3]; /* metric name end -> unit */
};

static const struct expect *
expect_of(const struct pr_probe *p)
{
	static const struct expect e[] = {
		{ &pr_probe_crypto, 24, 6, "aes-128-gcm", "sha256",
		    { "B", NULL, NULL }, { "MB/s", NULL, NULL } },
		{ &pr_probe_pipe_digest, 6, 3, "md5", "sha256",
		    { ".wall", ".cpu", ".throughput" }, { "s", "s", "MB/s" } },
		{ &pr_probe_handoff, 10, 2, "condvar", "spin",
		    { ".p50", ".p99", NULL }, { "ns", "ns", NULL } },
		{ &pr_probe_tcp, 2, 1, "1stream", "2streams",
		    { "throughput", NULL, NULL }, { "MB/s", NULL, NULL } },
	};
	size_t i;

	for (i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		if (e[i].p == p)
			return &e[i];
	fail_msg("no expectations for probe %s", p->name);
	return NULL;
}

/* Runs p (quick) for n samples into d; its notes go to notes. */
static void
run(const struct pr_probe *p, const char *variant, int n, struct pr_dataset *d,
    struct pr_buf *notes)
{
	struct pr_probe_opts o = { 1, -1, variant, NULL, NULL, NULL };
	struct pr_error err;
	void *state = NULL;
	char msg[600];
	int i;

	pr_dataset_init(d);
	if (p->init(&o, &state, notes, &err) != PR_OK)
		fail_msg("%s", pr_error_format(&err, msg, sizeof(msg)));
	for (i = 0; i < n; i++)
		if (p->sample(state, d, &err) != PR_OK)
			fail_msg("%s", pr_error_format(&err, msg, sizeof(msg)));
	p->fini(state);
}

static const char *
unit_of(const struct expect *e, const char *name)
{
	size_t i, n = strlen(name), k;

	for (i = 0; i < 3 && e->suffix[i] != NULL; i++) {
		k = strlen(e->suffix[i]);
		if (n >= k && strcmp(name + n - k, e->suffix[i]) == 0)
			return e->unit[i];
	}
	fail_msg("unexpected metric %s", name);
	return NULL;
}

static void
check_metrics(const struct expect *e, struct pr_dataset *d, size_t n)
{
	struct pr_metric *m;
	size_t i, j;
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "%s.", e->p->name);
	for (i = 0; i < d->n; i++) {
		m = &d->metrics[i];
		assert_int_equal(strncmp(m->name, prefix, strlen(prefix)), 0);
		assert_string_equal(m->unit, unit_of(e, m->name));
		assert_int_equal(m->better,
		    strcmp(m->unit, "MB/s") == 0 ? PR_BETTER_HIGHER
						 : PR_BETTER_LOWER);
		assert_int_equal(m->values.n, n);
		for (j = 0; j < n; j++) {
			assert_true(isfinite(m->values.v[j]));
			assert_true(m->values.v[j] > 0);
		}
	}
}

/*
 * The notes of a full run: crypto's known answers through its timed path,
 * pipe-digest's digests of the zeros each sample must match, checked
 * against a one-shot EVP digest here.
 */
static void
check_notes(const struct pr_probe *p, const char *notes)
{
	static const char *const md[] = { "md5", "sha256" };
	unsigned char *zeros, dg[EVP_MAX_MD_SIZE];
	unsigned int n, i, j, k;
	char line[200];

	if (p == &pr_probe_crypto) {
		/* NIST GCM test case 2: key, IV and plaintext all zero. */
		assert_non_null(strstr(notes,
		    "aes-128-gcm 0388dace60b6a392f328c2b971b2fe78"
		    "ab6e47d42cec13bdf53a67b21257bddf"));
		/* FIPS 180-2, appendix B.1. */
		assert_non_null(strstr(notes,
		    "sha256 ba7816bf8f01cfea414140de"
		    "5dae2223b00361a396177a9cb410ff61f20015ad"));
	}
	if (p != &pr_probe_pipe_digest)
		return;
	assert_non_null(zeros = calloc(1, 32 << 20));
	for (k = 0; k < 2; k++) {
		assert_true(EVP_Digest(zeros, 32 << 20, dg, &n,
		    k == 0 ? EVP_md5() : EVP_sha256(), NULL));
		i = (unsigned)snprintf(line, sizeof(line),
		    "%s of the 33554432 "
		    "zero bytes each sample must give: ",
		    md[k]);
		for (j = 0; j < n; j++)
			snprintf(line + i + 2 * j, 3, "%02x", dg[j]);
		assert_non_null(strstr(notes, line));
	}
	free(zeros);
}

static void
test_full(void **state)
{
	const struct expect *e = expect_of(*state);
	struct pr_buf notes = PR_BUF_INIT(1 << 16);
	struct pr_dataset d;

	run(e->p, NULL, 2, &d, &notes);
	assert_int_equal(d.n, e->metrics);
	check_metrics(e, &d, 2);
	check_notes(e->p, notes.data != NULL ? notes.data : "");
	pr_dataset_release(&d);
	pr_buf_release(&notes);
}

static void
test_variants(void **state)
{
	const struct expect *e = expect_of(*state);
	struct pr_dataset a, b;
	size_t i;

	run(e->p, e->var_a, 1, &a, NULL);
	run(e->p, e->var_b, 1, &b, NULL);
	assert_int_equal(a.n, b.n);
	assert_int_equal(a.n, e->per_variant);
	check_metrics(e, &a, 1);
	check_metrics(e, &b, 1);
	for (i = 0; i < a.n; i++) {
		assert_string_equal(a.metrics[i].name, b.metrics[i].name);
		assert_null(strstr(a.metrics[i].name, e->var_a));
		assert_null(strstr(b.metrics[i].name, e->var_b));
	}
	pr_dataset_release(&a);
	pr_dataset_release(&b);
}

static void
test_unknown(void **state)
{
	const struct pr_probe *p = *state;
	struct pr_probe_opts o = { 1, -1, "no-such-variant", NULL, NULL, NULL };
	struct pr_error err;
	void *st = &err;

	assert_int_equal(p->init(&o, &st, NULL, &err), PR_ENOTFOUND);
	assert_null(st);
	assert_non_null(strstr(err.msg, "no-such-variant"));
	o.variant = NULL;
	o.param = "17B";
	assert_int_equal(p->init(&o, &st, NULL, &err), PR_ENOTFOUND);
	assert_non_null(strstr(err.msg, "17B"));
	p->fini(NULL);
}

static void
test_cancel(void **state)
{
	const struct expect *e = expect_of(*state);
	const struct pr_probe *p = e->p;
	volatile sig_atomic_t cancel = 0;
	struct pr_probe_opts o = { 1, -1, e->var_a, NULL, &cancel, NULL };
	struct pr_dataset d;
	struct pr_error err;
	void *st;

	assert_int_equal(p->init(&o, &st, NULL, &err), PR_OK);
	cancel = 1;
	pr_dataset_init(&d);
	assert_int_equal(p->sample(st, &d, &err), PR_EINVAL);
	assert_string_equal(err.msg, "interrupted");
	p->fini(st);
	pr_dataset_release(&d);
}

/* Selecting one block size drops it from the names; the pin is undone. */
static void
test_crypto_param_and_pin(void **state)
{
	struct pr_probe_opts o = { 1, 0, "sha256", "64B", NULL, NULL };
	struct pr_dataset d;
	struct pr_error err;
	cpu_set_t before, during, after;
	void *st;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
	assert_int_equal(pr_probe_crypto.init(&o, &st, NULL, &err), PR_OK);
	assert_int_equal(sched_getaffinity(0, sizeof(during), &during), 0);
	assert_int_equal(CPU_COUNT(&during), 1);
	assert_true(CPU_ISSET(0, &during));
	pr_dataset_init(&d);
	assert_int_equal(pr_probe_crypto.sample(st, &d, &err), PR_OK);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.metrics[0].name, "crypto");
	pr_probe_crypto.fini(st);
	assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
	assert_true(CPU_EQUAL(&before, &after));
	pr_dataset_release(&d);
}

#define T(fn, probe) \
	{ \
#fn " " #probe, fn, NULL, NULL, (void *)&pr_probe_##probe \
	}
#define ALL(fn) T(fn, crypto), T(fn, pipe_digest), T(fn, handoff), T(fn, tcp)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		ALL(test_full),
		ALL(test_variants),
		ALL(test_unknown),
		ALL(test_cancel),
		cmocka_unit_test(test_crypto_param_and_pin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
