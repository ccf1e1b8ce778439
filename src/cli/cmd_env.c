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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "perfreg/buf.h"
#include "perfreg/env.h"
#include "perfreg/store.h"
#include "core/banned.h"

#define OUTPUT_MAX ((size_t)256 << 20)
#define INPUT_MAX ((size_t)64 << 20)

static const char usage[] =
    "env [--json] [--no-tools] [--root dir]\n"
    "       perfreg env diff [--json] [--log-lines n] [--db target] "
    "[--campaign name] a b";

static const char help[] =
    "Prints a snapshot of the environment a benchmark runs in: kernel,\n"
    "command line, clocksource, CPU model, microcode, flags, SMT, "
    "governor,\n"
    "boost, vulnerability mitigations, memory, NUMA, transparent "
    "hugepages,\n"
    "modules, selected sysctls, C library, compiler, `openssl version`,\n"
    "and the kernel log normalised (timestamps, addresses and counters\n"
    "removed).  What cannot be read is shown as unavailable.\n"
    "\n"
    "  perfreg env [--json]          the current snapshot; --json writes "
    "the\n"
    "                                file form, to keep and diff later\n"
    "  perfreg env diff A B          what differs from A to B: what is "
    "known\n"
    "                                to move performance first, with a "
    "reason;\n"
    "                                A and B are saved snapshots (files), "
    "stored\n"
    "                                sessions (session:ID), or with "
    "--campaign\n"
    "                                the variants of a campaign (their "
    "first\n"
    "                                sessions)\n"
    "\n"
    "options:\n"
    "  --json           JSON output\n"
    "  --no-tools       do not run tools (openssl version)\n"
    "  --root dir       read /proc and /sys below dir (and dir/dmesg): "
    "for\n"
    "                   tests and for snapshots of another system's "
    "files\n"
    "  --log-lines n    kernel log lines shown per side in a diff "
    "(default 20)\n"
    "  --db target      the database of session:ID and --campaign "
    "operands\n"
    "  --campaign name  the operands of diff are variants of campaign "
    "name\n"
    "\n"
    "Exit status: 0 done (differences or not), 2 bad usage or input, 3 "
    "internal\n"
    "error.\n";

enum { OPT_JSON = 256, OPT_NO_TOOLS, OPT_ROOT, OPT_LOG_LINES };

static const struct option longopts[] = { { "json", no_argument, NULL,
					      OPT_JSON },
	{ "no-tools", no_argument, NULL, OPT_NO_TOOLS },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "log-lines", required_argument, NULL, OPT_LOG_LINES },
	{ NULL, 0, NULL, 0 } };

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

static int
exec_diff(int argc, char **argv, int json, size_t log_max, struct diff_src *ds)
{
	struct pr_env a, b;
	struct pr_envdiff d;
	struct pr_buf out = PR_BUF_INIT(OUTPUT_MAX);
	struct pr_error err;
	enum pr_status st;
	int rc;

	if (argc != 2) {
		cli_errorf("env diff: expected two snapshots");
		return cli_usage(&cmd_env_entry);
	}
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
	st = json
	    ? pr_envdiff_to_json(&d, &out, &err)
	    : pr_envdiff_format_text(&d, argv[0], argv[1], log_max, &out, &err);
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

static int
exec_env(int argc, char **argv)
{
	struct pr_env_opts o;
	struct pr_env e;
	struct pr_buf out = PR_BUF_INIT(OUTPUT_MAX);
	struct pr_error err;
	enum pr_status st;
	size_t log_max = 20;
	int c, json = 0, rc;
	char *end;

	pr_error_clear(&err);
	pr_env_opts_init(&o);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON:
			json = 1;
			break;
		case OPT_NO_TOOLS:
			o.no_tools = 1;
			break;
		case OPT_ROOT:
			o.root = optarg;
			break;
		case OPT_LOG_LINES:
			errno = 0;
			log_max = (size_t)strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end != '\0' ||
			    optarg[0] == '-') {
				cli_errorf("env: --log-lines: expected a "
					   "count, got '%s'",
				    optarg);
				return PR_EXIT_USAGE;
			}
			break;
		case ':':
			cli_errorf("env: option '%s' needs an argument",
			    argv[optind - 1]);
			return cli_usage(&cmd_env_entry);
		default:
			cli_errorf("env: unknown option '%s'",
			    argv[optind - 1]);
			return cli_usage(&cmd_env_entry);
		}
	}
	if (optind < argc && strcmp(argv[optind], "diff") == 0) {
		/* Options may also come among the operands. */
		struct diff_src ds;
		char *files[3];
		int i, nf = 0;

		memset(&ds, 0, sizeof(ds));
		for (i = optind + 1; i < argc; i++) {
			const char *v = argv[i];

			if (strcmp(v, "--json") == 0)
				json = 1;
			else if ((strcmp(v, "--db") == 0 ||
				     strcmp(v, "--campaign") == 0) &&
			    i + 1 < argc) {
				if (v[2] == 'd')
					ds.db = argv[++i];
				else
					ds.campaign = argv[++i];
			} else if (strcmp(v, "--log-lines") == 0 &&
			    i + 1 < argc) {
				v = argv[++i];
				errno = 0;
				log_max = (size_t)strtoul(v, &end, 10);
				if (errno || *end != '\0' || end == v ||
				    v[0] == '-') {
					cli_errorf("env: --log-lines: expected "
						   "a count, got '%s'",
					    v);
					return PR_EXIT_USAGE;
				}
			} else if (v[0] == '-' && v[1] != '\0') {
				cli_errorf("env diff: unknown option '%s'", v);
				return cli_usage(&cmd_env_entry);
			} else if (nf < 3)
				files[nf++] = argv[i];
			else
				nf++;
		}
		return exec_diff(nf, files, json, log_max, &ds);
	}
	if (optind < argc) {
		cli_errorf("env: unexpected argument '%s'", argv[optind]);
		return cli_usage(&cmd_env_entry);
	}
	pr_env_init(&e);
	st = pr_env_capture(&e, &o, &err);
	if (st == PR_OK)
		st = json ? pr_env_to_json(&e, &out, &err)
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
	.usage = usage,
	.help = help,
	.exec = exec_env };
