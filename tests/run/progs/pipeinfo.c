/* tests/run/progs/pipeinfo.c - what a command sees of its standard
 * output and error.  "show" prints, for descriptors 1 and 2, the inode
 * of the pipe (the same number in two runs: the same pipe), whether the
 * open file is non-blocking, and the pipe's capacity; "nonblock" sets
 * O_NONBLOCK on both (as some runtimes do to their standard streams);
 * "resize" shrinks both pipes to one page; "fill" grows standard
 * output's pipe to 1 MiB and fills it in one write (a reader is woken
 * once the write is whole), then sleeps until killed.  Exits 0, or 1 on
 * an error. */
#define _GNU_SOURCE /* F_GETPIPE_SZ */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct stat st;
	int fd, fl;

	static char block[1 << 20];
	ssize_t w;
	size_t off;

	if (argc < 2)
		return 1;
	if (strcmp(argv[1], "fill") == 0) {
		if (fcntl(1, F_SETPIPE_SZ, (int)sizeof(block)) < 0)
			return 1;
		memset(block, 'x', sizeof(block));
		for (off = 0; off < sizeof(block); off += (size_t)w)
			if ((w = write(1, block + off, sizeof(block) - off)) <=
			    0)
				return 1;
		for (;;)
			pause();
	}
	for (fd = 1; fd <= 2; fd++) {
		if ((fl = fcntl(fd, F_GETFL)) < 0 || fstat(fd, &st) != 0)
			return 1;
		if (strcmp(argv[1], "nonblock") == 0 &&
		    fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0)
			return 1;
		if (strcmp(argv[1], "resize") == 0 &&
		    fcntl(fd, F_SETPIPE_SZ, 4096) < 0)
			return 1;
		if (strcmp(argv[1], "show") == 0)
			printf("fd %d ino=%lu nonblock=%d size=%d\n", fd,
			    (unsigned long)st.st_ino, (fl & O_NONBLOCK) != 0,
			    fcntl(fd, F_GETPIPE_SZ));
	}
	return 0;
}
