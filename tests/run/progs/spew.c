/* tests/run/progs/spew.c - writes MB megabytes (argv[1], default 50) of
 * 'x' lines to standard output, then exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	static char block[1 << 16];
	long mb = argc > 1 ? strtol(argv[1], NULL, 10) : 50;
	long i, n;
	ssize_t w;
	size_t off;

	memset(block, 'x', sizeof(block));
	for (i = 63; i < (long)sizeof(block); i += 64)
		block[i] = '\n';
	n = mb * 16;
	for (i = 0; i < n; i++) {
		for (off = 0; off < sizeof(block); off += (size_t)w) {
			w = write(1, block + off, sizeof(block) - off);
			if (w <= 0)
				return 1;
		}
	}
	return 0;
}
