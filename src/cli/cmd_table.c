/*
 * cli/cmd_table.c - the list of subcommands, in the order of `perfreg
 * --help`.  Adding one adds one line here: X(name) for the entry
 * cmd_<name>_entry of src/cli/cmd_<name>.c (a sub-command such as
 * `suite run` is X(suite_run), listed after its parent).
 */
#include <stddef.h>

#include "cli/cmd.h"

#define CMD_ENTRIES(X) \
	X(compare) \
	X(env) \
	X(env_diff) \
	X(run) \
	X(bisect) \
	X(bisect_run_step) \
	X(parse) \
	X(stat) \
	X(suite) \
	X(suite_run) \
	X(suite_list) \
	X(suite_history) \
	X(suite_ab) \
	X(campaigns) \
	X(show) \
	X(export) \
	X(import) \
	X(changepoints) \
	X(history)

#define DECLARE(name) extern const struct cmd_entry cmd_##name##_entry;
#define ADDRESS(name) &cmd_##name##_entry,

CMD_ENTRIES(DECLARE)

const struct cmd_entry *const cmd_table[] = { CMD_ENTRIES(ADDRESS) NULL };
