# One line per file, so that a file can be added with a single append.
list(APPEND PR_LIB_SOURCES src/core/buf.c)
list(APPEND PR_LIB_SOURCES src/core/dataset.c)
list(APPEND PR_LIB_SOURCES src/core/error.c)
list(APPEND PR_LIB_SOURCES src/core/numparse.c)
list(APPEND PR_LIB_SOURCES src/core/rng.c)
list(APPEND PR_LIB_SOURCES src/core/sample.c)
list(APPEND PR_LIB_SOURCES src/core/envsnap.c)
list(APPEND PR_LIB_SOURCES src/core/jsonout.c)
