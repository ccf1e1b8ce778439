/*
 * parse/numbers.c - ministat's input format: a number per line, or a
 * column of delimited lines, '#' comments.
 *
 * The rules are ministat's (FreeBSD usr.bin/ministat, as Debian ships
 * it): trailing white space is trimmed from each line; the line is split
 * at any of the delimiter characters, runs of delimiters counting as one
 * (strtok's rule, so leading delimiters are ignored); walking the fields
 * up to the wanted column, a field that starts with '#' ends the line (a
 * comment); a line with fewer fields is skipped; the field in the column
 * must be a number, white space around it allowed.  Deliberately unlike
 * ministat, perfreg stops with an error naming the file and line on a
 * field that is not a finite decimal number (ministat accepts "nan",
 * "inf" and hex, and silently turns an overflow into inf), on NUL bytes,
 * control characters and invalid UTF-8 (binary data), on lines longer
 * than PR_READ_LINE_MAX, and on an input with no numbers at all.  A
 * UTF-8 byte order mark at the start is skipped.
 *
 * Speed: the file is read with read(2) into one buffer (1 MiB, less for a
 * small file; grown while a line does not fit, up to PR_READ_LINE_MAX
 * plus 1 MiB) and scanned in place.  When the column is 1 and no delimiter
 * can occur inside a number, a line that is a number and a newline (the
 * common case) is read straight from the buffer: up to 15 digits with at
 * most one '.' by pr_swar_plain_line (core/swar.h, 16 bytes at a time),
 * any other number by pr_parse_double; only other lines are cut with
 * memchr and checked byte by byte.  Values
 * go straight into the sample; for a large regular file it is reserved
 * once for the most values the file can hold (see reserve_for), else it
 * grows by doubling.  Resident memory: the values plus the buffer, and
 * the values are at most PR_READ_VALUES_MAX (`yes 1 | perfreg stat` used
 * to grow until the machine ran out of memory).
 *
 * Several files at once: parse/each.c (pr_read_numbers_each).
 *
 * As an input format of perfreg/read.h (pr_bench_numbers, at the end), a
 * file is streamed through pr_read_numbers; an input already in memory
 * (standard input, which detection had to load) is handed to it through
 * an anonymous memory file (memfd_create: no directory, no TMPDIR read).
 */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h> /* memfd_create, MFD_CLOEXEC */
#include <sys/stat.h>
#include <unistd.h>

#include "perfreg/numparse.h"
#include "perfreg/read.h"
#include "parse/bench.h"
#include "parse/readers.h"
#include "core/sortkey.h"
#include "core/swar.h"
#include "core/banned.h"

/* Reads are of up to CHUNK bytes; the buffer starts smaller for small
 * inputs and grows while one line does not fit, up to BUF_MAX. */
#define CHUNK ((size_t)1 << 20)
#define BUF_MIN ((size_t)64 << 10)
#define BUF_MAX ((size_t)PR_READ_LINE_MAX + 1 + CHUNK)
/* The fast path looks this far for the end of a number; longer numbers
 * take the general path, which bounds them by the line limit. */
#define FAST_WINDOW 64

struct reader {
	int fd;
	int own_fd; /* opened here, closed here */
	const char *name;
	char *buf;
	size_t cap;
	size_t pos; /* unread data is buf[pos, len) */
	size_t len;
	int eof;
	long line; /* lines consumed so far */
	unsigned char delim[256];
	int column;
	int fields; /* the most fields of a line skipped for too few */
	struct pr_sample *out;
	size_t max;   /* values this input may add */
	size_t n_end; /* so out may hold this many */
	/* When the caller asks for the range of the sort keys: the smallest
	 * and largest of the values out->v[n0, ranged), two of each for two
	 * chains; range_add takes in the rest while they are still in
	 * cache, before each refill and once the input ends. */
	int ranging;
	double lo[2], hi[2];
	size_t ranged;
};

static void
range_add(struct reader *r)
{
	const double *v = r->out->v;
	size_t i, n = r->out->n;
	double lo0 = r->lo[0], lo1 = r->lo[1], hi0 = r->hi[0], hi1 = r->hi[1];

	if (!r->ranging)
		return;
	for (i = r->ranged; i + 1 < n; i += 2) {
		lo0 = v[i] < lo0 ? v[i] : lo0;
		hi0 = v[i] > hi0 ? v[i] : hi0;
		lo1 = v[i + 1] < lo1 ? v[i + 1] : lo1;
		hi1 = v[i + 1] > hi1 ? v[i + 1] : hi1;
	}
	for (; i < n; i++) {
		lo0 = v[i] < lo0 ? v[i] : lo0;
		hi0 = v[i] > hi0 ? v[i] : hi0;
	}
	r->lo[0] = lo0;
	r->lo[1] = lo1;
	r->hi[0] = hi0;
	r->hi[1] = hi1;
	r->ranged = n;
}

/*
 * The smallest and largest sort key of out->v[from, n), n > from, from
 * the smallest and largest values: a value's key grows with it, but for
 * the zeros (-0 has the smaller key, and `<` does not tell them apart),
 * so a range that ends at a zero is found from the keys themselves.
 */
static void
range_keys(const struct reader *r, size_t from, uint64_t *keys)
{
	const double *v = r->out->v;
	double lo = r->lo[0] < r->lo[1] ? r->lo[0] : r->lo[1];
	double hi = r->hi[0] > r->hi[1] ? r->hi[0] : r->hi[1];
	uint64_t k;
	size_t i;

	if (lo != 0 && hi != 0) {
		keys[0] = pr_sort_key(lo);
		keys[1] = pr_sort_key(hi);
		return;
	}
	keys[0] = UINT64_MAX;
	keys[1] = 0;
	for (i = from; i < r->out->n; i++) {
		k = pr_sort_key(v[i]);
		keys[0] = k < keys[0] ? k : keys[0];
		keys[1] = k > keys[1] ? k : keys[1];
	}
}

static int
isspc(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	    c == '\r';
}

static enum pr_status
sys_fail(struct pr_error *err, const char *name, const char *what, int e)
{
	enum pr_status st = e == ENOENT ? PR_ENOTFOUND : PR_EIO;

	pr_error_at(err, st, name, 0, 0, "%s: %s", what, strerror(e));
	if (err != NULL)
		err->sys_errno = e;
	return st;
}

/*
 * Moves the unread data to the front and reads more after it.  The
 * unread data are at most PR_READ_LINE_MAX bytes of one line (the caller
 * checks), so a buffer they fill can grow and there is always room.
 */
static enum pr_status
refill(struct reader *r, struct pr_error *err)
{
	ssize_t n;
	size_t ncap;
	char *p;

	range_add(r);
	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
	}
	if (r->len == r->cap) {
		ncap = r->cap * 2 < BUF_MAX ? r->cap * 2 : BUF_MAX;
		if ((p = realloc(r->buf, ncap)) == NULL)
			return pr_error_at(err, PR_ENOMEM, r->name, r->line + 1,
			    0, "out of memory for a line of %zu bytes", r->len);
		r->buf = p;
		r->cap = ncap;
	}
	do
		n = read(r->fd, r->buf + r->len, r->cap - r->len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return sys_fail(err, r->name, "cannot read", errno);
	if (n == 0)
		r->eof = 1;
	r->len += (size_t)n;
	return PR_OK;
}

/*
 * For a regular file of size bytes, reserves room for the most values it
 * can hold (a digit and a newline each), so that the sample is never
 * reallocated while reading.  Only the pages written become resident,
 * and pr_read_numbers gives the rest back at the end.  No huge pages are
 * asked for (MADV_HUGEPAGE): on this kind of virtual machine the host
 * takes freed blocks of 2 MiB back (virtio-balloon free page reporting)
 * and the next fault on one pays the host's fault inside the guest's
 * zeroing: 160 MB in huge pages took 0.37-0.39 s of CPU to touch against
 * 0.06-0.09 s in 4 KiB pages, and `stat -A` of two %.6f files of 10^7
 * values 0.83-0.87 s against 0.55-0.58 s; the system's THP setting
 * applies.  Best effort: when the reservation is refused, the sample
 * grows by doubling as usual.
 */
static void
reserve_for(struct pr_sample *s, off_t size, size_t max)
{
	size_t want;

	if (size < (off_t)(4 << 20) ||
	    (uintmax_t)size / 2 + 1 > SIZE_MAX / sizeof(double) / 2)
		return;
	want = (size_t)size / 2 + 1;
	if (want > max)
		want = max;
	(void)pr_sample_reserve(s, want, NULL);
}

static enum pr_status
push(struct reader *r, double x, struct pr_error *err)
{
	struct pr_sample *s = r->out;
	enum pr_status st;

	if (s->n == r->n_end)
		return pr_error_at(err, PR_ELIMIT, r->name, r->line + 1, 0,
		    "more than %zu values in one input", r->max);
	if (s->n == s->cap && (st = pr_sample_reserve(s, 1, err)) != PR_OK)
		return st;
	s->v[s->n++] = x;
	return PR_OK;
}

/* One line, [s, e) without its newline, by ministat's rules. */
static enum pr_status
do_line(struct reader *r, const char *s, const char *e, struct pr_error *err)
{
	struct pr_input in = { .name = r->name,
		.data = s,
		.len = (size_t)(e - s) };
	struct pr_error perr;
	const char *lstart = s, *t;
	enum pr_status st;
	double x;
	int col = 0;

	if ((st = pr_read_check_text(&in, 1, err)) != PR_OK) {
		if (err != NULL)
			err->line = r->line;
		return st;
	}
	if (r->line == 1 && e - s >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		s += 3;
	while (e > s && isspc(e[-1]))
		e--;
	for (;;) {
		while (s < e && r->delim[(unsigned char)*s])
			s++;
		if (s == e || *s == '#') {
			if (col > r->fields)
				r->fields = col;
			return PR_OK;
		}
		t = s;
		while (s < e && !r->delim[(unsigned char)*s])
			s++;
		if (++col == r->column)
			break;
	}
	/* The field is [t, s): strtod skips leading white space, and
	 * perfreg allows it after the number too. */
	while (t < s && isspc(*t))
		t++;
	while (s > t && isspc(s[-1]))
		s--;
	pr_error_clear(&perr);
	if ((st = pr_parse_double_all(t, s, &x, &perr)) != PR_OK)
		return pr_error_at(err, st, r->name, r->line,
		    (long)(t - lstart) + 1, "%s", perr.msg);
	return push(r, x, err);
}

/*
 * Whether a number can be read straight from the buffer: column 1, and
 * no delimiter that could occur inside a number.
 */
static int
fast_ok(const struct reader *r)
{
	const char *c;

	if (r->column != 1)
		return 0;
	for (c = "0123456789+-.eE"; *c != '\0'; c++)
		if (r->delim[(unsigned char)*c])
			return 0;
	return 1;
}

/*
 * The commonest lines, digits with at most one '.', in one go from p
 * (core/swar.h: the same bits), while 16 bytes are left before e and the
 * sample has room; the counts kept in locals, out of the loop's memory
 * traffic.  A line too long for pr_swar_plain_line (16 to 19 digits, as
 * %.17g writes) is taken by pr_swar_decimal_line when 24 bytes are left,
 * its digits converted as pr_parse_double converts them: stat on two
 * files of 10^7 %.17g values spent a third of its time in
 * pr_parse_double's digit loops and their branches (bench/README.md,
 * session 15).  Returns where it stopped.
 */
static const char *
plain_lines(struct reader *r, const char *p, const char *e)
{
	struct pr_sample *s = r->out;
	size_t n = s->n, lim = s->cap < r->n_end ? s->cap : r->n_end;
	double *v = s->v, x;
	long line = r->line;
	const char *nl;
	uint64_t w;
	unsigned frac;

	while (n < lim && e - p >= 16) {
		if (pr_swar_plain_line(p, &x, &nl))
			;
		else if (e - p < 24 || !pr_swar_decimal_line(p, &w, &frac, &nl))
			break;
		else if (w == 0)
			x = 0;
		else if (!pr_parse_decimal(w, -(long)frac, &x))
			break;
		v[n++] = x;
		line++;
		p = nl + 1;
	}
	s->n = n;
	r->line = line;
	return p;
}

static enum pr_status
scan(struct reader *r, struct pr_error *err)
{
	const char *p, *e, *nl, *stop, *w;
	enum pr_status st;
	int fast = fast_ok(r);
	double x;

	for (;;) {
		p = r->buf + r->pos;
		e = r->buf + r->len;
		if (fast)
			p = plain_lines(r, p, e);
		while (fast && p < e &&
		    ((unsigned char)(*p - '0') < 10 || *p == '-' || *p == '.' ||
			*p == '+')) {
			w = e - p > FAST_WINDOW ? p + FAST_WINDOW : e;
			if (pr_parse_double(p, w, &stop, &x, NULL) != PR_OK ||
			    stop == w || *stop != '\n')
				break;
			if ((st = push(r, x, err)) != PR_OK)
				return st;
			r->line++;
			p = stop + 1;
		}
		r->pos = (size_t)(p - r->buf);
		if (p == e) {
			if (r->eof)
				return PR_OK;
			if ((st = refill(r, err)) != PR_OK)
				return st;
			continue;
		}
		nl = memchr(p, '\n', (size_t)(e - p));
		if (nl == NULL && !r->eof) {
			if ((size_t)(e - p) > (size_t)PR_READ_LINE_MAX)
				goto toolong;
			if ((st = refill(r, err)) != PR_OK)
				return st;
			continue;
		}
		if (nl == NULL)
			nl = e;
		if ((size_t)(nl - p) > (size_t)PR_READ_LINE_MAX)
			goto toolong;
		r->line++;
		if ((st = do_line(r, p, nl, err)) != PR_OK)
			return st;
		r->pos = (size_t)(nl - r->buf) + (nl < e);
	}
toolong:
	return pr_error_at(err, PR_ELIMIT, r->name, r->line + 1, 0,
	    "line longer than %d bytes", PR_READ_LINE_MAX);
}

enum pr_status
pr_read_numbers(const char *path, int column, const char *delims,
    struct pr_sample *out, struct pr_error *err)
{
	return pr_read_numbers_max(path, column, delims, PR_READ_VALUES_MAX,
	    out, err);
}

enum pr_status
pr_read_numbers_max(const char *path, int column, const char *delims,
    size_t max, struct pr_sample *out, struct pr_error *err)
{
	return pr_read_numbers_keys(path, column, delims, max, out, NULL, err);
}

enum pr_status
pr_read_numbers_keys(const char *path, int column, const char *delims,
    size_t max, struct pr_sample *out, uint64_t *keys, struct pr_error *err)
{
	struct reader r;
	struct stat sb;
	size_t n0 = out->n;
	enum pr_status st;
	const char *d;

	if (column < 1)
		return pr_error_set(err, PR_EINVAL,
		    "column must be 1 or more, not %d", column);
	if (delims == NULL)
		delims = " \t";
	if (*delims == '\0')
		return pr_error_set(err, PR_EINVAL, "no delimiters given");
	memset(&r, 0, sizeof(r));
	for (d = delims; *d != '\0'; d++)
		r.delim[(unsigned char)*d] = 1;
	r.column = column;
	r.out = out;
	r.max = max;
	r.ranging = keys != NULL;
	r.lo[0] = r.lo[1] = HUGE_VAL;
	r.hi[0] = r.hi[1] = -HUGE_VAL;
	r.ranged = n0;
	r.n_end = max > SIZE_MAX - n0 ? SIZE_MAX : n0 + max;
	if (strcmp(path, "-") == 0) {
		r.fd = STDIN_FILENO;
		r.name = "<stdin>";
	} else {
		r.name = path;
		if ((r.fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			return sys_fail(err, path, "cannot open", errno);
		r.own_fd = 1;
	}
	r.cap = BUF_MIN;
	if (fstat(r.fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
		reserve_for(out, sb.st_size, max);
		/* The whole file and a byte to see its end, up to CHUNK. */
		if (sb.st_size >= (off_t)CHUNK)
			r.cap = CHUNK;
		else if (sb.st_size >= (off_t)BUF_MIN)
			r.cap = (size_t)sb.st_size + 1;
	}
	if ((r.buf = malloc(r.cap)) == NULL) {
		st = pr_error_at(err, PR_ENOMEM, r.name, 0, 0,
		    "out of memory for a read buffer");
		goto out;
	}
	if ((st = scan(&r, err)) == PR_OK && out->n == n0 && r.fields > 0)
		st = pr_error_at(err, PR_EPARSE, r.name, 0, 0,
		    "no column %d in the input: its lines have at most %d "
		    "field%s",
		    column, r.fields, r.fields == 1 ? "" : "s");
	else if (st == PR_OK && out->n == n0)
		st = pr_error_at(err, PR_EPARSE, r.name, 0, 0,
		    "no numbers in the input");
out:
	free(r.buf);
	if (r.own_fd)
		close(r.fd);
	if (st != PR_OK) {
		out->n = n0;
	} else {
		out->sorted = 0;
		if (keys != NULL) {
			range_add(&r);
			range_keys(&r, n0, keys);
		}
		/* The sample's own range (perfreg/sample.h): that of the
		 * values added, merged with the one it had, if it had one. */
		out->keyed = keys != NULL && (n0 == 0 || out->keyed);
		if (out->keyed && n0 == 0) {
			out->keys[0] = keys[0];
			out->keys[1] = keys[1];
		} else if (out->keyed) {
			out->keys[0] =
			    keys[0] < out->keys[0] ? keys[0] : out->keys[0];
			out->keys[1] =
			    keys[1] > out->keys[1] ? keys[1] : out->keys[1];
		}
	}
	pr_sample_shrink(out);
	return st;
}

/* --- the input format of perfreg/read.h --- */

/* Adds the values read (vals, left empty) as the one metric of out. */
static enum pr_status
add_numbers(struct pr_sample *vals, const char *name,
    const struct pr_read_opts *o, struct pr_dataset *out, struct pr_error *err)
{
	struct pr_metric *m;
	struct pr_sample t;
	enum pr_status st;

	if (vals->n == 0)
		return pr_error_at(err, PR_EPARSE, name, 0, 0, "no values");
	if ((st = pr_dataset_get(out, o->name != NULL ? o->name : "value", "",
		 PR_BETTER_UNKNOWN, &m, err)) != PR_OK)
		return st;
	t = m->values;
	m->values = *vals;
	*vals = t;
	return PR_OK;
}

static enum pr_status
read_numbers_path(const char *path, const char *name,
    const struct pr_read_opts *o, struct pr_dataset *out, struct pr_error *err)
{
	struct pr_sample vals;
	enum pr_status st;
	uint64_t keys[2];

	/* With the range of the sort keys, which compare's sort then need
	 * not look for (perfreg/sample.h). */
	pr_sample_init(&vals);
	st = pr_read_numbers_keys(path, 1, " \t", PR_READ_VALUES_MAX, &vals,
	    keys, err);
	if (st == PR_OK)
		st = add_numbers(&vals, name, o, out, err);
	pr_sample_release(&vals);
	return st;
}

/*
 * pr_read_numbers reads from a path: an input already in memory is
 * written to an anonymous memory file and read back through its /dev/fd
 * path; messages then get the input's own name.
 */
static enum pr_status
read_numbers_mem(const struct pr_input *in, const struct pr_read_opts *o,
    struct pr_dataset *out, struct pr_error *err)
{
	char path[64];
	size_t off = 0;
	ssize_t w;
	enum pr_status st;
	int fd;

	if ((fd = memfd_create("perfreg-input", MFD_CLOEXEC)) < 0)
		return sys_fail(err, in->name, "cannot create a temporary file",
		    errno);
	while (off < in->len) {
		w = write(fd, in->data + off, in->len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			st = sys_fail(err, in->name,
			    "cannot write a temporary file",
			    w < 0 ? errno : EIO);
			close(fd);
			return st;
		}
		off += (size_t)w;
	}
	snprintf(path, sizeof(path), "/dev/fd/%d", fd);
	st = read_numbers_path(path, in->name, o, out, err);
	close(fd);
	if (st != PR_OK && err != NULL)
		snprintf(err->file, sizeof(err->file), "%s", in->name);
	return st;
}

/* What is left: any text that is not JSON, so that a word where a number
 * belongs is reported here at its line. */
static unsigned
detect_numbers(const struct pr_input *in)
{
	const char *p = pr_read_text_start(in);

	return p != NULL && *p != '{' ? PR_DETECT_FALLBACK : 0;
}

const struct pr_bench_format pr_bench_numbers = {
	.name = "numbers",
	.description = "one number a line (ministat's input)",
	.detect = detect_numbers,
	.read = read_numbers_mem,
	.read_path = read_numbers_path,
	.max_bytes = PR_READ_FILE_MAX,
	.flags = PR_BENCH_OWN_COLUMN, /* one metric: the column is ignored */
};
