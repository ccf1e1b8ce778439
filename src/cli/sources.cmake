# One line per file, so that a file can be added with a single append.
list(APPEND PR_CLI_SOURCES src/cli/main.c)
list(APPEND PR_CLI_SOURCES src/cli/cmd_table.c)
list(APPEND PR_CLI_SOURCES src/cli/cmd_compare.c)
list(APPEND PR_CLI_SOURCES src/cli/cmd_stat.c)
list(APPEND PR_CLI_SOURCES src/cli/cmd_parse.c)
list(APPEND PR_CLI_SOURCES src/cli/cmd_run.c)
list(APPEND PR_CLI_SOURCES src/cli/cmd_env.c)
