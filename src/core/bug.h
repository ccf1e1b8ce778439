/*
 * core/bug.h - PR_BUG() for states that cannot happen.
 *
 * PR_BUG reports the file and line of an impossible state on stderr and
 * aborts.  It is the one place where library code writes to stderr: a bug
 * in perfreg itself, never a problem with the user's input.
 */
#ifndef PERFREG_CORE_BUG_H
#define PERFREG_CORE_BUG_H

#include <stdio.h>
#include <stdlib.h>

#define PR_BUG(...) \
	do { \
		fprintf(stderr, "perfreg: BUG at %s:%d: ", __FILE__, \
		    __LINE__); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		abort(); \
	} while (0)

#endif /* PERFREG_CORE_BUG_H */
