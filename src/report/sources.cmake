# One line per file, so that a file can be added with a single append.
list(APPEND PR_LIB_SOURCES src/report/compare.c)
list(APPEND PR_LIB_SOURCES src/report/stat.c)
list(APPEND PR_LIB_SOURCES src/report/envdiff.c)
list(APPEND PR_LIB_SOURCES src/report/escape.c)
list(APPEND PR_LIB_SOURCES src/report/model.c)
list(APPEND PR_LIB_SOURCES src/report/changepoint.c)
list(APPEND PR_LIB_SOURCES src/report/run.c)
