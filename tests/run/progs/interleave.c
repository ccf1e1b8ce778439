/* tests/run/progs/interleave.c - what seed 002's pipeline does by chance
 * (`dd ... | /usr/bin/time openssl dgst -md5`): a line on standard error
 * (GNU time's) is written in two pieces, and a line on standard output
 * (openssl's digest) comes in between.  Through one shared pipe the time
 * line is cut in two; through a pipe each, both lines are whole. */
#include <string.h>
#include <unistd.h>

static void
put(int fd, const char *s)
{
	size_t n = strlen(s);
	ssize_t w;

	while (n > 0 && (w = write(fd, s, n)) > 0) {
		s += w;
		n -= (size_t)w;
	}
}

int
main(void)
{
	put(2, "0.08user 2.53sys");
	put(1, "MD5(stdin)= fb1f5ec3ec6e6b8f2b2d8e3f6bd1bfa4\n");
	put(2,
	    "tem 0:04.83elapsed 54%CPU (0avgtext+0avgdata "
	    "2468maxresident)k\n0inputs+0outputs (0major+119minor)pagefaults "
	    "0swaps\n");
	return 0;
}
