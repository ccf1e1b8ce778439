/*
 * perfreg/report_campaign.h - the report of `perfreg compare --campaign`
 * built in the library from what the command loaded from the store.
 *
 * One pair of variants (new against base) becomes one group of a report
 * model (perfreg/report_model.h) in its "comparisons" list: the level
 * of the comparison (boots as the unit when each side ran in two boots
 * or more, each boot's mean one value; else runs, with a warning), the
 * comparison itself (Welch's t on the units unless --method says
 * otherwise; perfreg/report_compare.h), the share of a run's variance
 * that comes from its boot (perfreg/nested.h), what differs between
 * the environments of the two sides' first sessions and between
 * consecutive sessions of each side.  With sessions from several hosts
 * each host is compared on its own ("per_host") and across hosts, the
 * host as the unit (perfreg/campaign.h, "across_hosts"); a host that ran
 * one side only is named in a note and left out; one host alone does
 * not gate then, the verdict across hosts does.
 *
 * Ownership: struct pr_report_campaign and the variants are the
 * caller's and borrowed only during the call; what the model needs
 * afterwards (datasets, comparisons, diffs, names) it owns.  The notes
 * (lines for the error stream, without a program-name prefix) gather
 * in the struct across calls, freed by pr_report_campaign_release.
 * Names are text already (escaped by the caller for reports); nothing
 * here prints, exits or reads the environment or the store.
 */
#ifndef PERFREG_REPORT_CAMPAIGN_H
#define PERFREG_REPORT_CAMPAIGN_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/env.h"
#include "perfreg/error.h"
#include "perfreg/report_compare.h"
#include "perfreg/report_model.h"
#include "perfreg/store.h"

/* A session of the campaign, in order of start (borrowed). */
struct pr_report_campaign_session {
	int64_t id;
	const char *boot_id;
	const struct pr_str *variants; /* the variants it ran */
	size_t nvariants;
	const struct pr_env *env; /* NULL: no snapshot stored */
};

struct pr_report_campaign {
	/* Inputs (borrowed). */
	const char *campaign; /* its name, for messages */
	struct pr_report_compare_opts cmp;
	const char *host; /* compare only this host (as stored), or NULL */
	const char *const *hosts;     /* every host, escaped for reports */
	const char *const *hosts_raw; /* ... as stored */
	size_t nhosts;
	const struct pr_report_campaign_session *sess;
	size_t nsess;
	/* Out: the gate found a regression; the notes, in order. */
	int regression;
	char **note;
	size_t nnote;
	/* Private: pair bodies written so far. */
	size_t nbodies;
};

/* A variant of one pair (borrowed). */
struct pr_report_campaign_variant {
	const char *name;  /* escaped for reports */
	struct pr_str raw; /* as stored, to find its sessions */
	/* Its runs, metric names and units as text. */
	const struct pr_store_variant_data *data;
	const size_t *boot_host; /* data->nboots indices into hosts */
};

/* Sets c to an empty report of no host, the comparison's defaults. */
void pr_report_campaign_init(struct pr_report_campaign *c);
void pr_report_campaign_release(struct pr_report_campaign *c);

/*
 * Adds the comparison of new_ against base to m's "comparisons" list.
 * PR_EINVAL (err says why) for a side without a successful run, a host
 * (c->host) that ran neither side, or a comparison that cannot be made;
 * PR_ENOMEM.  On failure m may hold part of the pair: render it no
 * more; the notes so far are kept.
 */
enum pr_status pr_report_campaign_pair(struct pr_report_model *m,
    struct pr_report_campaign *c, const struct pr_report_campaign_variant *base,
    const struct pr_report_campaign_variant *new_, struct pr_error *err);

#endif /* PERFREG_REPORT_CAMPAIGN_H */
