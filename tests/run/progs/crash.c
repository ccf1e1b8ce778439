/* tests/run/progs/crash.c - dies of SIGSEGV (raised, so that no compiler
 * or sanitizer can turn it into something else). */
#include <signal.h>
#include <stdio.h>

int
main(void)
{
	puts("about to crash");
	fflush(stdout);
	signal(SIGSEGV, SIG_DFL);
	raise(SIGSEGV);
	return 0;
}
