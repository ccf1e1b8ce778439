/*
 * cli/cmd_compare.c - `perfreg compare` (being written).
 */
#include "cli/cmd.h"

static int
exec_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_errorf("compare: not built yet");
	return PR_EXIT_USAGE;
}

const struct cmd_entry cmd_compare_entry = {
	"compare", "compare ...", "", exec_compare
};
