/* tests/run/progs/escape.c - forks a grandchild that leaves the process
 * group (setsid), closes the pipes it inherited, writes its pid to the
 * file argv[1] and sleeps forever; then exits 0 (or, with a second
 * argument "hang", sleeps forever itself).  Only a subreaper can find the
 * grandchild: pr_spawn_run with reap_orphans must kill it. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	char tmp[4096];
	FILE *f;
	pid_t pid;
	int fd;

	if (argc < 2 || strlen(argv[1]) > sizeof(tmp) - 8)
		return 2;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		setsid();
		/* Not holding the pipes: the run must not end by the drain's
		 * bound, but by the kill. */
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 1);
		dup2(fd, 2);
		/* The file appears whole, so the parent's wait below sees
		 * the whole pid. */
		snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
		if ((f = fopen(tmp, "w")) == NULL)
			return 1;
		fprintf(f, "%ld\n", (long)getpid());
		fclose(f);
		rename(tmp, argv[1]);
		for (;;)
			pause();
	}
	/* Exit only once the grandchild has left the group. */
	while (access(argv[1], F_OK) != 0)
		usleep(1000);
	puts("escaped");
	fflush(stdout);
	if (argc > 2)
		for (;;)
			pause();
	return 0;
}
