/*
 * cli/main.c - entry point and dispatcher of the perfreg command.
 *
 * Finds the subcommand in cmd_table ("suite run" before "suite"), answers
 * --help (from the command's option table), --version and the hidden
 * --dump-options (every command's options, one a line, for the test that
 * holds doc/perfreg.1 to the tables), and runs it.  A misspelt command
 * gets "did you mean".  Everything runs in the C locale, so that numbers
 * are read and written with a point whatever the user's environment
 * says.
 */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "perfreg/report.h"
#include "perfreg/spawn.h"
#include "core/jsonout.h"
#include "core/banned.h"

static void
list_commands(FILE *f)
{
	const struct cmd_entry *const *e;
	const char *p, *eol;

	fprintf(f,
	    "usage: perfreg [--help | --version] COMMAND [ARGS]\n\n"
	    "commands:\n");
	for (e = cmd_table; *e != NULL; e++) {
		p = (*e)->synopsis;
		do {
			eol = strchr(p, '\n');
			if (eol == NULL)
				eol = p + strlen(p);
			fprintf(f, "  perfreg %s%s%.*s\n", (*e)->name,
			    eol > p ? " " : "", (int)(eol - p), p);
			p = eol + (*eol != '\0');
		} while (*p != '\0');
	}
	fprintf(f,
	    "\n'perfreg COMMAND --help' describes a command; "
	    "man perfreg describes them all\n");
}

/* The entry called name, or name and sub ("suite run"); *used says how
 * many words the name took.  NULL when there is none. */
static const struct cmd_entry *
find_entry(const char *name, const char *sub, int *used)
{
	const struct cmd_entry *const *e;
	size_t len = strlen(name);

	for (e = cmd_table; sub != NULL && *e != NULL; e++)
		if (strncmp((*e)->name, name, len) == 0 &&
		    (*e)->name[len] == ' ' &&
		    strcmp((*e)->name + len + 1, sub) == 0) {
			*used = 2;
			return *e;
		}
	for (e = cmd_table; *e != NULL; e++)
		if (strcmp((*e)->name, name) == 0) {
			*used = 1;
			return *e;
		}
	return NULL;
}

/* "perfreg: unknown command 'x' (did you mean 'y'?); see ..." */
static int
unknown_command(const char *name)
{
	const struct cmd_entry *const *e;
	size_t d, best = (size_t)-1, len = strlen(name);
	int n = 0;

	for (e = cmd_table; *e != NULL; e++)
		if (strchr((*e)->name, ' ') == NULL &&
		    opt_close_enough(d = opt_distance(name, (*e)->name, len),
			len) &&
		    d < best)
			best = d;
	fprintf(stderr, "perfreg: unknown command '%s'", name);
	for (e = cmd_table; best != (size_t)-1 && *e != NULL; e++)
		if (strchr((*e)->name, ' ') == NULL &&
		    opt_distance(name, (*e)->name, len) == best)
			fprintf(stderr, "%s '%s'",
			    n++ == 0 ? " (did you mean" : " or", (*e)->name);
	fprintf(stderr, "%s; see 'perfreg --help'\n", n > 0 ? "?)" : "");
	return PR_EXIT_USAGE;
}

int
cli_unexpected(const struct cmd_entry *e, const char *arg)
{
	const struct cmd_entry *const *t;
	size_t len = strlen(e->name), alen = strlen(arg), d;

	for (t = cmd_table; *t != NULL; t++) {
		if (strncmp((*t)->name, e->name, len) != 0 ||
		    (*t)->name[len] != ' ')
			continue;
		d = opt_distance(arg, (*t)->name + len + 1, alen);
		if (d == 0)
			return cli_usage_error(e,
			    "unexpected argument '%s' ('%s' goes right after "
			    "'%s', before its options)",
			    arg, arg, e->name);
		if (opt_close_enough(d, alen))
			return cli_usage_error(e,
			    "unexpected argument '%s' (did you mean '%s'?)",
			    arg, (*t)->name);
	}
	return cli_usage_error(e, "unexpected argument '%s'", arg);
}

static int
help_of(const struct cmd_entry *e)
{
	opt_help(e, stdout);
	return fflush(stdout) == 0 ? PR_EXIT_OK : PR_EXIT_INTERNAL;
}

/*
 * Writes "perfreg: " and the message made of fmt and ap as one line on
 * standard error, every control byte in it written as cat -v writes it
 * (pr_report_escape): a file, metric or host name in an error cannot send
 * a terminal escape or split the line.
 */
static void error_line(const char *prefix, const char *fmt, va_list ap,
    const char *suffix) __attribute__((format(printf, 2, 0)));

static void
error_line(const char *prefix, const char *fmt, va_list ap, const char *suffix)
{
	char line[8192];
	struct pr_buf b = PR_BUF_INIT(1 << 16);
	int n;

	n = vsnprintf(line, sizeof(line), fmt, ap);
	if (n < 0)
		line[0] = '\0';
	if (pr_report_escape(&b, line, strlen(line), 0, NULL) == PR_OK &&
	    b.data != NULL)
		fprintf(stderr, "perfreg: %s%s%s\n", prefix, b.data, suffix);
	else
		fprintf(stderr, "perfreg: %s(unprintable message)%s\n", prefix,
		    suffix);
	pr_buf_release(&b);
}

static void error_linef(const char *prefix, const char *suffix, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

static void
error_linef(const char *prefix, const char *suffix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_line(prefix, fmt, ap, suffix);
	va_end(ap);
}

void
cli_error(const struct pr_error *err)
{
	char line[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 64];

	error_linef("", "", "%s", pr_error_format(err, line, sizeof(line)));
}

void
cli_errorf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_line("", fmt, ap, "");
	va_end(ap);
}

int
cli_usage_error(const struct cmd_entry *e, const char *fmt, ...)
{
	char head[64], tail[128];
	va_list ap;

	snprintf(head, sizeof(head), "%s: ", e->name);
	snprintf(tail, sizeof(tail), "; see 'perfreg %s --help'", e->name);
	va_start(ap, fmt);
	error_line(head, fmt, ap, tail);
	va_end(ap);
	return PR_EXIT_USAGE;
}

int
cli_write(const struct pr_buf *b)
{
	if (b->len > 0 && fwrite(b->data, 1, b->len, stdout) != b->len) {
		cli_errorf("cannot write the output");
		return PR_EXIT_INTERNAL;
	}
	if (fflush(stdout) != 0) {
		cli_errorf("cannot write the output");
		return PR_EXIT_INTERNAL;
	}
	return PR_EXIT_OK;
}

int
cli_write_json(json_t *j)
{
	char *text;
	int ok;

	if ((text = pr_jsonout_dumps(j, JSON_INDENT(2))) == NULL) {
		cli_errorf("out of memory writing the JSON output");
		return PR_EXIT_INTERNAL;
	}
	ok = fputs(text, stdout) != EOF && fputc('\n', stdout) != EOF &&
	    fflush(stdout) == 0;
	free(text);
	if (!ok) {
		cli_errorf("cannot write the output");
		return PR_EXIT_INTERNAL;
	}
	return PR_EXIT_OK;
}

int
cli_parse_seed(const char *cmd, const char *arg, uint64_t *out)
{
	unsigned long long x;
	char *end;

	errno = 0;
	if (arg[0] == '-' || arg[0] == '+' || arg[0] == '\0' ||
	    (x = strtoull(arg, &end, 10), end == arg) || *end != '\0' ||
	    errno != 0) {
		cli_errorf("%s: --seed: expected a whole number from 0 to "
			   "%llu, got '%s'",
		    cmd, (unsigned long long)UINT64_MAX, arg);
		return -1;
	}
	*out = (uint64_t)x;
	return 0;
}

int
cli_exit_for(enum pr_status st)
{
	switch (st) {
	case PR_OK:
		return PR_EXIT_OK;
	case PR_ENOMEM:
		return PR_EXIT_INTERNAL;
	default:
		return PR_EXIT_USAGE;
	}
}

static int
wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return 0;
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0)
			return 1;
	}
	return 0;
}

/* Catches SIGXFSZ and does nothing: see main. */
static void
on_xfsz(int sig)
{
	(void)sig;
}

int
main(int argc, char **argv)
{
	const struct cmd_entry *const *t;
	const struct cmd_entry *e;
	struct sigaction sa;
	int used;

	setlocale(LC_ALL, "C");
	/* The library looks commands up where the CLI says: in PATH, as a
	 * shell would. */
	pr_spawn_set_search(getenv("PATH"));
	/* Past the file size limit (ulimit -f), a write fails with EFBIG,
	 * which the store and the writers report in one line, instead of
	 * the signal killing perfreg mid-transaction without a word.  A
	 * handler rather than SIG_IGN, because exec resets a handler but
	 * not SIG_IGN: the benchmarks perfreg starts keep the default. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_xfsz;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGXFSZ, &sa, NULL);
	if (argc < 2) {
		list_commands(stderr);
		return PR_EXIT_USAGE;
	}
	if (strcmp(argv[1], "help") == 0 && argc > 2) {
		if ((e = find_entry(argv[2], argc > 3 ? argv[3] : NULL,
			 &used)) == NULL)
			return unknown_command(argv[2]);
		if (argc > 2 + used)
			return cli_unexpected(e, argv[2 + used]);
		return help_of(e);
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		list_commands(stdout);
		return PR_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("perfreg %s\n", PERFREG_VERSION);
		return PR_EXIT_OK;
	}
	if (strcmp(argv[1], "--dump-options") == 0) {
		for (t = cmd_table; *t != NULL; t++)
			opt_dump(*t, stdout);
		return fflush(stdout) == 0 ? PR_EXIT_OK : PR_EXIT_INTERNAL;
	}
	if ((e = find_entry(argv[1], argc > 2 ? argv[2] : NULL, &used)) == NULL)
		return unknown_command(argv[1]);
	if (wants_help(argc - used, argv + used))
		return help_of(e);
	return e->exec(argc - used, argv + used);
}
