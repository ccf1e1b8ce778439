/*
 * cli/cmd_stat.c - `perfreg stat [file ...]`: a drop-in for ministat, with
 * more.
 *
 * Reads one sample per file (standard input when no file is given, or for
 * "-") with ministat's reader rules (pr_read_numbers: -C column, -d
 * delimiters, '#' comments), sorts each in place, and writes the report of
 * report/stat.c: ministat's, then perfreg's own lines.  The work is read,
 * sort, describe, compare: the values are held once, 8 bytes each, and
 * sorted once.  Exit status: 0 done, 2 bad usage or input, 3 internal
 * failure (doc/perfreg.1).
 */
#include <errno.h>
#include <getopt.h>
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

#define REPORT_MAX ((size_t)256 << 20)

static const char usage[] =
    "stat [-Anqs] [-C column] [-c confidence] [-d delimiters] [-w width] "
    "[--json] [--equivalence pct] [--seed n] [file ...]";

static const char help[] =
    "Describes the numbers in each file (one per line, '#' starts a "
    "comment) and\n"
    "compares every file with the first, as ministat(1) does, then adds "
    "perfreg's\n"
    "change in percent with its interval, verdict and method.  Without a "
    "file, or\n"
    "for \"-\", standard input is read.\n"
    "\n"
    "options:\n"
    "  -A                 statistics and tests only, no plot\n"
    "  -C column          the column to read (starts and defaults to 1)\n"
    "  -c confidence      80, 90, 95, 98, 99 or 99.5 percent (default "
    "95)\n"
    "  -d delimiters      the characters between columns (default space "
    "and tab)\n"
    "  -n                 summary statistics only, no plot and no test\n"
    "  -q                 no legend and no table header\n"
    "  -s                 the avg/median/stddev bars on separate lines\n"
    "  -w width           plot width (default 74, or the terminal's "
    "less 2)\n"
    "  --json             a JSON object with every figure instead of "
    "text\n"
    "  --equivalence pct  changes within +-pct percent are \"equivalent\" "
    "(default 1)\n"
    "  --seed n           seed of the bootstrap intervals (default fixed)\n"
    "\n"
    "Plot symbols: x + * % # @ O o = ~ & $ ^ X V Z, then again.  Exit "
    "status: 0\n"
    "done, 2 bad usage or input, 3 internal error.\n";

enum { OPT_JSON = 256, OPT_EQUIV, OPT_SEED };

static const struct option longopts[] = { { "equivalence", required_argument,
					      NULL, OPT_EQUIV },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "seed", required_argument, NULL, OPT_SEED }, { NULL, 0, NULL, 0 } };

struct stat_cli {
	struct pr_stat_opts report;
	int column;
	const char *delims;
	int json;
	int width_set;
};

/* A whole number in [lo, hi]; -1 after printing what is wrong. */
static int
parse_int(const char *opt, const char *arg, long lo, long hi, long *out)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(arg, &end, 10);
	if (end == arg || *end != '\0' || errno != 0 || x < lo || x > hi) {
		cli_errorf("stat: %s: expected a whole number from %ld to %ld, "
			   "got '%s'",
		    opt, lo, hi, arg);
		return -1;
	}
	*out = x;
	return 0;
}

/* A whole finite number, as strtod reads it; -1 when arg is not one. */
static int
parse_double(const char *arg, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	return end == arg || *end != '\0' || errno != 0 || !isfinite(*out) ? -1
									   : 0;
}

static int
parse_conf(const char *arg, int *out)
{
	double x;

	if (parse_double(arg, &x) != 0 || (*out = pr_stat_conf_index(x)) < 0) {
		cli_errorf("stat: -c: expected one of ministat's confidence "
			   "levels 80, 90, 95, 98, 99 or 99.5, got '%s'",
		    arg);
		return -1;
	}
	return 0;
}

static int
parse_equiv(const char *arg, double *out)
{
	if (parse_double(arg, out) != 0 || *out < 0 || *out >= 100) {
		cli_errorf("stat: --equivalence: expected a percentage from 0 "
			   "to 100 (excluded), got '%s'",
		    arg);
		return -1;
	}
	return 0;
}

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
	long x;
	int c;

	pr_stat_opts_init(&o->report);
	o->column = 1;
	o->delims = " \t";
	o->json = 0;
	o->width_set = 0;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":AC:c:d:nqsw:", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'A':
			o->report.plot = 0;
			break;
		case 'C':
			if (parse_int("-C", optarg, 1, INT_MAX, &x) != 0)
				return -1;
			o->column = (int)x;
			break;
		case 'c':
			if (parse_conf(optarg, &o->report.conf_index) != 0)
				return -1;
			break;
		case 'd':
			if (optarg[0] == '\0') {
				cli_errorf("stat: -d: expected at least one "
					   "delimiter, got ''");
				return -1;
			}
			o->delims = optarg;
			break;
		case 'n':
			o->report.tests = 0;
			o->report.plot = 0;
			break;
		case 'q':
			o->report.quiet = 1;
			break;
		case 's':
			o->report.separate_bars = 1;
			break;
		case 'w':
			if (parse_int("-w", optarg, PR_STAT_WIDTH_MIN,
				PR_STAT_WIDTH_MAX, &x) != 0)
				return -1;
			o->report.width = (unsigned)x;
			o->width_set = 1;
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_EQUIV:
			if (parse_equiv(optarg, &o->report.equivalence_pct) !=
			    0)
				return -1;
			break;
		case OPT_SEED:
			if (cli_parse_seed("stat", optarg, &o->report.seed) !=
			    0)
				return -1;
			break;
		case ':':
			cli_errorf("stat: option '%s' needs an argument",
			    argv[optind - 1]);
			cli_usage(&cmd_stat_entry);
			return -1;
		default:
			if (optopt != 0)
				cli_errorf("stat: unknown option '-%c'",
				    optopt);
			else
				cli_errorf("stat: unknown option '%s'",
				    argv[optind - 1]);
			cli_usage(&cmd_stat_entry);
			return -1;
		}
	}
	if (!o->width_set)
		o->report.width = default_width();
	return optind;
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
	for (i = 0; i < n; i++) {
		pr_sample_init(&samples[i]);
		rc = pr_read_numbers(files[i], o.column, o.delims, &samples[i],
		    &err);
		if (rc == PR_OK && samples[i].n == 0)
			rc = pr_error_at(&err, PR_EPARSE, files[i], 0, 0,
			    "no values");
		if (rc != PR_OK) {
			cli_error(&err);
			status = cli_exit_for(rc);
			goto out;
		}
		pr_sample_sort(&samples[i]);
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

const struct cmd_entry cmd_stat_entry = { "stat", usage, help, exec_stat };
