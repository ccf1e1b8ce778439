# One line per file, so that a file can be added with a single append.
list(APPEND PR_LIB_SOURCES src/parse/numbers.c)
list(APPEND PR_LIB_SOURCES src/parse/read.c)
list(APPEND PR_LIB_SOURCES src/parse/units.c)
list(APPEND PR_LIB_SOURCES src/parse/json.c)
list(APPEND PR_LIB_SOURCES src/parse/csv.c)
list(APPEND PR_LIB_SOURCES src/parse/hyperfine.c)
list(APPEND PR_LIB_SOURCES src/parse/gobench.c)
list(APPEND PR_LIB_SOURCES src/parse/perfregjson.c)
