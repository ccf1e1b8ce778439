/*
 * cli/cmd_table.c - the list of subcommands.  Adding one adds one line.
 */
#include <stddef.h>

#include "cli/cmd.h"

const struct cmd_entry *const cmd_table[] = { &cmd_compare_entry,
	&cmd_env_entry, &cmd_env_diff_entry, &cmd_run_entry, &cmd_parse_entry,
	&cmd_stat_entry, &cmd_suite_entry, &cmd_suite_run_entry,
	&cmd_suite_list_entry, &cmd_suite_history_entry, &cmd_suite_ab_entry,
	&cmd_campaigns_entry, &cmd_show_entry, &cmd_export_entry,
	&cmd_import_entry, &cmd_changepoints_entry, &cmd_history_entry, NULL };
