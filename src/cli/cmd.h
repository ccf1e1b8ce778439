/*
 * cli/cmd.h - the command table of the perfreg CLI.
 *
 * Each subcommand lives in its own cmd_<name>.c and exports one struct
 * cmd_entry (a sub-subcommand such as `suite run` one more, named "suite
 * run"), with its option table (cli/opt.h).  The dispatcher in main.c
 * finds the entry, answers --help from it (opt_help) and calls exec with
 * the arguments after the command name (argv[0] is the command name, as
 * for getopt), which parses them with opt_parse.  exec returns the
 * process exit status (see PR_EXIT_* below).
 *
 * Only src/cli/ prints or exits.
 */
#ifndef PERFREG_CLI_CMD_H
#define PERFREG_CLI_CMD_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "perfreg/buf.h"
#include "perfreg/error.h"
#include "perfreg/env.h"
#include "perfreg/report.h"
#include "perfreg/store.h"
#include "perfreg/dataset.h"
#include "perfreg/primary.h"
#include "cli/opt.h"

/* Stable exit codes, documented in doc/perfreg.1 (EXIT STATUS). */
#define PR_EXIT_OK 0         /* done */
#define PR_EXIT_REGRESSION 1 /* regression found and gating was asked */
#define PR_EXIT_USAGE 2      /* bad usage or bad input */
#define PR_EXIT_INTERNAL 3   /* out of memory, I/O error on output */

struct cmd_entry {
	const char *name;       /* "stat", or "suite run" for a sub-command */
	const char *synopsis;   /* each form's operands, '\n' between forms;
				 "[options]" stands for the option table */
	const char *about;      /* what it does: --help's text before options */
	const struct opt *opts; /* the option table, ending with OPT_END */
	const char *epilogue;   /* --help's text after the options, or NULL */
	int (*exec)(int argc, char **argv);
};

/* The table, NULL-terminated, in cmd_table.c (which declares the
 * entries: each cmd_<name>.c declares its own before it uses it). */
extern const struct cmd_entry *const cmd_table[];

/* Prints "perfreg: MSG" for a library error on stderr. */
void cli_error(const struct pr_error *err);

/* Prints "perfreg: " and a printf-style message on stderr, newline added. */
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Prints the one line of a usage error: "perfreg: NAME: MSG; see
 * 'perfreg NAME --help'".  Returns PR_EXIT_USAGE.
 */
int cli_usage_error(const struct cmd_entry *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * The usage error of an operand e does not take: "unexpected argument
 * 'X'", with "did you mean 'NAME SUB'?" when X is close to one of e's
 * sub-commands.  Returns PR_EXIT_USAGE.
 */
int cli_unexpected(const struct cmd_entry *e, const char *arg);

/* Writes the buffer to stdout; PR_EXIT_INTERNAL if that fails. */
int cli_write(const struct pr_buf *b);

/* Writes j to stdout, indented, with a final newline; PR_EXIT_INTERNAL
 * (and a message) if that fails. */
int cli_write_json(json_t *j);

/*
 * Reads a --seed argument: a whole number from 0 to UINT64_MAX, nothing
 * else (no sign, no blanks).  On error prints "perfreg: CMD: --seed: ..."
 * and returns -1.
 */
int cli_parse_seed(const char *cmd, const char *arg, uint64_t *out);

/*
 * Opens the results database: db (--db) or, when NULL, the default
 * (pr_store_default_target from $PERFREG_DB, $XDG_DATA_HOME, $HOME),
 * waiting $PERFREG_DB_BUSY_MS for a lock (default 5000 ms).  On error prints "perfreg: CMD: ..." and
 * returns the exit status; PR_EXIT_OK with *out set otherwise.
 */
int cli_store_open(const char *cmd, const char *db, enum pr_store_mode mode,
    struct pr_store **out);
/* Before storing a measurement of wall_s seconds: the lock is waited for
 * as long as it took, unless $PERFREG_DB_BUSY_MS says (cli_store.c). */
void cli_store_wait_for(struct pr_store *st, double wall_s);

/* The --db row of the commands that open the results database. */
#define CLI_OPT_DB(type, member) \
	OPT_STRING(0, "db", "target", \
	    "the database: a file (SQLite) or postgresql://... (default: " \
	    "$PERFREG_DB, else $XDG_DATA_HOME/perfreg/perfreg.db)", \
	    type, member, 0, NULL)

/* The options of a command that takes only --db target and --json
 * (campaigns, import): struct cli_db_json and its rows. */
struct cli_db_json {
	const char *db;
	int json;
};

#define CLI_OPT_DB_JSON(json_help) \
	CLI_OPT_DB(struct cli_db_json, db), \
	    OPT_FLAG(0, "json", json_help, struct cli_db_json, json, 1)

/*
 * Parses the options of such a command (e, whose table is made of
 * CLI_OPT_DB_JSON).  Returns the index of the first operand, or -1 after
 * printing the usage error.
 */
int cli_db_json_opts(int argc, char **argv, const struct cmd_entry *e,
    const char **db, int *json);

/* This host's name and this boot's id ("unknown" when unreadable;
 * $PERFREG_BOOT_ID when set, for tests and containers). */
void cli_hostname(char *buf, size_t size);
void cli_boot_id(char *buf, size_t size);

/* pr_env_opts_init, and this process's environment handed in (the
 * variables a snapshot records, pr_env_process_vars: the library never
 * reads the environment). */
struct pr_env_opts;
void cli_env_opts(struct pr_env_opts *o);

/* Appends s with backslashes doubled and bytes outside printable ASCII
 * as \xNN, so that any stored name prints on one line. */
enum pr_status cli_str_escape(struct pr_buf *b, struct pr_str s,
    struct pr_error *err);

/* s as a JSON string: as it is when valid UTF-8 without NUL, else
 * escaped as by cli_str_escape.  NULL when out of memory. */
json_t *cli_str_json(struct pr_str s);

/* A Unix time as "YYYY-MM-DD HH:MM:SS" (UTC) in buf; "-" for none. */
char *cli_time(double t, char *buf, size_t size);

/* Maps a library status to an exit code (ENOMEM/EIO on output: 3, else
 * 2). */
int cli_exit_for(enum pr_status st);

/* Loads a snapshot file (perfreg env --json) into e (initialised,
 * empty); 0, or prints the error and returns the exit status.  In
 * cmd_env.c. */
int cli_env_load(const char *name, struct pr_env *e);

#endif /* PERFREG_CLI_CMD_H */
