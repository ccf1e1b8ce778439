# One line per file, so that a file can be added with a single append.
list(APPEND PR_LIB_SOURCES src/store/db_pg.c)
list(APPEND PR_LIB_SOURCES src/store/str.c)
list(APPEND PR_LIB_SOURCES src/store/db_sqlite.c)
list(APPEND PR_LIB_SOURCES src/store/stmt.c)
list(APPEND PR_LIB_SOURCES src/store/schema.c)
list(APPEND PR_LIB_SOURCES src/store/write.c)
list(APPEND PR_LIB_SOURCES src/store/query.c)
list(APPEND PR_LIB_SOURCES src/store/export.c)
