/*
 * stats/primary.c - primary and side metrics, metrics not tested, and
 * the correction of each family (perfreg/primary.h has the rules).
 *
 * The roles are chosen from one side's dataset only, so that both sides
 * of a comparison get the same family whatever the other holds.  The
 * corrections reuse the adjustments of stats/verdict.c (pr_holm, pr_bh,
 * pr_compare_holm, checked there against R's p.adjust); this file only
 * decides which comparison goes into which family.
 */
#include <stdlib.h>
#include <string.h>

#include "perfreg/primary.h"
#include "core/banned.h"

const char *
pr_role_str(enum pr_role r)
{
	switch (r) {
	case PR_ROLE_PRIMARY:
		return "primary";
	case PR_ROLE_SIDE:
		return "side";
	case PR_ROLE_NOT_TESTED:
		return "not tested";
	}
	return "?";
}

/* Sets every metric of d with values that pass keep() primary. */
static size_t
mark(const struct pr_dataset *d, enum pr_role *role,
    int (*keep)(const struct pr_metric *))
{
	size_t i, k = 0;

	for (i = 0; i < d->n; i++)
		if (d->metrics[i].values.n > 0 && keep(&d->metrics[i])) {
			role[i] = PR_ROLE_PRIMARY;
			k++;
		}
	return k;
}

/* A result whose direction is assumed is never a headline: a side
 * metric unless the user names it. */
static int
is_result(const struct pr_metric *m)
{
	return (m->flags & PR_METRIC_RESULT) != 0 &&
	    m->better != PR_BETTER_UNKNOWN;
}

static int
is_wall(const struct pr_metric *m)
{
	return strcmp(m->name, "wall_s") == 0;
}

/* time's and perf stat's elapsed: the wall time of the command as the
 * tool saw it, the quantity wall_s measures too. */
static int
is_tool_wall(const struct pr_metric *m)
{
	return strcmp(m->name, "elapsed") == 0 && strcmp(m->unit, "s") == 0;
}

/* A result, unless it is the tool's wall time and perfreg measured the
 * run's own (wall_s, to the nanosecond; time gives 0.01 s). */
static int
is_result_beside_wall(const struct pr_metric *m)
{
	return is_result(m) && !is_tool_wall(m);
}

static int
is_directed(const struct pr_metric *m)
{
	return m->better != PR_BETTER_UNKNOWN;
}

static int
is_any(const struct pr_metric *m)
{
	(void)m;
	return 1;
}

enum pr_status
pr_primary_roles(const struct pr_dataset *d, const char *const *names, size_t n,
    enum pr_role *role, struct pr_error *err)
{
	size_t i, j;

	for (j = 0; j < n; j++) {
		for (i = 0; i < d->n; i++)
			if (strcmp(d->metrics[i].name, names[j]) == 0)
				break;
		if (i == d->n)
			return pr_error_set(err, PR_ENOTFOUND,
			    "--primary: no metric '%s'", names[j]);
	}
	for (i = 0; i < d->n; i++)
		role[i] = PR_ROLE_SIDE;
	if (n > 0) {
		for (i = 0; i < d->n; i++)
			for (j = 0; j < n; j++)
				if (strcmp(d->metrics[i].name, names[j]) == 0 &&
				    d->metrics[i].values.n > 0)
					role[i] = PR_ROLE_PRIMARY;
		return PR_OK;
	}
	for (i = 0; i < d->n &&
	     !(is_wall(&d->metrics[i]) && d->metrics[i].values.n > 0);
	     i++)
		;
	if (mark(d, role, i < d->n ? is_result_beside_wall : is_result) == 0 &&
	    mark(d, role, is_wall) == 0 && mark(d, role, is_directed) == 0)
		mark(d, role, is_any);
	return PR_OK;
}

enum pr_status
pr_primary_roles_stored(const struct pr_dataset *d, const char *const *names,
    size_t n, const char *const *stored, size_t nstored, enum pr_role *role,
    struct pr_error *err)
{
	size_t i, j, k = 0;

	if (n > 0 || nstored == 0)
		return pr_primary_roles(d, names, n, role, err);
	for (i = 0; i < d->n; i++) {
		role[i] = PR_ROLE_SIDE;
		for (j = 0; j < nstored && d->metrics[i].values.n > 0; j++)
			if (strcmp(d->metrics[i].name, stored[j]) == 0) {
				role[i] = PR_ROLE_PRIMARY;
				k++;
				break;
			}
	}
	return k > 0 ? PR_OK : pr_primary_roles(d, NULL, 0, role, err);
}

int
pr_primary_constant(const struct pr_summary *a, const struct pr_summary *b)
{
	return a->n > 0 && b->n > 0 && a->min == a->max && b->min == b->max &&
	    a->min == b->min;
}

/* Bonferroni over the tested members of one family, when there is no
 * memory for the step-down methods. */
static void
bonferroni(struct pr_comparison *c, const enum pr_role *role, size_t n,
    enum pr_role which, size_t m)
{
	size_t i;
	double v;

	for (i = 0; i < n; i++) {
		if (role[i] != which || !c[i].tested)
			continue;
		v = (double)m * c[i].p_value;
		c[i].p_adjusted = v < 1 ? v : 1;
		c[i].holm_m = (int)m;
		pr_verdict_decide(&c[i]);
	}
}

void
pr_primary_correct(struct pr_comparison *c, const enum pr_role *role, size_t n,
    const struct pr_verdict_opts *o, size_t *primary_m, size_t *side_m)
{
	struct pr_comparison *tmp = NULL;
	double *p = NULL;
	size_t i, k, mp = 0, ms = 0;

	for (i = 0; i < n; i++) {
		if (!c[i].tested)
			continue;
		mp += role[i] == PR_ROLE_PRIMARY;
		ms += role[i] == PR_ROLE_SIDE;
	}
	if (primary_m != NULL)
		*primary_m = mp;
	if (side_m != NULL)
		*side_m = ms;
	/* Holm over the primaries, through pr_compare_holm on a copy. */
	if (mp > 0 && (tmp = malloc(mp * sizeof(*tmp))) != NULL) {
		for (i = 0, k = 0; i < n; i++)
			if (c[i].tested && role[i] == PR_ROLE_PRIMARY)
				tmp[k++] = c[i];
		pr_compare_holm(tmp, mp, o);
		for (i = 0, k = 0; i < n; i++)
			if (c[i].tested && role[i] == PR_ROLE_PRIMARY)
				c[i] = tmp[k++];
		free(tmp);
	} else if (mp > 0) {
		bonferroni(c, role, n, PR_ROLE_PRIMARY, mp);
	}
	if (ms == 0)
		return;
	/* Benjamini-Hochberg over the side metrics. */
	/* Zeroed, so that no reader (nor clang-tidy) sees an unset value:
	 * pr_bh writes p[ms .. 2 ms). */
	if ((p = calloc(2 * ms, sizeof(*p))) == NULL) {
		bonferroni(c, role, n, PR_ROLE_SIDE, ms);
		return;
	}
	for (i = 0, k = 0; i < n; i++)
		if (c[i].tested && role[i] == PR_ROLE_SIDE)
			p[k++] = c[i].p_value;
	pr_bh(p, ms, p + ms);
	for (i = 0, k = 0; i < n; i++) {
		if (!c[i].tested || role[i] != PR_ROLE_SIDE)
			continue;
		c[i].p_adjusted = p[ms + k++];
		c[i].holm_m = (int)ms;
		c[i].notes &= ~(unsigned)PR_NOTE_HOLM;
		if (ms > 1)
			c[i].notes |= PR_NOTE_BH;
		/* The advice on runs is the primaries': a side metric never
		 * asks for more runs. */
		c[i].runs_needed = 0;
		pr_verdict_decide(&c[i]);
	}
	free(p);
}
