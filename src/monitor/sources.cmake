# One line per file, so that a file can be added with a single append.
list(APPEND PR_LIB_SOURCES src/monitor/monitor.c)
list(APPEND PR_LIB_SOURCES src/monitor/perf_linux.c)
list(APPEND PR_LIB_SOURCES src/monitor/procstat.c)
list(APPEND PR_LIB_SOURCES src/monitor/softirqs.c)
list(APPEND PR_LIB_SOURCES src/monitor/interrupts.c)
list(APPEND PR_LIB_SOURCES src/monitor/vmstat.c)
list(APPEND PR_LIB_SOURCES src/monitor/schedstat.c)
