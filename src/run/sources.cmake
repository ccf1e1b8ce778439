# One line per file, so that a file can be added with a single append.
list(APPEND PR_LIB_SOURCES src/run/spawn.c)
list(APPEND PR_LIB_SOURCES src/run/split.c)
list(APPEND PR_LIB_SOURCES src/run/runner.c)
list(APPEND PR_LIB_SOURCES src/run/env.c)
