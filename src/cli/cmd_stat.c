/*
 * cli/cmd_stat.c - `perfreg stat [file ...]`: a drop-in for ministat, with
 * more.
 *
 * Reads one sample per file (standard input when no file is given, or for
 * "-") with ministat's reader rules (pr_read_numbers: -C column, -d
 * delimiters, '#' comments), the files read and sorted concurrently
 * (pr_read_numbers_each), and writes the report of
 * report/stat.c: ministat's, then perfreg's own lines.  The work is read,
 * sort, describe, compare: the values are held once, 8 bytes each, and
 * sorted once.  Exit status: 0 done, 2 bad usage or input, 3 internal
 * failure (doc/perfreg.1).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "perfreg/read.h"
#include "perfreg/report_stat.h"
#include "perfreg/sample.h"
#include "core/banned.h"

extern const struct cmd_entry cmd_stat_entry;

#define REPORT_MAX ((size_t)256 << 20)

struct stat_cli {
	struct pr_stat_opts report;
	int column;
	const char *delims;
	int json;
};

static int
parse_conf(void *base, const struct opt *o, const char *arg)
{
	struct stat_cli *c = base;
	char *end;
	double x;

	(void)o;
	errno = 0;
	x = strtod(arg, &end);
	if (end == arg || *end != '\0' || errno != 0 || !isfinite(x) ||
	    (c->report.conf_index = pr_stat_conf_index(x)) < 0) {
		cli_errorf("stat: -c: expected one of ministat's confidence "
			   "levels 80, 90, 95, 98, 99 or 99.5, got '%s'",
		    arg);
		return -1;
	}
	return 0;
}

/* -n: summary statistics only. */
static int
summary_only(void *base, const struct opt *o, const char *arg)
{
	struct stat_cli *c = base;

	(void)o;
	(void)arg;
	c->report.tests = 0;
	c->report.plot = 0;
	return 0;
}

static const struct opt options[] = {
	OPT_FLAG('A', NULL, "statistics and tests only, no plot",
	    struct stat_cli, report.plot, 0),
	OPT_INT('C', NULL, "column",
	    "the column to read (starts and defaults to 1)", struct stat_cli,
	    column, 1, INT_MAX, NULL),
	OPT_CALL('c', NULL, "confidence",
	    "80, 90, 95, 98, 99 or 99.5 percent (default 95)", parse_conf, 0,
	    0),
	OPT_STRING('d', NULL, "delimiters",
	    "the characters between columns (default space and tab)",
	    struct stat_cli, delims, OPT_NONEMPTY, "at least one delimiter"),
	OPT_CALL('n', NULL, NULL,
	    "summary statistics only, no plot and no test", summary_only,
	    OPT_NOARG, 0),
	OPT_FLAG('q', NULL, "no legend and no table header", struct stat_cli,
	    report.quiet, 1),
	OPT_FLAG('s', NULL, "the avg/median/stddev bars on separate lines",
	    struct stat_cli, report.separate_bars, 1),
	OPT_INT('w', NULL, "width",
	    "plot width (default 74, or the terminal's less 2)",
	    struct stat_cli, report.width, PR_STAT_WIDTH_MIN, PR_STAT_WIDTH_MAX,
	    NULL),
	OPT_FLAG(0, "json", "a JSON object with every figure instead of text",
	    struct stat_cli, json, 1),
	OPT_DOUBLE(0, "equivalence", "pct",
	    "changes within +-pct percent are \"equivalent\" (default 1)",
	    struct stat_cli, report.equivalence_pct, 0, 100, OPT_HI_OPEN,
	    "a percentage from 0 to 100 (excluded)"),
	OPT_INT(0, "seed", "n",
	    "seed of the bootstrap intervals (default fixed)", struct stat_cli,
	    report.seed, 0, UINT64_MAX, NULL),
	OPT_END(),
};

/*
 * ministat's default width: 74, or on a terminal its width less two (the
 * frame), from COLUMNS or the terminal itself.
 */
static unsigned
default_width(void)
{
	struct winsize ws;
	const char *env;
	char *end;
	long cols = 0;

	if (!isatty(STDOUT_FILENO))
		return PR_STAT_WIDTH_DEFAULT;
	if ((env = getenv("COLUMNS")) != NULL && *env != '\0') {
		errno = 0;
		cols = strtol(env, &end, 10);
		if (*end != '\0' || errno != 0)
			cols = 0;
	}
	if (cols <= 0 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0)
		cols = ws.ws_col;
	if (cols <= 0)
		return PR_STAT_WIDTH_DEFAULT;
	cols -= 2;
	if (cols < PR_STAT_WIDTH_MIN)
		cols = PR_STAT_WIDTH_MIN;
	if (cols > PR_STAT_WIDTH_MAX)
		cols = PR_STAT_WIDTH_MAX;
	return (unsigned)cols;
}

/* Parses the options; returns the index of the first operand, or -1
 * after printing what is wrong. */
static int
parse_opts(int argc, char **argv, struct stat_cli *o)
{
	uint64_t seen;
	int first;

	pr_stat_opts_init(&o->report);
	o->column = 1;
	o->delims = " \t";
	o->json = 0;
	if ((first = opt_parse(&cmd_stat_entry, argc, argv, o, &seen)) < 0)
		return -1;
	if (!(seen & opt_bit(options, "w")))
		o->report.width = default_width();
	return first;
}

static int
exec_stat(int argc, char **argv)
{
	static char *const stdin_only[] = { "-", NULL };
	struct pr_buf out = PR_BUF_INIT(REPORT_MAX);
	struct pr_stat_input *in = NULL;
	struct pr_sample *samples = NULL;
	struct pr_stat st;
	struct pr_error err;
	struct stat_cli o;
	enum pr_status rc;
	char *const *files;
	size_t n, i;
	int first, status;

	if ((first = parse_opts(argc, argv, &o)) < 0)
		return PR_EXIT_USAGE;
	files = first < argc ? argv + first : stdin_only;
	n = first < argc ? (size_t)(argc - first) : 1;

	samples = calloc(n, sizeof(*samples));
	in = calloc(n, sizeof(*in));
	if (samples == NULL || in == NULL) {
		cli_errorf("out of memory");
		status = PR_EXIT_INTERNAL;
		goto out;
	}
	pr_error_clear(&err);
	for (i = 0; i < n; i++)
		pr_sample_init(&samples[i]);
	/* The files are read, parsed and sorted concurrently. */
	rc = pr_read_numbers_each((const char *const *)files, n, o.column,
	    o.delims, 1, samples, NULL, &err);
	if (rc != PR_OK) {
		cli_error(&err);
		status = cli_exit_for(rc);
		goto out;
	}
	for (i = 0; i < n; i++) {
		in[i].name = strcmp(files[i], "-") == 0 ? "<stdin>" : files[i];
		in[i].v = samples[i].v;
		in[i].n = samples[i].n;
	}

	if ((rc = pr_stat_analyse(in, n, &o.report, &st, &err)) != PR_OK) {
		cli_errorf("stat: %s", err.msg);
		status = cli_exit_for(rc);
		goto out;
	}
	rc = o.json ? pr_stat_format_json(&st, &out, &err)
		    : pr_stat_format_text(&st, &out, &err);
	pr_stat_release(&st);
	if (rc != PR_OK) {
		cli_errorf("stat: %s", err.msg);
		status = PR_EXIT_INTERNAL;
		goto out;
	}
	status = cli_write(&out);
out:
	for (i = 0; samples != NULL && i < n; i++)
		pr_sample_release(&samples[i]);
	free(samples);
	free(in);
	pr_buf_release(&out);
	return status;
}

static const char about[] =
    "Describes the numbers in each file (one per line, '#' starts a "
    "comment) and\n"
    "compares every file with the first, as ministat(1) does, then adds "
    "perfreg's\n"
    "change in percent with its interval, verdict and method.  Without a "
    "file, or\n"
    "for \"-\", standard input is read.\n";

static const char epilogue[] =
    "Plot symbols: x + * % # @ O o = ~ & $ ^ X V Z, then again.  Exit "
    "status: 0\n"
    "done, 2 bad usage or input, 3 internal error.\n";

const struct cmd_entry cmd_stat_entry = { .name = "stat",
	.synopsis = "[options] [file ...]",
	.about = about,
	.opts = options,
	.epilogue = epilogue,
	.exec = exec_stat };
