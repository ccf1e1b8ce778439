/*
 * cli/cmd.h - the command table of the perfreg CLI.
 *
 * Each subcommand lives in its own cmd_<name>.c and exports one struct
 * cmd_entry.  The dispatcher in main.c finds the entry, handles --help
 * (printing `usage` and `help`) and calls exec with the arguments after
 * the command name (argv[0] is the command name, as for getopt).
 * exec returns the process exit status (see EXIT_* below).
 *
 * Only src/cli/ prints or exits.
 */
#ifndef PERFREG_CLI_CMD_H
#define PERFREG_CLI_CMD_H

#include <stdint.h>
#include <stdio.h>

#include "perfreg/buf.h"
#include "perfreg/error.h"

/* Stable exit codes, documented in doc/perfreg.1 (EXIT STATUS). */
#define PR_EXIT_OK 0         /* done */
#define PR_EXIT_REGRESSION 1 /* regression found and gating was asked */
#define PR_EXIT_USAGE 2      /* bad usage or bad input */
#define PR_EXIT_INTERNAL 3   /* out of memory, I/O error on output */

struct cmd_entry {
	const char *name;
	const char *usage; /* one line: "stat [-Anqs] [-C column] ..." */
	const char *help;  /* option descriptions, printed by --help */
	int (*exec)(int argc, char **argv);
};

extern const struct cmd_entry cmd_stat_entry;
extern const struct cmd_entry cmd_compare_entry;
extern const struct cmd_entry cmd_env_entry;
extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_parse_entry;

/* The table, NULL-terminated, in cmd_table.c. */
extern const struct cmd_entry *const cmd_table[];

/* Prints "perfreg: MSG" for a library error on stderr. */
void cli_error(const struct pr_error *err);

/* Prints "perfreg: " and a printf-style message on stderr, newline added. */
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "usage: perfreg USAGE" for the entry on stderr; returns
 * PR_EXIT_USAGE. */
int cli_usage(const struct cmd_entry *e);

/* Writes the buffer to stdout; PR_EXIT_INTERNAL if that fails. */
int cli_write(const struct pr_buf *b);

/*
 * Reads a --seed argument: a whole number from 0 to UINT64_MAX, nothing
 * else (no sign, no blanks).  On error prints "perfreg: CMD: --seed: ..."
 * and returns -1.
 */
int cli_parse_seed(const char *cmd, const char *arg, uint64_t *out);

/* Maps a library status to an exit code (ENOMEM/EIO on output: 3, else
 * 2). */
int cli_exit_for(enum pr_status st);

#endif /* PERFREG_CLI_CMD_H */
