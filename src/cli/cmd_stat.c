/*
 * cli/cmd_stat.c - `perfreg stat` (being written).
 */
#include "cli/cmd.h"

static int
exec_stat(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_errorf("stat: not built yet");
	return PR_EXIT_USAGE;
}

const struct cmd_entry cmd_stat_entry = {
	"stat", "stat ...", "", exec_stat
};
