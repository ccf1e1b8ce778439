/* tests/run/progs/setpgid_hang.c - moves itself out of the process group
 * perfreg made for it, into the process group of its parent (perfreg's
 * own), then prints a line and sleeps forever: killing the group perfreg
 * made no longer reaches it (issue 12: `run --timeout 1
 * a=./setpgid_hang` waited forever in wait4). */
#include <stdio.h>
#include <unistd.h>

int
main(void)
{
	pid_t pg = getpgid(getppid());

	if (pg < 0 || setpgid(0, pg) != 0) {
		perror("setpgid");
		return 1;
	}
	puts("moved");
	fflush(stdout);
	for (;;)
		pause();
}
