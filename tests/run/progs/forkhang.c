/* tests/run/progs/forkhang.c - forks a grandchild that hangs, writes the
 * grandchild's pid to the file argv[1], and hangs itself too: the
 * timeout must kill both (the whole process group). */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	FILE *f;
	pid_t pid;

	if (argc < 2)
		return 2;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		for (;;)
			pause();
	}
	f = fopen(argv[1], "w");
	if (f == NULL)
		return 1;
	fprintf(f, "%ld\n", (long)pid);
	fclose(f);
	puts("forked");
	fflush(stdout);
	for (;;)
		pause();
}
