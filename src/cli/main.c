/*
 * cli/main.c - entry point and dispatcher of the perfreg command.
 *
 * Finds the subcommand in cmd_table, answers --help and --version, and
 * runs it.  Everything runs in the C locale, so that numbers are read and
 * written with a point whatever the user's environment says.
 */
#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "core/banned.h"

static void
list_commands(FILE *f)
{
	const struct cmd_entry *const *e;

	fprintf(f,
	    "usage: perfreg [--help | --version] COMMAND [ARGS]\n\n"
	    "commands:\n");
	for (e = cmd_table; *e != NULL; e++)
		fprintf(f, "  perfreg %s\n", (*e)->usage);
	fprintf(f,
	    "\n'perfreg COMMAND --help' describes a command; "
	    "man perfreg describes them all\n");
}

void
cli_error(const struct pr_error *err)
{
	char line[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 64];

	fprintf(stderr, "perfreg: %s\n",
	    pr_error_format(err, line, sizeof(line)));
}

void
cli_errorf(const char *fmt, ...)
{
	va_list ap;

	fputs("perfreg: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int
cli_usage(const struct cmd_entry *e)
{
	fprintf(stderr, "usage: perfreg %s\n", e->usage);
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
	if (json_dumpf(j, stdout, JSON_INDENT(2)) != 0 ||
	    fputc('\n', stdout) == EOF || fflush(stdout) != 0) {
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

int
main(int argc, char **argv)
{
	const struct cmd_entry *const *e;

	setlocale(LC_ALL, "C");
	if (argc < 2) {
		list_commands(stderr);
		return PR_EXIT_USAGE;
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
	for (e = cmd_table; *e != NULL; e++) {
		if (strcmp((*e)->name, argv[1]) != 0)
			continue;
		if (wants_help(argc - 1, argv + 1)) {
			printf("usage: perfreg %s\n\n%s", (*e)->usage,
			    (*e)->help);
			return PR_EXIT_OK;
		}
		return (*e)->exec(argc - 1, argv + 1);
	}
	cli_errorf("unknown command '%s'", argv[1]);
	list_commands(stderr);
	return PR_EXIT_USAGE;
}
