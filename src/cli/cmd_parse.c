/*
 * cli/cmd_parse.c - `perfreg parse [options] FILE...`: reads saved
 * benchmark output and prints the metrics in it.
 *
 * Each FILE is parsed on its own (its format detected unless --format
 * forces one; --derive computed over that file's metrics) with the
 * library's parser (perfreg/parse.h).  The text output is a table, one
 * row per value: metric, value, unit, better; a metric the tool reported
 * as not measured (perf's "<not supported>") shows "-" as its value.
 * --json prints {"metrics":[{"name","value","unit","better","file"}...],
 * "absent":[...],"files":[{"name","format"}...]}, which `perfreg compare`
 * reads back (format perfreg).  Numbers are printed in the shortest form
 * that reads back to the same double.  Exit status: 0 done, 2 bad usage
 * or input (nothing is printed on stdout then), 3 internal error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cmd.h"
#include "perfreg/buf.h"
#include "perfreg/dataset.h"
#include "perfreg/parse.h"
#include "perfreg/report.h"
#include "core/jsonout.h"
#include "core/banned.h"

extern const struct cmd_entry cmd_parse_entry;

#define OUTPUT_MAX ((size_t)256 << 20)

/* The options: they go straight into the parser. */
struct parse_cli {
	struct pr_parser *p;
	enum pr_status st; /* of the option that failed */
	int json, list;
};

/* --format, --metric, --derive (the row's ival says which). */
static int
parser_opt(void *base, const struct opt *o, const char *arg)
{
	struct parse_cli *c = base;
	struct pr_error err;

	pr_error_clear(&err);
	c->st = o->ival == 'f' ? pr_parser_set_format(c->p, arg, &err)
	    : o->ival == 'm'   ? pr_parser_add_metric(c->p, arg, &err)
			       : pr_parser_add_derive(c->p, arg, &err);
	if (c->st != PR_OK) {
		cli_errorf("parse: %s", err.msg);
		return -1;
	}
	return 0;
}

/* --format's help, the names from the library's list of formats. */
static const char format_help[] = "auto (default: detected from the content), "
#define PR_FORMAT(name) #name ", "
#include "perfreg/parse_formats.def"
#undef PR_FORMAT
				  "or none (only the --metric ones)";

static const struct opt options[] = {
	OPT_CALL(0, "format", "fmt", format_help, parser_opt, 0, 'f'),
	OPT_CALL(0, "metric", "spec",
	    "NAME=REGEX[:UNIT][:higher|lower]: a metric of your own: every "
	    "match of the PCRE2 REGEX gives a value, the text of its first "
	    "capture group",
	    parser_opt, OPT_REPEAT, 'm'),
	OPT_CALL(0, "derive", "spec",
	    "NAME=EXPR[:UNIT][:higher|lower]: a metric computed from others "
	    "with + - * / and parentheses; names with other characters go in "
	    "braces:\n--derive 'MBps=134217728/elapsed/1e6:MB/s:higher'",
	    parser_opt, OPT_REPEAT, 'd'),
	OPT_FLAG(0, "json",
	    "{\"metrics\":[{\"name\",\"value\",\"unit\",\"better\"}...]}",
	    struct parse_cli, json, 1),
	OPT_FLAG(0, "list-formats", "list the formats and exit",
	    struct parse_cli, list, 1),
	OPT_END(),
};

/* One parsed file. */
struct parsed {
	const char *name;
	const char *format;
	struct pr_dataset ds;
};

/*
 * The shortest decimal that reads back as x: fixed notation ("0.05",
 * "586200") for magnitudes from 1e-4 to 1e16, else "%.*g".  Returns buf.
 */
static const char *
shortest(double x, char *buf, size_t size)
{
	double a = x < 0 ? -x : x;
	int p;

	if (a == 0 || (a >= 1e-4 && a < 1e16))
		for (p = 0; p <= 20; p++) {
			snprintf(buf, size, "%.*f", p, x);
			if (strtod(buf, NULL) == x)
				return buf;
		}
	for (p = 1; p <= 17; p++) {
		snprintf(buf, size, "%.*g", p, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	return buf;
}

/* The precision shortest() needs for x. */
static int
precision_of(double x)
{
	char buf[40];
	int p;

	for (p = 1; p < 17; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, x);
		if (strtod(buf, NULL) == x)
			return p;
	}
	return 17;
}

static const char *
better_word(enum pr_better b)
{
	return b == PR_BETTER_HIGHER ? "higher"
	    : b == PR_BETTER_LOWER   ? "lower"
				     : "?";
}

/* The length of s once escaped as write_text writes it. */
static size_t
escaped_len(const char *s)
{
	char *e = pr_report_escape_str(s, 0);
	size_t n = e != NULL ? strlen(e) : strlen(s);

	free(e);
	return n;
}

/*
 * The text table.  Names, units and file names come from outside (a Go
 * benchmark's or hyperfine's output, the command line): every control
 * byte in them is written as cat -v writes it (pr_report_escape), so
 * that ESC[2J or OSC 52 is shown, not obeyed, and a newline or CR
 * cannot split a row.
 */
static int
write_text(const struct parsed *f, size_t nf, struct pr_buf *out)
{
	size_t i, j, k, wn = 6, wv = 5, wu = 4, len;
	char num[40], *name = NULL, *unit = NULL, *file = NULL;
	int absent = 0;
	enum pr_status st = PR_OK;

	for (i = 0; i < nf; i++)
		for (j = 0; j < f[i].ds.n; j++) {
			const struct pr_metric *m = &f[i].ds.metrics[j];

			if ((len = escaped_len(m->name)) > wn)
				wn = len;
			if ((len = escaped_len(m->unit)) > wu)
				wu = len;
			for (k = 0; k < m->values.n; k++)
				if ((len = strlen(shortest(m->values.v[k], num,
					 sizeof(num)))) > wv)
					wv = len;
		}
	for (i = 0; i < nf && st == PR_OK; i++) {
		if ((file = pr_report_escape_str(f[i].name, 0)) == NULL)
			return -1;
		st = pr_buf_addf(out, NULL, "%s%s: %s\n", i ? "\n" : "", file,
		    f[i].format);
		free(file);
		if (st == PR_OK)
			st = pr_buf_addf(out, NULL, "%-*s  %*s  %-*s  %s\n",
			    (int)wn, "metric", (int)wv, "value", (int)wu,
			    "unit", "better");
		for (j = 0; j < f[i].ds.n && st == PR_OK; j++) {
			const struct pr_metric *m = &f[i].ds.metrics[j];

			name = pr_report_escape_str(m->name, 0);
			unit = pr_report_escape_str(m->unit, 0);
			if (name == NULL || unit == NULL)
				st = PR_ENOMEM;
			if (st == PR_OK && m->values.n == 0) {
				absent = 1;
				st = pr_buf_addf(out, NULL,
				    "%-*s  %*s  %-*s  %s\n", (int)wn, name,
				    (int)wv, "-", (int)wu, unit,
				    better_word(m->better));
			}
			for (k = 0; k < m->values.n && st == PR_OK; k++)
				st = pr_buf_addf(out, NULL,
				    "%-*s  %*s  %-*s  %s\n", (int)wn, name,
				    (int)wv,
				    shortest(m->values.v[k], num, sizeof(num)),
				    (int)wu, unit, better_word(m->better));
			free(name);
			free(unit);
		}
	}
	if (st == PR_OK && absent)
		st = pr_buf_adds(out,
		    "\n-: reported by the tool as not "
		    "counted or not supported\n",
		    NULL);
	return st == PR_OK ? 0 : -1;
}

static json_t *
better_json(enum pr_better b)
{
	return b == PR_BETTER_UNKNOWN ? json_null()
				      : json_string(better_word(b));
}

static int
jset(json_t *o, const char *key, json_t *v)
{
	return v != NULL && json_object_set_new(o, key, v) == 0;
}

static int
write_json(const struct parsed *f, size_t nf, struct pr_buf *out)
{
	json_t *root, *metrics, *absent, *files, *o;
	size_t i, j, k;
	int ok, prec = 1, p;
	char *text = NULL;

	root = json_object();
	metrics = json_array();
	absent = json_array();
	files = json_array();
	ok = root != NULL && jset(root, "metrics", metrics) &&
	    jset(root, "absent", absent) && jset(root, "files", files);
	for (i = 0; i < nf && ok; i++) {
		ok = (o = json_object()) != NULL &&
		    json_array_append_new(files, o) == 0 &&
		    jset(o, "name", json_string(f[i].name)) &&
		    jset(o, "format", json_string(f[i].format));
		for (j = 0; j < f[i].ds.n && ok; j++) {
			const struct pr_metric *m = &f[i].ds.metrics[j];

			if (m->values.n == 0)
				ok = (o = json_object()) != NULL &&
				    json_array_append_new(absent, o) == 0 &&
				    jset(o, "name", json_string(m->name)) &&
				    jset(o, "unit", json_string(m->unit)) &&
				    jset(o, "better", better_json(m->better)) &&
				    jset(o, "file", json_string(f[i].name));
			for (k = 0; k < m->values.n && ok; k++) {
				if ((p = precision_of(m->values.v[k])) > prec)
					prec = p;
				ok = (o = json_object()) != NULL &&
				    json_array_append_new(metrics, o) == 0 &&
				    jset(o, "name", json_string(m->name)) &&
				    jset(o, "value",
					json_real(m->values.v[k])) &&
				    jset(o, "unit", json_string(m->unit)) &&
				    jset(o, "better", better_json(m->better)) &&
				    jset(o, "file", json_string(f[i].name));
			}
		}
	}
	/* The precision that every value needs to read back exactly. */
	if (ok)
		text = pr_jsonout_dumps(root,
		    JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			JSON_REAL_PRECISION(prec < 15 ? 15 : prec));
	json_decref(root);
	ok = text != NULL && pr_buf_adds(out, text, NULL) == PR_OK &&
	    pr_buf_addc(out, '\n', NULL) == PR_OK;
	free(text);
	return ok ? 0 : -1;
}

static void
list_formats(void)
{
	const char *name, *desc;
	size_t i;

	for (i = 0; (name = pr_parse_format_name(i, &desc)) != NULL; i++)
		printf("%-10s %s\n", name, desc);
	printf("%-10s %s\n", "none", "only the --metric expressions");
}

static int
exec_parse(int argc, char **argv)
{
	struct pr_parser *p = NULL;
	struct pr_error err;
	struct parsed *files = NULL;
	struct pr_buf out = PR_BUF_INIT(OUTPUT_MAX);
	struct parse_cli o;
	size_t nf = 0, i;
	int first, json, rc = PR_EXIT_OK;
	enum pr_status st;

	pr_error_clear(&err);
	if (pr_parser_new(&p, &err) != PR_OK) {
		cli_error(&err);
		return PR_EXIT_INTERNAL;
	}
	memset(&o, 0, sizeof(o));
	o.p = p;
	if ((first = opt_parse(&cmd_parse_entry, argc, argv, &o, NULL)) < 0) {
		pr_parser_free(p);
		return o.st != PR_OK ? cli_exit_for(o.st) : PR_EXIT_USAGE;
	}
	if (o.list) {
		list_formats();
		pr_parser_free(p);
		return PR_EXIT_OK;
	}
	json = o.json;
	if (first >= argc) {
		cli_usage_error(&cmd_parse_entry, "no file given");
		pr_parser_free(p);
		return PR_EXIT_USAGE;
	}
	nf = (size_t)(argc - first);
	if ((files = calloc(nf, sizeof(*files))) == NULL) {
		cli_errorf("out of memory");
		pr_parser_free(p);
		return PR_EXIT_INTERNAL;
	}
	for (i = 0; i < nf; i++) {
		files[i].name = strcmp(argv[first + (int)i], "-") == 0
		    ? "<stdin>"
		    : argv[first + (int)i];
		pr_dataset_init(&files[i].ds);
	}
	for (i = 0; i < nf; i++) {
		st = pr_parse_file(p, argv[first + (int)i], 0, &files[i].ds,
		    &files[i].format, &err);
		if (st != PR_OK) {
			cli_error(&err);
			rc = cli_exit_for(st);
			goto out;
		}
	}
	if ((json ? write_json(files, nf, &out)
		  : write_text(files, nf, &out)) != 0) {
		cli_errorf("out of memory");
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	rc = cli_write(&out);
out:
	for (i = 0; i < nf; i++)
		pr_dataset_release(&files[i].ds);
	free(files);
	pr_buf_release(&out);
	pr_parser_free(p);
	return rc;
}

static const char about[] =
    "Reads saved benchmark output and prints the metrics in it: name, "
    "value,\n"
    "unit and direction (whether higher or lower is better).\n";

static const char epilogue[] =
    "A file may be \"-\" for standard input.  Exit status: 0 done, 2 bad "
    "usage\n"
    "or input, 3 internal error.\n";

const struct cmd_entry cmd_parse_entry = { .name = "parse",
	.synopsis = "[options] file...",
	.about = about,
	.opts = options,
	.epilogue = epilogue,
	.exec = exec_parse };
