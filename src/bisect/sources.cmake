list(APPEND PR_LIB_SOURCES src/bisect/bisect.c)
list(APPEND PR_LIB_SOURCES src/bisect/job.c)
