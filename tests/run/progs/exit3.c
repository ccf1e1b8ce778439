/* tests/run/progs/exit3.c - prints to both streams and exits 3. */
#include <stdio.h>

int
main(void)
{
	printf("to stdout\n");
	fflush(stdout);
	fprintf(stderr, "to stderr\n");
	return 3;
}
