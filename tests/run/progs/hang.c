/* tests/run/progs/hang.c - prints a line, then sleeps forever. */
#include <stdio.h>
#include <unistd.h>

int
main(void)
{
	puts("hanging");
	fflush(stdout);
	for (;;)
		pause();
}
