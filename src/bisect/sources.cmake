list(APPEND PR_LIB_SOURCES src/bisect/bisect.c)
