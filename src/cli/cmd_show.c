/*
 * cli/cmd_show.c - `perfreg show CAMPAIGN` prints what the results
 * database holds about a campaign: its variants, its sessions (host,
 * boot, status, tags) and the median of each metric per variant;
 * `perfreg show --session ID` prints one session and its runs, failed
 * ones with their reasons.
 *
 * Exit status: 0 done, 2 bad usage, unknown campaign or session, or a
 * database that cannot be read, 3 internal error.
 */
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "perfreg/dataset.h"
#include "perfreg/describe.h"
#include "perfreg/monitor.h"
#include "perfreg/primary.h"
#include "perfreg/report.h"
#include "perfreg/sample.h"
#include "perfreg/store.h"
#include "core/banned.h"

extern const struct cmd_entry cmd_show_entry;

#define OUTPUT_MAX ((size_t)256 << 20)

struct show {
	struct pr_store *st;
	struct pr_buf out;
	json_t *j; /* --json: the object being built */
	struct pr_error err;
};

/* Appends s escaped and padded to width columns. */
static enum pr_status
pad(struct pr_buf *b, struct pr_str s, size_t width, struct pr_error *err)
{
	size_t start = b->len;
	enum pr_status st = cli_str_escape(b, s, err);

	while (st == PR_OK && b->len - start < width)
		st = pr_buf_addc(b, ' ', err);
	return st;
}

/* Appends the first max bytes of s (all when max is 0) escaped as cat -v
 * does (pr_report_escape: a host name, boot id, status, metric or unit
 * from the database never sends a terminal escape), padded to width. */
static enum pr_status
text_pad(struct pr_buf *b, const char *s, size_t width, size_t max,
    struct pr_error *err)
{
	size_t start = b->len, n = s != NULL ? strlen(s) : 0;
	enum pr_status st;

	if (max != 0 && n > max)
		n = max;
	st = pr_report_escape(b, s != NULL ? s : "", n, 0, err);
	while (st == PR_OK && b->len - start < width)
		st = pr_buf_addc(b, ' ', err);
	return st;
}

static enum pr_status
tags_text(struct pr_buf *b, const struct pr_store_session_info *si,
    struct pr_error *err)
{
	enum pr_status st = PR_OK;
	size_t i;

	for (i = 0; i < si->ntags && st == PR_OK; i++) {
		if ((st = pr_buf_adds(b, i ? " " : "", err)) != PR_OK ||
		    (st = cli_str_escape(b, si->tags[i].key, err)) != PR_OK ||
		    (st = pr_buf_addc(b, '=', err)) != PR_OK)
			break;
		st = cli_str_escape(b, si->tags[i].value, err);
	}
	return st;
}

/* A C string from the store as JSON: null for NULL, escaped when it is
 * not UTF-8 (an import may hold any bytes). */
static json_t *
text_json(const char *s)
{
	return s != NULL ? cli_str_json(pr_str_c(s)) : json_null();
}

static json_t *
session_json(const struct pr_store_session_info *si)
{
	json_t *o, *tags = json_array(), *vars = json_array();
	char t[32];
	size_t i;

	/* [key, value] pairs: a key may be given twice. */
	for (i = 0; tags != NULL && i < si->ntags; i++) {
		if (json_array_append_new(tags,
			json_pack("[oo]", cli_str_json(si->tags[i].key),
			    cli_str_json(si->tags[i].value))) != 0) {
			json_decref(tags);
			tags = NULL;
		}
	}
	for (i = 0; vars != NULL && i < si->nvariants; i++)
		if (json_array_append_new(vars,
			cli_str_json(si->variants[i])) != 0) {
			json_decref(vars);
			vars = NULL;
		}
	o = json_pack("{s:I,s:o,s:o,s:s,s:f,s:o,s:o*,s:I,s:I,s:I,s:o,s:o}",
	    "id", (json_int_t)si->id, "host", text_json(si->host), "boot_id",
	    text_json(si->boot_id), "started",
	    cli_time(si->started, t, sizeof(t)), "elapsed_s", si->elapsed_s,
	    "status", text_json(si->status), "resumes",
	    si->resumes != 0 ? json_integer(si->resumes) : NULL, "runs",
	    (json_int_t)si->nruns_ok, "failed_runs",
	    (json_int_t)si->nruns_failed, "warmup_runs",
	    (json_int_t)si->nwarmup, "tags", tags, "variants", vars);
	return o;
}

/*
 * How many leading characters of the boot ids of s[0..n) the list shows:
 * 8 (enough for the kernel's random UUIDs), or more, until no two
 * different ids look the same (custom ids such as "kernel-6.1-old-1" and
 * "kernel-6.1-old-2" share long prefixes): one more than the longest
 * prefix two different ids share, found between neighbours once sorted.
 * A single session shows its whole id.  At most 64.
 */
static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
boot_width(const struct pr_store_session_info *s, size_t n)
{
	const char **ids;
	size_t w = 8, i, k;

	if (n == 1)
		w = strlen(s[0].boot_id) > w ? strlen(s[0].boot_id) : w;
	if (n > 1 && (ids = malloc(n * sizeof(*ids))) != NULL) {
		for (i = 0; i < n; i++)
			ids[i] = s[i].boot_id;
		qsort(ids, n, sizeof(*ids), cmp_str);
		for (i = 1; i < n; i++) {
			for (k = 0;
			     ids[i][k] != '\0' && ids[i][k] == ids[i - 1][k];
			     k++)
				;
			if (ids[i][k] != ids[i - 1][k] && k + 1 > w)
				w = k + 1;
		}
		free(ids);
	}
	return w > 64 ? 64 : (int)w;
}

static enum pr_status
session_text(struct pr_buf *b, const struct pr_store_session_info *si, int bw,
    struct pr_error *err)
{
	enum pr_status st;
	char t[32];
	size_t i;

	st = pr_buf_addf(b, err, "  %-6lld %-19s  ", (long long)si->id,
	    cli_time(si->started, t, sizeof(t)));
	if (st == PR_OK)
		st = text_pad(b, si->host, 16, 0, err);
	if (st == PR_OK)
		st = pr_buf_addc(b, ' ', err);
	if (st == PR_OK)
		st = text_pad(b, si->boot_id, (size_t)bw, (size_t)bw, err);
	if (st == PR_OK)
		st = pr_buf_adds(b, "  ", err);
	if (st == PR_OK)
		st = text_pad(b, si->status, 12, 0, err);
	if (st == PR_OK)
		st = pr_buf_addf(b, err, " %5zu %6zu  ", si->nruns_ok,
		    si->nruns_failed);
	for (i = 0; i < si->nvariants && st == PR_OK; i++) {
		if (i > 0)
			st = pr_buf_addc(b, ',', err);
		if (st == PR_OK)
			st = cli_str_escape(b, si->variants[i], err);
	}
	if (st == PR_OK && si->ntags > 0)
		st = pr_buf_adds(b, "  ", err);
	if (st == PR_OK)
		st = tags_text(b, si, err);
	if (st == PR_OK && si->resumes != 0)
		st = pr_buf_addf(b, err, "  (resumes %lld)",
		    (long long)si->resumes);
	if (st == PR_OK)
		st = pr_buf_addc(b, '\n', err);
	return st;
}

/*
 * The roles of the metrics of d (perfreg/primary.h) as `compare
 * --campaign` takes them without --primary: the primaries stored with
 * its sessions, else the parsers' result flags, else wall_s.  *role is
 * the caller's (free()).
 */
static enum pr_status
variant_roles(const struct pr_store_variant_data *d, enum pr_role **role,
    struct pr_error *err)
{
	struct pr_dataset ds;
	struct pr_metric *m;
	enum pr_role *r = NULL;
	enum pr_status st = PR_OK;
	size_t i;

	pr_dataset_init(&ds);
	*role = calloc(d->nm + 1, sizeof(**role));
	r = calloc(d->nm + 1, sizeof(*r));
	if (*role == NULL || r == NULL)
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < d->nm && st == PR_OK; i++) {
		/* One value stands for all: the rule looks at names, flags
		 * and directions only.  Two units of one name are one. */
		st = pr_dataset_get(&ds, d->m[i].name, d->m[i].unit,
		    d->m[i].better, &m, err);
		if (st == PR_OK && d->m[i].n > 0 && m->values.n == 0)
			st = pr_sample_push(&m->values, d->m[i].value[0], err);
		if (st == PR_OK)
			m->flags |= d->m[i].flags;
	}
	if (st == PR_OK)
		st = pr_primary_roles_stored(&ds, NULL, 0,
		    (const char *const *)d->primary, d->nprimary, r, err);
	for (i = 0; i < d->nm && st == PR_OK; i++)
		(*role)[i] = r[pr_dataset_find(&ds, d->m[i].name) - ds.metrics];
	free(r);
	pr_dataset_release(&ds);
	return st;
}

/*
 * The median of each metric of one variant and its role, text and JSON.
 * The monitors' figures (perfreg/monitor.h, "mon.*") are counted in one
 * line of text, not listed; JSON lists them with "monitor": true.
 */
static enum pr_status
variant_metrics(struct show *sh, struct pr_str campaign,
    const struct pr_store_variant_info *v, json_t *jm)
{
	struct pr_store_variant_data d;
	enum pr_role *role = NULL;
	enum pr_status st;
	size_t i, k, nmon = 0;
	double med, *v2;
	int mon;

	memset(&d, 0, sizeof(d));
	if ((st = pr_store_load_variant(sh->st, campaign, v->name, &d,
		 &sh->err)) != PR_OK)
		return st;
	st = variant_roles(&d, &role, &sh->err);
	for (i = 0; i < d.nm && st == PR_OK; i++) {
		mon = pr_monitor_is_metric(d.m[i].name);
		if (mon && jm == NULL) {
			nmon++;
			continue;
		}
		if ((v2 = malloc((d.m[i].n + 1) * sizeof(*v2))) == NULL) {
			st = pr_error_set(&sh->err, PR_ENOMEM, "out of memory");
			break;
		}
		for (k = 0; k < d.m[i].n; k++)
			v2[k] = d.m[i].value[k];
		pr_sort_doubles(v2, d.m[i].n);
		med = pr_median_sorted(v2, d.m[i].n);
		free(v2);
		if (jm != NULL) {
			json_t *o =
			    json_pack("{s:o,s:o,s:o,s:f,s:I,s:I,s:s,s:b}",
				"variant", cli_str_json(v->name), "metric",
				text_json(d.m[i].name), "unit",
				text_json(d.m[i].unit), "median", med, "n",
				(json_int_t)d.m[i].n, "boots",
				(json_int_t)d.nboots, "role",
				pr_role_str(role[i]), "monitor", mon);
			if (o == NULL || json_array_append_new(jm, o) != 0)
				st = pr_error_set(&sh->err, PR_ENOMEM,
				    "out of memory");
			continue;
		}
		if ((st = pr_buf_adds(&sh->out, "  ", &sh->err)) != PR_OK ||
		    (st = pad(&sh->out, v->name, 20, &sh->err)) != PR_OK ||
		    (st = pr_buf_addc(&sh->out, ' ', &sh->err)) != PR_OK ||
		    (st = text_pad(&sh->out, d.m[i].name, 24, 0, &sh->err)) !=
			PR_OK ||
		    (st = pr_buf_addf(&sh->out, &sh->err, " %14.6g ", med)) !=
			PR_OK ||
		    (st = text_pad(&sh->out, d.m[i].unit, 8, 0, &sh->err)) !=
			PR_OK)
			break;
		st = pr_buf_addf(&sh->out, &sh->err, " n=%zu, %zu boot%s%s\n",
		    d.m[i].n, d.nboots, d.nboots == 1 ? "" : "s",
		    role[i] == PR_ROLE_PRIMARY ? ", primary" : "");
	}
	if (st == PR_OK && nmon > 0 &&
	    (st = pr_buf_adds(&sh->out, "  ", &sh->err)) == PR_OK &&
	    (st = pad(&sh->out, v->name, 20, &sh->err)) == PR_OK)
		st = pr_buf_addf(&sh->out, &sh->err,
		    " and %zu monitor figure%s (mon.*, in --json)\n", nmon,
		    nmon == 1 ? "" : "s");
	free(role);
	pr_store_variant_data_release(&d);
	return st;
}

static enum pr_status
show_campaign(struct show *sh, const char *name)
{
	struct pr_store_variant_info *v = NULL;
	struct pr_store_session_info *s = NULL;
	struct pr_str cn = pr_str_c(name);
	json_t *jv = NULL, *js = NULL, *jm = NULL;
	size_t nv = 0, ns = 0, i;
	enum pr_status st;
	int bw;

	if ((st = pr_store_variants(sh->st, cn, &v, &nv, &sh->err)) != PR_OK ||
	    (st = pr_store_sessions(sh->st, cn, &s, &ns, &sh->err)) != PR_OK)
		goto out;
	bw = boot_width(s, ns);
	if (sh->j != NULL) {
		jv = json_array();
		js = json_array();
		jm = json_array();
		if (jv == NULL || js == NULL || jm == NULL ||
		    json_object_set_new(sh->j, "campaign", cli_str_json(cn)) !=
			0) {
			st = pr_error_set(&sh->err, PR_ENOMEM, "out of memory");
			goto out;
		}
		for (i = 0; i < nv; i++)
			if (json_array_append_new(jv,
				json_pack("{s:o,s:o,s:I,"
					  "s:I,s:I,s:I}",
				    "name", cli_str_json(v[i].name), "command",
				    text_json(v[i].command), "sessions",
				    (json_int_t)v[i].nsessions, "boots",
				    (json_int_t)v[i].nboots, "runs",
				    (json_int_t)v[i].nruns_ok, "failed_runs",
				    (json_int_t)v[i].nruns_failed)) != 0)
				st = PR_ENOMEM;
		for (i = 0; i < ns; i++)
			if (json_array_append_new(js, session_json(&s[i])) != 0)
				st = PR_ENOMEM;
		if (st != PR_OK) {
			st = pr_error_set(&sh->err, PR_ENOMEM, "out of memory");
			goto out;
		}
	} else {
		st = pr_buf_addf(&sh->out, &sh->err, "campaign ");
		if (st == PR_OK)
			st = cli_str_escape(&sh->out, cn, &sh->err);
		if (st == PR_OK)
			st = pr_buf_addf(&sh->out, &sh->err,
			    " (%s %s)\n\n"
			    "variants (the first is the baseline):\n  %-20s "
			    "%8s %6s %6s %6s  %s\n",
			    pr_store_backend(sh->st), pr_store_target(sh->st),
			    "name", "sessions", "boots", "runs", "failed",
			    "command");
		for (i = 0; i < nv && st == PR_OK; i++) {
			/* The command escaped onto one line ("-" when none
			 * is stored). */
			if ((st = pr_buf_adds(&sh->out, "  ", &sh->err)) ==
				PR_OK &&
			    (st = pad(&sh->out, v[i].name, 20, &sh->err)) ==
				PR_OK)
				st = pr_buf_addf(&sh->out, &sh->err,
				    " %8zu "
				    "%6zu %6zu %6zu  ",
				    v[i].nsessions, v[i].nboots, v[i].nruns_ok,
				    v[i].nruns_failed);
			if (st == PR_OK)
				st = v[i].command != NULL
				    ? cli_str_escape(&sh->out,
					  pr_str_c(v[i].command), &sh->err)
				    : pr_buf_addc(&sh->out, '-', &sh->err);
			if (st == PR_OK)
				st = pr_buf_addc(&sh->out, '\n', &sh->err);
		}
		if (st == PR_OK)
			st = pr_buf_addf(&sh->out, &sh->err,
			    "\nsessions:\n  "
			    "%-6s %-19s  %-16s %-*s  %-12s %5s %6s  %s\n",
			    "id", "started (UTC)", "host", bw, "boot", "status",
			    "runs", "failed", "variants, tags");
		for (i = 0; i < ns && st == PR_OK; i++)
			st = session_text(&sh->out, &s[i], bw, &sh->err);
		if (st == PR_OK)
			st = pr_buf_adds(&sh->out,
			    "\nmedians of the counted "
			    "runs:\n",
			    &sh->err);
	}
	for (i = 0; i < nv && st == PR_OK; i++)
		st = variant_metrics(sh, cn, &v[i], jm);
	if (st == PR_OK && sh->j != NULL) {
		json_object_set_new(sh->j, "variants", jv);
		json_object_set_new(sh->j, "sessions", js);
		json_object_set_new(sh->j, "medians", jm);
		jv = js = jm = NULL;
	}
out:
	json_decref(jv);
	json_decref(js);
	json_decref(jm);
	pr_store_variants_free(v, nv);
	pr_store_sessions_free(s, ns);
	return st;
}

struct runs_ctx {
	struct show *sh;
	json_t *arr;
};

static int
run_line(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct runs_ctx *rc = arg;
	struct pr_buf *b = &rc->sh->out;
	double wall = -1;
	size_t i;

	for (i = 0; i < r->nm; i++)
		if (strcmp(r->metric_names[i], "wall_s") == 0)
			wall = r->metric_values[i];
	if (rc->arr != NULL) {
		json_t *m = json_object(), *o;

		json_t *k;

		for (i = 0; m != NULL && i < r->nm; i++) {
			if ((k = text_json(r->metric_names[i])) == NULL ||
			    json_object_set_new(m, json_string_value(k),
				json_real(r->metric_values[i])) != 0) {
				json_decref(m);
				m = NULL;
			}
			json_decref(k);
		}
		o = json_pack("{s:I,s:I,s:o,s:b,s:b,s:o,s:o,s:o}", "seq",
		    (json_int_t)r->seq, "round", (json_int_t)r->round,
		    "variant", cli_str_json(r->variant), "warmup", r->warmup,
		    "ok", r->ok, "outcome", text_json(r->outcome), "reason",
		    cli_str_json(r->reason), "metrics", m);
		if (o == NULL || json_array_append_new(rc->arr, o) != 0) {
			pr_error_set(err, PR_ENOMEM, "out of memory");
			return 1;
		}
		return 0;
	}
	if (pr_buf_addf(b, err, "  %5zu %5zu%s  ", r->seq + 1, r->round + 1,
		r->warmup ? "w" : " ") != PR_OK ||
	    pad(b, r->variant, 20, err) != PR_OK)
		return 1;
	if (wall >= 0 ? pr_buf_addf(b, err, " %12.6f", wall) != PR_OK
		      : pr_buf_addf(b, err, " %12s", "-") != PR_OK)
		return 1;
	if (pr_buf_addf(b, err, "  %s", r->ok ? "ok" : "FAILED: ") != PR_OK)
		return 1;
	if (!r->ok && cli_str_escape(b, r->reason, err) != PR_OK)
		return 1;
	return pr_buf_addc(b, '\n', err) != PR_OK;
}

static enum pr_status
show_session(struct show *sh, int64_t id)
{
	struct pr_store_session_info si;
	struct runs_ctx rc;
	enum pr_status st;

	memset(&si, 0, sizeof(si));
	memset(&rc, 0, sizeof(rc));
	rc.sh = sh;
	if ((st = pr_store_session_get(sh->st, id, &si, &sh->err)) != PR_OK)
		return st;
	if (sh->j != NULL) {
		if ((rc.arr = json_array()) == NULL ||
		    json_object_set_new(sh->j, "session", session_json(&si)) !=
			0 ||
		    json_object_set_new(sh->j, "campaign",
			cli_str_json(si.campaign)) != 0) {
			st = pr_error_set(&sh->err, PR_ENOMEM, "out of memory");
			goto out;
		}
	} else {
		st = pr_buf_adds(&sh->out, "campaign ", &sh->err);
		if (st == PR_OK)
			st = cli_str_escape(&sh->out, si.campaign, &sh->err);
		if (st == PR_OK)
			st = pr_buf_addf(&sh->out, &sh->err,
			    "\n  %-6s "
			    "%-19s  %-16s %-*s  %-12s %5s %6s  %s\n",
			    "id", "started (UTC)", "host", boot_width(&si, 1),
			    "boot", "status", "runs", "failed",
			    "variants, tags");
		if (st == PR_OK)
			st = session_text(&sh->out, &si, boot_width(&si, 1),
			    &sh->err);
		if (st == PR_OK)
			st = pr_buf_addf(&sh->out, &sh->err,
			    "\nruns (w: "
			    "warm-up):\n  %5s %5s   %-20s %12s  %s\n",
			    "seq", "round", "variant", "wall_s", "result");
		if (st != PR_OK)
			goto out;
	}
	st = pr_store_each_run(sh->st, id, run_line, &rc, &sh->err);
	if (st == PR_OK && rc.arr != NULL) {
		json_object_set_new(sh->j, "runs", rc.arr);
		rc.arr = NULL;
	}
out:
	json_decref(rc.arr);
	pr_store_session_info_release(&si);
	return st;
}

struct show_cli {
	const char *db, *session;
	int json;
};

static const struct opt options[] = {
	CLI_OPT_DB(struct show_cli, db),
	OPT_STRING(0, "session", "id", "show the session with this id",
	    struct show_cli, session, 0, NULL),
	OPT_FLAG(0, "json", "the same as one JSON object", struct show_cli,
	    json, 1),
	OPT_END(),
};

static int
exec_show(int argc, char **argv)
{
	struct show sh;
	const char *db = NULL, *session = NULL;
	enum pr_status st;
	long long id = 0;
	char *end;
	struct show_cli o = { NULL, NULL, 0 };
	int first, json, rc;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	if ((first = opt_parse(&cmd_show_entry, argc, argv, &o, NULL)) < 0)
		return PR_EXIT_USAGE;
	db = o.db;
	session = o.session;
	json = o.json;
	if (session != NULL) {
		errno = 0;
		id = strtoll(session, &end, 10);
		if (errno != 0 || end == session || *end != '\0' || id <= 0) {
			cli_errorf("show: --session: expected a session id, "
				   "got '%s'",
			    session);
			return PR_EXIT_USAGE;
		}
	}
	if (session != NULL ? first != argc : first + 1 != argc)
		return cli_usage_error(&cmd_show_entry, "expected %s",
		    session != NULL ? "no argument with --session"
				    : "one campaign name");
	memset(&sh, 0, sizeof(sh));
	pr_buf_init(&sh.out, OUTPUT_MAX);
	pr_error_clear(&sh.err);
	if ((rc = cli_store_open("show", db, PR_STORE_READ, &sh.st)) !=
	    PR_EXIT_OK)
		return rc;
	if (json && (sh.j = json_object()) == NULL) {
		cli_errorf("out of memory");
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	st = session != NULL ? show_session(&sh, (int64_t)id)
			     : show_campaign(&sh, argv[first]);
	if (st != PR_OK) {
		cli_errorf("show: %s",
		    pr_error_format(&sh.err, eb, sizeof(eb)));
		rc = cli_exit_for(st);
		goto out;
	}
	rc = json ? cli_write_json(sh.j) : cli_write(&sh.out);
out:
	json_decref(sh.j);
	pr_buf_release(&sh.out);
	pr_store_close(sh.st);
	return rc;
}

const struct cmd_entry cmd_show_entry = { .name = "show",
	.synopsis = "[options] campaign\n[options] --session id",
	.about = "Prints a stored campaign: its variants (the first is the "
		 "baseline of\n"
		 "`compare --campaign`) with their commands, sessions, boots "
		 "and runs;\n"
		 "its sessions with host, boot id, start (UTC), status and "
		 "tags; and the\n"
		 "median of each metric per variant.  With --session, one "
		 "session and its\n"
		 "runs, failed ones with their reasons.\n",
	.opts = options,
	.epilogue = "Exit status: 0 done, 2 bad usage, unknown campaign or "
		    "session, or a\n"
		    "database that cannot be read, 3 internal error.\n",
	.exec = exec_show };
