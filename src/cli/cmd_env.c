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
#include "core/banned.h"

#define OUTPUT_MAX ((size_t)256 << 20)
#define INPUT_MAX ((size_t)64 << 20)

static const char usage[] =
    "env [--json] [--no-tools] [--root dir] | env diff [--json] "
    "[--log-lines n] a.json b.json";

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
    "  perfreg env diff A.json B.json\n"
    "                                what differs from A to B: what is "
    "known\n"
    "                                to move performance first, with a "
    "reason\n"
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
    "\n"
    "Snapshots of campaign variants and sessions as diff operands come "
    "with\n"
    "the results database.  Exit status: 0 done (differences or not), 2 "
    "bad\n"
    "usage or input, 3 internal error.\n";

enum { OPT_JSON = 256, OPT_NO_TOOLS, OPT_ROOT, OPT_LOG_LINES };

static const struct option longopts[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "no-tools", no_argument, NULL, OPT_NO_TOOLS },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "log-lines", required_argument, NULL, OPT_LOG_LINES },
	{ NULL, 0, NULL, 0 }
};

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
			cli_errorf("%s: %s", name, err.status == PR_ELIMIT ?
			    "file too large for a snapshot" : err.msg);
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

static int
load(const char *name, struct pr_env *e)
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

static int
exec_diff(int argc, char **argv, int json, size_t log_max)
{
	struct pr_env a, b;
	struct pr_envdiff d;
	struct pr_buf out = PR_BUF_INIT(OUTPUT_MAX);
	struct pr_error err;
	enum pr_status st;
	int rc;

	if (argc != 2) {
		cli_errorf("env diff: expected two snapshot files");
		return cli_usage(&cmd_env_entry);
	}
	pr_error_clear(&err);
	pr_env_init(&a);
	pr_env_init(&b);
	if ((rc = load(argv[0], &a)) != 0 || (rc = load(argv[1], &b)) != 0)
		goto out;
	if ((st = pr_env_diff(&a, &b, &d, &err)) != PR_OK) {
		cli_error(&err);
		rc = cli_exit_for(st);
		goto out;
	}
	st = json ? pr_envdiff_to_json(&d, &out, &err) :
	    pr_envdiff_format_text(&d, argv[0], argv[1], log_max, &out, &err);
	pr_envdiff_release(&d);
	if (st != PR_OK) {
		cli_error(&err);
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	rc = cli_write(&out);
out:
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
				    "count, got '%s'", optarg);
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
		char *files[3];
		int i, nf = 0;

		for (i = optind + 1; i < argc; i++) {
			const char *v = argv[i];

			if (strcmp(v, "--json") == 0)
				json = 1;
			else if (strcmp(v, "--log-lines") == 0 &&
			    i + 1 < argc) {
				v = argv[++i];
				errno = 0;
				log_max = (size_t)strtoul(v, &end, 10);
				if (errno || *end != '\0' || end == v ||
				    v[0] == '-') {
					cli_errorf("env: --log-lines: expected "
					    "a count, got '%s'", v);
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
		return exec_diff(nf, files, json, log_max);
	}
	if (optind < argc) {
		cli_errorf("env: unexpected argument '%s'", argv[optind]);
		return cli_usage(&cmd_env_entry);
	}
	pr_env_init(&e);
	st = pr_env_capture(&e, &o, &err);
	if (st == PR_OK)
		st = json ? pr_env_to_json(&e, &out, &err) :
		    pr_env_format_text(&e, &out, &err);
	if (st != PR_OK) {
		cli_error(&err);
		rc = cli_exit_for(st);
	} else
		rc = cli_write(&out);
	pr_env_release(&e);
	pr_buf_release(&out);
	return rc;
}

const struct cmd_entry cmd_env_entry = {
	"env", usage, help, exec_env
};
