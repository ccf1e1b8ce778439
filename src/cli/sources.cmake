list(APPEND PR_CLI_SOURCES
	src/cli/main.c
	src/cli/cmd_table.c
	src/cli/cmd_compare.c
	src/cli/cmd_stat.c
)
