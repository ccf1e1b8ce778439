/*
 * cli/cmd_env.c - `perfreg env [--json]` prints a snapshot of the
 * environment (perfreg/env.h); `perfreg env diff A.json B.json [--json]`
 * prints what differs between two saved snapshots, what is known to move
 * performance first.
 *
 * Exit status: 0 done (whether or not the snapshots differ), 2 bad usage
 * or input (a file that is not a snapshot: one line naming it), 3
 * internal error.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "perfreg/buf.h"
#include "perfreg/env.h"
#include "perfreg/store.h"
#include "core/banned.h"

extern const struct cmd_entry cmd_env_entry;
extern const struct cmd_entry cmd_env_diff_entry;

#define OUTPUT_MAX ((size_t)256 << 20)
#define INPUT_MAX ((size_t)64 << 20)

/* Reads a whole file; 0, or prints the error and returns 2/3. */
static int
read_all(const char *name, struct pr_buf *b)
{
	struct pr_error err;
	char chunk[65536];
	size_t n;
	FILE *f;

	pr_error_clear(&err);
	if ((f = fopen(name, "r")) == NULL) {
		cli_errorf("%s: %s", name, strerror(errno));
		return PR_EXIT_USAGE;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		if (pr_buf_add(b, chunk, n, &err) != PR_OK) {
			cli_errorf("%s: %s", name,
			    err.status == PR_ELIMIT
				? "file too large for a snapshot"
				: err.msg);
			fclose(f);
			return PR_EXIT_USAGE;
		}
	if (ferror(f)) {
		cli_errorf("%s: %s", name, strerror(errno));
		fclose(f);
		return PR_EXIT_USAGE;
	}
	fclose(f);
	if (b->data == NULL && pr_buf_adds(b, "", &err) != PR_OK)
		return PR_EXIT_INTERNAL;
	return 0;
}

int
cli_env_load(const char *name, struct pr_env *e)
{
	struct pr_buf b = PR_BUF_INIT(INPUT_MAX);
	struct pr_error err;
	enum pr_status st;
	int rc;

	pr_error_clear(&err);
	if ((rc = read_all(name, &b)) != 0) {
		pr_buf_release(&b);
		return rc;
	}
	st = pr_env_from_json(e, b.data, b.len, name, &err);
	pr_buf_release(&b);
	if (st != PR_OK) {
		cli_error(&err);
		return cli_exit_for(st);
	}
	return 0;
}

/* Where diff operands come from. */
struct diff_src {
	const char *db, *campaign;
	struct pr_store *st; /* opened at the first stored operand */
	int json;
	size_t log_max;
};

/* The first session of campaign that ran variant name, or 0. */
static int
variant_session(struct diff_src *ds, const char *name, int64_t *id)
{
	struct pr_store_session_info *s = NULL;
	struct pr_error err;
	enum pr_status st;
	size_t n = 0, i, k, len = strlen(name);

	*id = 0;
	pr_error_clear(&err);
	if ((st = pr_store_sessions(ds->st, pr_str_c(ds->campaign), &s, &n,
		 &err)) != PR_OK) {
		cli_errorf("env diff: %s", err.msg);
		return cli_exit_for(st);
	}
	for (i = 0; i < n && *id == 0; i++)
		for (k = 0; k < s[i].nvariants; k++)
			if (s[i].variants[k].n == len &&
			    memcmp(s[i].variants[k].p, name, len) == 0) {
				*id = s[i].id;
				break;
			}
	pr_store_sessions_free(s, n);
	if (*id == 0) {
		cli_errorf("env diff: campaign '%s' has no variant '%s'",
		    ds->campaign, name);
		return PR_EXIT_USAGE;
	}
	return 0;
}

/* A snapshot from a file, a stored session (session:ID) or a campaign
 * variant (with --campaign). */
static int
load_operand(struct diff_src *ds, const char *name, struct pr_env *e)
{
	struct pr_error err;
	enum pr_status st;
	long long id = 0;
	int64_t sid;
	char *end;
	int rc, found = 0;

	if (ds->campaign == NULL && strncmp(name, "session:", 8) != 0)
		return cli_env_load(name, e);
	if (ds->campaign == NULL) {
		errno = 0;
		id = strtoll(name + 8, &end, 10);
		if (errno != 0 || end == name + 8 || *end != '\0' || id <= 0) {
			cli_errorf("env diff: '%s': expected session:ID", name);
			return PR_EXIT_USAGE;
		}
	}
	if (ds->st == NULL &&
	    (rc = cli_store_open("env diff", ds->db, PR_STORE_READ, &ds->st)) !=
		PR_EXIT_OK)
		return rc;
	if (ds->campaign != NULL) {
		if ((rc = variant_session(ds, name, &sid)) != 0)
			return rc;
	} else {
		sid = (int64_t)id;
	}
	pr_error_clear(&err);
	if ((st = pr_store_session_env(ds->st, sid, e, &found, &err)) !=
	    PR_OK) {
		cli_errorf("env diff: %s", err.msg);
		return cli_exit_for(st);
	}
	if (!found) {
		cli_errorf("env diff: session %lld has no environment snapshot",
		    (long long)sid);
		return PR_EXIT_USAGE;
	}
	return 0;
}

static const struct opt diff_options[] = {
	OPT_FLAG(0, "json", "JSON output", struct diff_src, json, 1),
	OPT_INT(0, "log-lines", "n",
	    "kernel log lines shown per side (default 20)", struct diff_src,
	    log_max, 0, SIZE_MAX, "a count"),
	OPT_STRING(0, "db", "target",
	    "the database of session:ID and --campaign operands",
	    struct diff_src, db, 0, NULL),
	OPT_STRING(0, "campaign", "name",
	    "the operands are variants of campaign name (their first sessions)",
	    struct diff_src, campaign, 0, NULL),
	OPT_END(),
};

static int
exec_diff(int argc, char **argv)
{
	struct diff_src dsv, *ds = &dsv;
	int first;
	struct pr_env a, b;
	struct pr_envdiff d;
	struct pr_buf out = PR_BUF_INIT(OUTPUT_MAX);
	struct pr_error err;
	enum pr_status st;
	int rc;

	memset(ds, 0, sizeof(*ds));
	ds->log_max = 20;
	if ((first = opt_parse(&cmd_env_diff_entry, argc, argv, ds, NULL)) < 0)
		return PR_EXIT_USAGE;
	argc -= first;
	argv += first;
	if (argc != 2)
		return cli_usage_error(&cmd_env_diff_entry,
		    "expected two snapshots");
	pr_error_clear(&err);
	pr_env_init(&a);
	pr_env_init(&b);
	if ((rc = load_operand(ds, argv[0], &a)) != 0 ||
	    (rc = load_operand(ds, argv[1], &b)) != 0)
		goto out;
	if ((st = pr_env_diff(&a, &b, &d, &err)) != PR_OK) {
		cli_error(&err);
		rc = cli_exit_for(st);
		goto out;
	}
	st = ds->json ? pr_envdiff_to_json(&d, &out, &err)
		      : pr_envdiff_format_text(&d, argv[0], argv[1],
			    ds->log_max, &out, &err);
	pr_envdiff_release(&d);
	if (st != PR_OK) {
		cli_error(&err);
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	rc = cli_write(&out);
out:
	pr_store_close(ds->st);
	ds->st = NULL;
	pr_env_release(&a);
	pr_env_release(&b);
	pr_buf_release(&out);
	return rc;
}

struct env_cli {
	struct pr_env_opts o;
	int json;
};

static const struct opt options[] = {
	OPT_FLAG(0, "json",
	    "JSON output: the file form, to keep and diff later",
	    struct env_cli, json, 1),
	OPT_FLAG(0, "no-tools", "do not run tools (openssl version)",
	    struct env_cli, o.no_tools, 1),
	OPT_STRING(0, "root", "dir",
	    "read /proc and /sys below dir (and dir/dmesg): for tests and for "
	    "snapshots of another system's files (without this process's "
	    "environment variables)",
	    struct env_cli, o.root, 0, NULL),
	OPT_END(),
};

static int
exec_env(int argc, char **argv)
{
	struct env_cli c;
	struct pr_env e;
	struct pr_buf out = PR_BUF_INIT(OUTPUT_MAX);
	struct pr_error err;
	enum pr_status st;
	int first, rc;

	pr_error_clear(&err);
	memset(&c, 0, sizeof(c));
	cli_env_opts(&c.o);
	if ((first = opt_parse(&cmd_env_entry, argc, argv, &c, NULL)) < 0)
		return PR_EXIT_USAGE;
	if (first < argc)
		return cli_unexpected(&cmd_env_entry, argv[first]);
	/* Another system's files: this process's variables are not that
	 * system's. */
	if (c.o.root != NULL && c.o.root[0] != '\0')
		c.o.process_env = NULL;
	pr_env_init(&e);
	st = pr_env_capture(&e, &c.o, &err);
	if (st == PR_OK)
		st = c.json ? pr_env_to_json(&e, &out, &err)
			    : pr_env_format_text(&e, &out, &err);
	if (st != PR_OK) {
		cli_error(&err);
		rc = cli_exit_for(st);
	} else
		rc = cli_write(&out);
	pr_env_release(&e);
	pr_buf_release(&out);
	return rc;
}

const struct cmd_entry cmd_env_entry = { .name = "env",
	.synopsis = "[options]",
	.about = "Prints a snapshot of the environment a benchmark runs in: "
		 "kernel,\n"
		 "command line, clocksource, CPU model, microcode, flags, SMT, "
		 "governor,\n"
		 "boost, vulnerability mitigations, memory, NUMA, transparent "
		 "hugepages,\n"
		 "modules, selected sysctls, C library, compiler, `openssl "
		 "version`,\n"
		 "the environment variables that choose a library's code "
		 "when set\n"
		 "(OPENSSL_ia32cap, GLIBC_TUNABLES, MALLOC_*, LD_PRELOAD...), "
		 "and the\n"
		 "kernel log normalised (timestamps, addresses and counters "
		 "removed).\n"
		 "What cannot be read is shown as unavailable.  `perfreg env "
		 "diff`\n"
		 "shows what differs between two snapshots.\n",
	.opts = options,
	.epilogue = "Exit status: 0 done, 2 bad usage, 3 internal error.\n",
	.exec = exec_env };

const struct cmd_entry cmd_env_diff_entry = { .name = "env diff",
	.synopsis = "[options] a b",
	.about = "Shows what differs from snapshot A to snapshot B, what is "
		 "known to move\n"
		 "performance first, with a reason.  A and B are saved "
		 "snapshots (files\n"
		 "written by `perfreg env --json`), stored sessions "
		 "(session:ID), or with\n"
		 "--campaign the variants of a campaign (their first "
		 "sessions).\n",
	.opts = diff_options,
	.epilogue = "Exit status: 0 done (differences or not), 2 bad usage or "
		    "input, 3\n"
		    "internal error.\n",
	.exec = exec_diff };
