# One line per file, so that a file can be added with a single append.
list(APPEND PR_LIB_SOURCES src/stats/describe.c)
list(APPEND PR_LIB_SOURCES src/stats/distrib.c)
list(APPEND PR_LIB_SOURCES src/stats/mwu.c)
list(APPEND PR_LIB_SOURCES src/stats/ratio.c)
list(APPEND PR_LIB_SOURCES src/stats/ttest.c)
list(APPEND PR_LIB_SOURCES src/stats/verdict.c)
list(APPEND PR_LIB_SOURCES src/stats/paired.c)
list(APPEND PR_LIB_SOURCES src/stats/seq.c)
list(APPEND PR_LIB_SOURCES src/stats/nested.c)
<<<<<<< HEAD
list(APPEND PR_LIB_SOURCES src/stats/changepoint.c)
=======
list(APPEND PR_LIB_SOURCES src/stats/moderated.c)
>>>>>>> main
