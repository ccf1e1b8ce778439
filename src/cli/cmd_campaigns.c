/*
 * cli/cmd_campaigns.c - `perfreg campaigns`: the campaigns stored in the
 * results database, one line each (or --json).
 *
 * Exit status: 0 done (also when there is none), 2 bad usage or a
 * database that cannot be read, 3 internal error.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "perfreg/store.h"
#include "core/banned.h"

#define OUTPUT_MAX ((size_t)256 << 20)

static const char usage[] = "campaigns [--db target] [--json]";

static const char help[] =
    "Lists the campaigns in the results database: variants, sessions, "
    "boots,\n"
    "hosts, counted runs (and failed ones), first and last session "
    "(UTC).\n"
    "\n"
    "options:\n"
    "  --db target  the database: a file (SQLite) or postgresql://...\n"
    "               (default: $PERFREG_DB, else "
    "$XDG_DATA_HOME/perfreg/perfreg.db)\n"
    "  --json       one JSON object: {\"campaigns\":[...]}\n";

static enum pr_status
text_out(const struct pr_store_campaign_info *c, size_t n, struct pr_buf *b,
    struct pr_error *err)
{
	enum pr_status st = PR_OK;
	char t1[32], t2[32];
	size_t i;

	if (n == 0)
		return pr_buf_adds(b, "no campaigns stored\n", err);
	st = pr_buf_addf(b, err, "%-24s %8s %8s %6s %5s %9s %7s  %-19s  %s\n",
	    "campaign", "variants", "sessions", "boots", "hosts", "runs",
	    "failed", "first", "last");
	for (i = 0; i < n && st == PR_OK; i++) {
		size_t start = b->len;

		if ((st = cli_str_escape(b, c[i].name, err)) != PR_OK)
			break;
		while (b->len - start < 24 && st == PR_OK)
			st = pr_buf_addc(b, ' ', err);
		if (st == PR_OK)
			st = pr_buf_addf(b, err,
			    " %8zu %8zu %6zu %5zu %9zu "
			    "%7zu  %-19s  %s\n",
			    c[i].nvariants, c[i].nsessions, c[i].nboots,
			    c[i].nhosts, c[i].nruns_ok, c[i].nruns_failed,
			    cli_time(c[i].first, t1, sizeof(t1)),
			    cli_time(c[i].last, t2, sizeof(t2)));
	}
	return st;
}

static int
json_out(const struct pr_store_campaign_info *c, size_t n)
{
	json_t *root = json_object(), *arr = json_array(), *o;
	char t1[32], t2[32];
	size_t i;
	int rc = PR_EXIT_INTERNAL;

	if (root == NULL || arr == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		o = json_pack("{s:o,s:I,s:I,s:I,s:I,s:I,s:I,s:s,s:s}", "name",
		    cli_str_json(c[i].name), "variants",
		    (json_int_t)c[i].nvariants, "sessions",
		    (json_int_t)c[i].nsessions, "boots",
		    (json_int_t)c[i].nboots, "hosts", (json_int_t)c[i].nhosts,
		    "runs", (json_int_t)c[i].nruns_ok, "failed_runs",
		    (json_int_t)c[i].nruns_failed, "first",
		    cli_time(c[i].first, t1, sizeof(t1)), "last",
		    cli_time(c[i].last, t2, sizeof(t2)));
		if (o == NULL || json_array_append_new(arr, o) != 0)
			goto out;
	}
	if (json_object_set_new(root, "campaigns", arr) != 0) {
		arr = NULL;
		goto out;
	}
	arr = NULL;
	if (cli_write_json(root) != PR_EXIT_OK) {
		json_decref(root);
		return PR_EXIT_INTERNAL;
	}
	rc = PR_EXIT_OK;
out:
	if (rc != PR_EXIT_OK)
		cli_errorf("out of memory");
	json_decref(arr);
	json_decref(root);
	return rc;
}

static int
exec_campaigns(int argc, char **argv)
{
	struct pr_store_campaign_info *c = NULL;
	struct pr_buf out = PR_BUF_INIT(OUTPUT_MAX);
	struct pr_store *st = NULL;
	struct pr_error err;
	enum pr_status s;
	const char *db = NULL;
	size_t n = 0;
	int first, json = 0, rc;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	if ((first = cli_db_json_opts(argc, argv, &cmd_campaigns_entry, &db,
		 &json)) < 0)
		return cli_usage(&cmd_campaigns_entry);
	if (first != argc) {
		cli_errorf("campaigns: unexpected argument '%s'", argv[first]);
		return cli_usage(&cmd_campaigns_entry);
	}
	if ((rc = cli_store_open("campaigns", db, PR_STORE_READ, &st)) !=
	    PR_EXIT_OK)
		return rc;
	pr_error_clear(&err);
	if ((s = pr_store_campaigns(st, &c, &n, &err)) != PR_OK) {
		cli_errorf("campaigns: %s",
		    pr_error_format(&err, eb, sizeof(eb)));
		rc = cli_exit_for(s);
	} else if (json) {
		rc = json_out(c, n);
	} else if (text_out(c, n, &out, &err) != PR_OK) {
		cli_error(&err);
		rc = PR_EXIT_INTERNAL;
	} else {
		rc = cli_write(&out);
	}
	pr_store_campaigns_free(c, n);
	pr_store_close(st);
	pr_buf_release(&out);
	return rc;
}

const struct cmd_entry cmd_campaigns_entry = { .name = "campaigns",
	.usage = usage,
	.help = help,
	.exec = exec_campaigns };
