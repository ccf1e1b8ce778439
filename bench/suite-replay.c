/*
 * bench/suite-replay.c - the suite's own comparison replayed on the
 * sessions of a perfreg store (bench/README.md, "The suite's verdicts"):
 * how often real A/A sessions are called.
 *
 * The suite sessions of the store (campaign "suite", status done) are
 * grouped into series by their kind (the tag suite=, quick or full) and
 * configuration (the tag config=), in order of start.  In each series,
 * for every k of the list (-k, default 1,2,3,5,...: 1, 2, 3 and every odd
 * k above up to the number of earlier sessions) and every session that has
 * k earlier sessions in the series, the session is compared as new with
 * every k-subset of its earlier sessions as the base (-l: with the k
 * sessions just before it only), by the library's rule as `perfreg suite`
 * runs it: each session's samples grouped by process (the stored round)
 * into one value a process by its probe's rule (pr_suite_unit_values),
 * pr_suite_compare_value with the moderated t's defaults (Benjamini-
 * Hochberg), pr_suite_cmp_gate and pr_suite_cmp_pace with the paces
 * stored (tag pace=).  Not replayed: the plan's leaving starved earlier
 * sessions and those its own stability check called (the tags
 * regressions= and improvements=) out of the base (pr_suite_plan; -x
 * leaves a session out by hand), and its cap of 20 base sessions.  It prints, per k, the comparisons, how many called any
 * regression or improvement and their share, then the figures called
 * (how many times, in which new sessions, the range of the change).
 *
 * -x ID leaves session ID out of the replay (a session slowed on purpose:
 * neither a base nor a new session) and reports, afterwards, its own
 * calls as the new session against every k-subset of the earlier sessions
 * kept (the same table).  -V mean|median|both|carried: the session value
 * and rule (perfreg/suite.h, pr_suite_session_value and
 * pr_suite_compare_value: the mean, the median, the mean's calls that the
 * median's comparison makes too, the mean's calls that the new session's
 * processes carry; default the suite's, carried).  -f FIGURE prints, for each
 * session of the series, the process values of FIGURE and the session's
 * value and standard error by -V.  -C CONFIG replays only that
 * configuration.  -T, -H: the moderated t's candidates opts.trend and
 * opts.weighted (perfreg/moderated.h); -D DF, -Q D0: its caps on the
 * test's and the prior's df (a number or inf).  Deterministic; no timing.
 *
 * usage: suite-replay [-k LIST] [-l] [-x ID]... [-V mean|median|both|carried]
 *        [-f FIGURE] [-C CONFIG] [-T] [-H] [-D DF] [-Q D0] DB
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/moderated.h"
#include "perfreg/probe.h"
#include "perfreg/store.h"
#include "perfreg/suite.h"

#define MAXS 64  /* sessions a series */
#define MAXX 16  /* -x */
#define MAXKL 32 /* -k entries */

struct sess {
	int64_t id;
	char kind[16], config[PR_SUITE_CONFIG_LEN];
	double pace;
	struct pr_dataset d; /* one value a process and figure */
};

/* One figure's calls at one k. */
struct called {
	char *name;
	size_t reg, imp;
	uint64_t in; /* bit i: the new session of index i in the series */
	double lo, hi;
};

struct tally {
	size_t k, comps, any;
	struct called *c;
	size_t nc;
};

static int opt_latest;
/* -T, -H, -D DF, -Q D0: the moderated t's candidates and caps. */
static struct pr_moderated_opts opt_mo;
static enum pr_suite_value opt_value = PR_SUITE_VALUE_SESSIONS;
static const char *const value_name[] = { "mean", "median", "both", "carried" };

/* Runs grouped by round (the process). */
struct collect {
	struct pr_dataset *unit;
	size_t *round, n, cap;
};

static int
collect_run(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct collect *c = arg;
	struct pr_dataset *d = NULL;
	size_t i;

	if (!r->ok || r->warmup)
		return 0;
	for (i = 0; i < c->n; i++)
		if (c->round[i] == r->round)
			d = &c->unit[i];
	if (d == NULL) {
		if (c->n == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 16;

			c->unit = realloc(c->unit, cap * sizeof(*c->unit));
			c->round = realloc(c->round, cap * sizeof(*c->round));
			if (c->unit == NULL || c->round == NULL) {
				pr_error_set(err, PR_ENOMEM, "out of memory");
				return 1;
			}
			c->cap = cap;
		}
		c->round[c->n] = r->round;
		d = &c->unit[c->n++];
		pr_dataset_init(d);
	}
	for (i = 0; i < r->nm; i++)
		if (strncmp(r->metric_names[i], "mon.", 4) != 0 &&
		    pr_dataset_add(d, r->metric_names[i], r->metric_units[i],
			r->metric_better[i], r->metric_values[i], err) != PR_OK)
			return 1;
	return 0;
}

static size_t
nprobes(void)
{
	size_t n = 0;

	while (pr_probes[n] != NULL)
		n++;
	return n;
}

static const struct pr_str *
tag(const struct pr_store_session_info *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->ntags; i++)
		if (s->tags[i].key.n == strlen(key) &&
		    memcmp(s->tags[i].key.p, key, s->tags[i].key.n) == 0)
			return &s->tags[i].value;
	return NULL;
}

static int
load_session(struct pr_store *st, const struct pr_store_session_info *si,
    struct sess *s)
{
	struct collect c;
	struct pr_error err;
	const struct pr_str *t;
	size_t i;
	char buf[32];

	memset(s, 0, sizeof(*s));
	s->id = si->id;
	if ((t = tag(si, "suite")) != NULL && t->n < sizeof(s->kind))
		memcpy(s->kind, t->p, t->n);
	if ((t = tag(si, "config")) != NULL && t->n < sizeof(s->config))
		memcpy(s->config, t->p, t->n);
	if ((t = tag(si, "pace")) != NULL && t->n < sizeof(buf)) {
		memcpy(buf, t->p, t->n);
		buf[t->n] = '\0';
		s->pace = strtod(buf, NULL);
	}
	pr_dataset_init(&s->d);
	memset(&c, 0, sizeof(c));
	pr_error_clear(&err);
	if (pr_store_each_run(st, si->id, collect_run, &c, &err) != PR_OK ||
	    pr_suite_unit_values(c.unit, c.n, pr_probes, nprobes(), &s->d,
		&err) != PR_OK) {
		fprintf(stderr, "suite-replay: session %lld: %s\n",
		    (long long)si->id, err.msg);
		return -1;
	}
	for (i = 0; i < c.n; i++)
		pr_dataset_release(&c.unit[i]);
	free(c.unit);
	free(c.round);
	return 0;
}

static int
compare_one(struct sess *const *base, size_t nb, struct sess *nw,
    struct pr_suite_cmp *sc, struct pr_suite_figure **figp, size_t *nfp)
{
	struct pr_dataset bd[MAXS];
	struct pr_suite_figure *fig;
	struct pr_error err;
	double bpace[MAXS];
	size_t i;

	for (i = 0; i < nb; i++) {
		bd[i] = base[i]->d;
		bpace[i] = base[i]->pace;
	}
	if ((fig = calloc(nw->d.n + 1, sizeof(*fig))) == NULL)
		return -1;
	for (i = 0; i < nw->d.n; i++) {
		fig[i].name = nw->d.metrics[i].name;
		fig[i].unit = nw->d.metrics[i].unit;
		fig[i].better = nw->d.metrics[i].better;
	}
	pr_error_clear(&err);
	if (pr_suite_compare_value(bd, nb, &nw->d, 1, fig, nw->d.n, &opt_mo,
		opt_value, sc, &err) != PR_OK ||
	    pr_suite_cmp_gate(sc, fig, &err) != PR_OK) {
		fprintf(stderr, "suite-replay: session %lld: %s\n",
		    (long long)nw->id, err.msg);
		free(fig);
		return -1;
	}
	pr_suite_cmp_pace(sc, nw->pace, bpace, nb);
	*figp = fig;
	*nfp = nw->d.n;
	return 0;
}

static int
tally_add(struct tally *t, struct sess *const *base, size_t nb, struct sess *nw,
    size_t inew)
{
	struct pr_suite_figure *fig;
	struct pr_suite_cmp sc;
	size_t i, j, nf;
	int any = 0;

	if (compare_one(base, nb, nw, &sc, &fig, &nf) != 0)
		return -1;
	for (i = 0; i < sc.n; i++) {
		const struct pr_comparison *x = &sc.cmp[i];
		const char *name = fig[sc.index[i]].name;

		if (!pr_suite_changed(&sc, i))
			continue;
		any = 1;
		for (j = 0; j < t->nc; j++)
			if (strcmp(t->c[j].name, name) == 0)
				break;
		if (j == t->nc) {
			struct called *g =
			    realloc(t->c, (t->nc + 1) * sizeof(*g));

			if (g == NULL)
				return -1;
			t->c = g;
			memset(&t->c[j], 0, sizeof(t->c[j]));
			t->c[j].name = strdup(name);
			t->c[j].lo = INFINITY;
			t->c[j].hi = -INFINITY;
			t->nc++;
		}
		if (x->verdict == PR_VERDICT_REGRESSION)
			t->c[j].reg++;
		else
			t->c[j].imp++;
		t->c[j].in |= (uint64_t)1 << (inew < 63 ? inew : 63);
		if (x->change_pct < t->c[j].lo)
			t->c[j].lo = x->change_pct;
		if (x->change_pct > t->c[j].hi)
			t->c[j].hi = x->change_pct;
	}
	t->comps++;
	t->any += any;
	pr_suite_cmp_release(&sc);
	free(fig);
	return 0;
}

/* Next k-subset of [0, n) in lexicographic order; 0 after the last. */
static int
next_subset(size_t *ix, size_t k, size_t n)
{
	size_t i = k;

	while (i > 0 && ix[i - 1] == n - k + i - 1)
		i--;
	if (i == 0)
		return 0;
	ix[i - 1]++;
	for (; i < k; i++)
		ix[i] = ix[i - 1] + 1;
	return 1;
}

/* Session nw (index inew in the series) as new against the earlier
 * sessions er[0..ne) (each k-subset, or the k latest). */
static int
replay_new(struct tally *t, struct sess *const *er, size_t ne, struct sess *nw,
    size_t inew)
{
	struct sess *base[MAXS];
	size_t ix[MAXS], i, k = t->k;

	if (k > ne || k == 0)
		return 0;
	if (opt_latest)
		return tally_add(t, er + ne - k, k, nw, inew);
	for (i = 0; i < k; i++)
		ix[i] = i;
	do {
		for (i = 0; i < k; i++)
			base[i] = er[ix[i]];
		if (tally_add(t, base, k, nw, inew) != 0)
			return -1;
	} while (next_subset(ix, k, ne));
	return 0;
}

static void
print_tally(struct tally *t, size_t nt, struct sess *const *ser, size_t ns)
{
	size_t i, j, h;

	printf("   k  comparisons  called  share\n");
	for (i = 0; i < nt; i++)
		if (t[i].comps > 0)
			printf("%4zu  %11zu  %6zu  %5.2f%%\n", t[i].k,
			    t[i].comps, t[i].any,
			    100.0 * (double)t[i].any / (double)t[i].comps);
	for (i = 0; i < nt; i++) {
		if (t[i].nc == 0)
			continue;
		printf("  figures called at k = %zu:\n", t[i].k);
		for (j = 0; j < t[i].nc; j++) {
			struct called *c = &t[i].c[j];
			int first = 1;

			printf("    %-34s %3zu R %3zu I  %+.1f%%..%+.1f%%  "
			       "new:",
			    c->name, c->reg, c->imp, c->lo, c->hi);
			for (h = 0; h < ns && h < 64; h++)
				if (c->in & ((uint64_t)1 << h)) {
					printf("%s%lld", first ? " " : ",",
					    (long long)ser[h]->id);
					first = 0;
				}
			printf("\n");
		}
	}
}

static void
tally_free(struct tally *t, size_t nt)
{
	size_t i, j;

	for (i = 0; i < nt; i++) {
		for (j = 0; j < t[i].nc; j++)
			free(t[i].c[j].name);
		free(t[i].c);
		t[i].c = NULL;
		t[i].nc = t[i].comps = t[i].any = 0;
	}
}

static void
print_figure(struct sess *const *ser, size_t ns, const char *name)
{
	struct pr_error err;
	double v, se;
	size_t h, i;

	printf("  %s, each session's process values; its value and the "
	       "standard error of its log (-V %s):\n",
	    name, value_name[opt_value]);
	for (h = 0; h < ns; h++) {
		const struct pr_metric *m = pr_dataset_find(&ser[h]->d, name);

		if (m == NULL)
			continue;
		printf("    session %3lld:", (long long)ser[h]->id);
		for (i = 0; i < m->values.n; i++)
			printf(" %.4g", m->values.v[i]);
		pr_error_clear(&err);
		if (pr_suite_session_value(m->values.v, m->values.n, opt_value,
			&v, &se, &err) == PR_OK)
			printf("  -> %.4g, se %.3f\n", v, se);
		else
			printf("  -> %s\n", err.msg);
	}
}

static int
parse_klist(const char *s, size_t *k, size_t *nk)
{
	char *e;
	unsigned long v;

	*nk = 0;
	while (*s != '\0') {
		errno = 0;
		v = strtoul(s, &e, 10);
		if (e == s || errno != 0 || v == 0 || v >= MAXS ||
		    *nk == MAXKL || (*e != ',' && *e != '\0'))
			return -1;
		k[(*nk)++] = v;
		s = *e == ',' ? e + 1 : e;
	}
	return *nk > 0 ? 0 : -1;
}

int
main(int argc, char **argv)
{
	struct pr_store_session_info *si = NULL;
	struct pr_store *st = NULL;
	struct pr_error err;
	struct sess *all;
	struct tally t[MAXKL];
	size_t kl[MAXKL], nkl = 0, n = 0, i, j, h, nx = 0, done = 0;
	int64_t xid[MAXX];
	const char *fig = NULL, *want = NULL;
	char *e;
	int opt, rc = 0;

	pr_moderated_opts_init(&opt_mo);
	while ((opt = getopt(argc, argv, "k:lx:V:f:C:THD:Q:")) != -1) {
		switch (opt) {
		case 'T':
			opt_mo.trend = 1;
			break;
		case 'H':
			opt_mo.weighted = 1;
			break;
		case 'D':
		case 'Q':
			errno = 0;
			{
				double v = strtod(optarg, &e);

				if (errno != 0 || e == optarg || *e != '\0' ||
				    !(v > 0)) {
					fprintf(stderr,
					    "suite-replay: -%c: a number > 0 "
					    "or inf\n",
					    opt);
					return 2;
				}
				if (opt == 'D')
					opt_mo.df_max = v;
				else
					opt_mo.df_prior_max = v;
			}
			break;
		case 'k':
			if (parse_klist(optarg, kl, &nkl) != 0) {
				fprintf(stderr,
				    "suite-replay: -k: a list of "
				    "numbers 1 to %d, '1,2,3'\n",
				    MAXS - 1);
				return 2;
			}
			break;
		case 'l':
			opt_latest = 1;
			break;
		case 'x':
			errno = 0;
			if (nx == MAXX ||
			    (xid[nx++] = strtoll(optarg, &e, 10), errno != 0) ||
			    e == optarg || *e != '\0') {
				fprintf(stderr,
				    "suite-replay: -x: a session id\n");
				return 2;
			}
			break;
		case 'V':
			if (strcmp(optarg, "mean") == 0)
				opt_value = PR_SUITE_VALUE_MEAN;
			else if (strcmp(optarg, "median") == 0)
				opt_value = PR_SUITE_VALUE_MEDIAN;
			else if (strcmp(optarg, "both") == 0)
				opt_value = PR_SUITE_VALUE_BOTH;
			else if (strcmp(optarg, "carried") == 0)
				opt_value = PR_SUITE_VALUE_CARRIED;
			else {
				fprintf(stderr,
				    "suite-replay: -V: mean, median, both or "
				    "carried\n");
				return 2;
			}
			break;
		case 'f':
			fig = optarg;
			break;
		case 'C':
			want = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1) {
usage:
		fprintf(stderr,
		    "usage: suite-replay [-k LIST] [-l] [-x ID]... "
		    "[-V mean|median|both|carried] [-f FIGURE] [-C CONFIG] "
		    "[-T] [-H] [-D DF] [-Q D0] DB\n");
		return 2;
	}
	pr_error_clear(&err);
	if (pr_store_open(argv[optind], PR_STORE_READ, &st, &err) != PR_OK ||
	    pr_store_sessions(st, pr_str_c("suite"), &si, &n, &err) != PR_OK) {
		fprintf(stderr, "suite-replay: %s: %s\n", argv[optind],
		    err.msg);
		pr_store_close(st);
		return 2;
	}
	if ((all = calloc(n + 1, sizeof(*all))) == NULL)
		return 2;
	for (i = 0; i < n; i++) {
		if (strcmp(si[i].status, "done") != 0)
			continue;
		if (load_session(st, &si[i], &all[done]) != 0) {
			rc = 2;
			goto out;
		}
		done++;
	}
	printf("suite-replay %s: %zu finished suite sessions; session value "
	       "%s; base %s\n",
	    argv[optind], done, value_name[opt_value],
	    opt_latest ? "the k sessions just before"
		       : "every k-subset of "
			 "the earlier sessions");
	for (i = 0; i < done; i++) {
		struct sess *ser[MAXS], *kept[MAXS], *er[MAXS];
		size_t ns = 0, nk = 0, nt, kmax, ne, x;
		int first = 1, isx;

		/* Series i: the first session of its kind and config. */
		for (j = 0; j < i; j++)
			if (strcmp(all[j].kind, all[i].kind) == 0 &&
			    strcmp(all[j].config, all[i].config) == 0)
				break;
		if (j < i || (want != NULL && strcmp(want, all[i].config) != 0))
			continue;
		for (j = i; j < done && ns < MAXS; j++)
			if (strcmp(all[j].kind, all[i].kind) == 0 &&
			    strcmp(all[j].config, all[i].config) == 0)
				ser[ns++] = &all[j];
		printf("\nseries %s %s: %zu sessions, %lld to %lld",
		    all[i].kind, all[i].config, ns, (long long)ser[0]->id,
		    (long long)ser[ns - 1]->id);
		for (h = 0; h < ns; h++) {
			for (x = 0; x < nx && xid[x] != ser[h]->id; x++)
				;
			if (x < nx) {
				printf("%s%lld", first ? "; left out: " : ", ",
				    (long long)ser[h]->id);
				first = 0;
			} else {
				kept[nk++] = ser[h];
			}
		}
		printf("\n");
		if (fig != NULL)
			print_figure(ser, ns, fig);
		if (nk < 2)
			continue;
		/* The k of the list, or 1, 2, 3 and the odd ones above. */
		if (nkl > 0) {
			for (nt = 0; nt < nkl; nt++)
				t[nt].k = kl[nt];
		} else {
			kmax = nk - 1;
			for (nt = 0; nt < MAXKL; nt++) {
				t[nt].k = nt < 3 ? nt + 1 : 2 * nt - 1;
				if (t[nt].k > kmax)
					break;
			}
		}
		for (j = 0; j < nt; j++) {
			t[j].comps = t[j].any = t[j].nc = 0;
			t[j].c = NULL;
		}
		for (h = 1; h < nk; h++) {
			size_t inew;

			for (inew = 0; ser[inew] != kept[h]; inew++)
				;
			for (j = 0; j < nt; j++)
				if (replay_new(&t[j], kept, h, kept[h], inew) !=
				    0) {
					rc = 2;
					goto out;
				}
		}
		printf("  A/A, the kept sessions each as new against its "
		       "earlier kept ones:\n");
		print_tally(t, nt, ser, ns);
		tally_free(t, nt);
		/* Each session left out, as new against the kept ones
		 * before it. */
		for (h = 0; h < ns; h++) {
			for (x = 0; x < nx && xid[x] != ser[h]->id; x++)
				;
			if (x == nx)
				continue;
			for (ne = 0; ne < nk && kept[ne]->id < ser[h]->id; ne++)
				er[ne] = kept[ne];
			if (ne == 0)
				continue;
			isx = 0;
			for (j = 0; j < nt; j++)
				if (t[j].k <= ne) {
					if (replay_new(&t[j], er, ne, ser[h],
						h) != 0) {
						rc = 2;
						goto out;
					}
					isx = 1;
				}
			if (isx) {
				printf("  session %lld (left out) as new "
				       "against the kept sessions before it:\n",
				    (long long)ser[h]->id);
				print_tally(t, nt, ser, ns);
			}
			tally_free(t, nt);
		}
	}
out:
	for (i = 0; i < done; i++)
		pr_dataset_release(&all[i].d);
	free(all);
	pr_store_sessions_free(si, n);
	pr_store_close(st);
	return rc;
}
