/*
 * cli/cli_primary.c - the families of a comparison as the commands
 * report them: primary metrics first (the verdict table and headline
 * sentences, Holm), then the side metrics (their own table, Benjamini-
 * Hochberg), then the metrics not tested, said once.  The rules are the
 * library's (perfreg/primary.h); this file only arranges the rows of a
 * struct pr_report (perfreg/report.h) for them.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "perfreg/primary.h"
#include "core/banned.h"

void
cli_families_release(struct cli_families *fam)
{
	if (fam == NULL)
		return;
	free(fam->nt_name);
	free(fam->nt_value);
	memset(fam, 0, sizeof(*fam));
}

int
cli_families_apply(struct pr_report *r, struct pr_report_metric *rm, size_t n,
    enum pr_role *role, const struct pr_verdict_opts *vo,
    struct cli_families *fam)
{
	struct pr_report_metric *tmp;
	struct pr_comparison *c;
	size_t i, k, pm = 0, sm = 0;
	enum pr_role want;

	memset(fam, 0, sizeof(*fam));
	for (i = 0; i < n; i++)
		if (pr_primary_constant(&rm[i].cmp.base, &rm[i].cmp.new))
			role[i] = PR_ROLE_NOT_TESTED;
	tmp = malloc((n + 1) * sizeof(*tmp));
	c = malloc((n + 1) * sizeof(*c));
	fam->nt_name = malloc((n + 1) * sizeof(*fam->nt_name));
	fam->nt_value = malloc((n + 1) * sizeof(*fam->nt_value));
	if (tmp == NULL || c == NULL || fam->nt_name == NULL ||
	    fam->nt_value == NULL) {
		free(tmp);
		free(c);
		cli_families_release(fam);
		cli_errorf("out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		c[i] = rm[i].cmp;
	pr_primary_correct(c, role, n, vo, &pm, &sm);
	for (i = 0; i < n; i++)
		rm[i].cmp = c[i];
	/* Primary rows, then side rows, in their order; then the rest. */
	k = 0;
	for (want = PR_ROLE_PRIMARY; want <= PR_ROLE_SIDE; want++)
		for (i = 0; i < n; i++)
			if (role[i] == want) {
				tmp[k++] = rm[i];
				fam->np += want == PR_ROLE_PRIMARY;
				fam->ns += want == PR_ROLE_SIDE;
			}
	for (i = 0; i < n; i++)
		if (role[i] == PR_ROLE_NOT_TESTED) {
			fam->nt_name[fam->nnt] = rm[i].name;
			fam->nt_value[fam->nnt++] = rm[i].cmp.base.min;
			tmp[k++] = rm[i];
		}
	memcpy(rm, tmp, n * sizeof(*rm));
	free(tmp);
	free(c);
	if (fam->np + fam->ns == 0) {
		/* Every metric is constant: one table of them, as before. */
		fam->nnt = 0;
		r->n = n;
		r->holm_m = 0;
		return 0;
	}
	r->n = fam->np > 0 ? fam->np : fam->ns;
	r->holm_m = fam->np > 0 ? pm : sm;
	r->side_bh = fam->np == 0;
	if (fam->np > 0 && fam->ns > 0) {
		fam->side = *r;
		fam->side.base_source = fam->side.new_source = NULL;
		fam->side.metrics = rm + fam->np;
		fam->side.n = fam->ns;
		fam->side.holm_m = sm;
		fam->side.side_bh = 1;
		fam->side.side = NULL;
		fam->side.not_tested = NULL;
		fam->side.not_tested_value = NULL;
		fam->side.n_not_tested = 0;
		r->side = &fam->side;
	}
	r->not_tested = fam->nt_name;
	r->not_tested_value = fam->nt_value;
	r->n_not_tested = fam->nnt;
	return 0;
}
