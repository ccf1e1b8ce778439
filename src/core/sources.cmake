list(APPEND PR_LIB_SOURCES
	src/core/buf.c
	src/core/dataset.c
	src/core/error.c
	src/core/rng.c
	src/core/sample.c
)
