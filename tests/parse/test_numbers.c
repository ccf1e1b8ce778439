/*
 * tests/parse/test_numbers.c - pr_read_numbers: ministat's input rules
 * and every bad input of the issue.
 *
 * The good inputs under tests/data/numbers/ were also fed to ministat
 * 20150715 (Debian 12); the expected values below are the ones it read,
 * except where perfreg differs on purpose (said at each case).  Large
 * and binary inputs are written at test time into a temporary directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/sortkey.h"
#include "parse/readers.h"
#include "perfreg/error.h"
#include "perfreg/read.h"
#include "perfreg/rng.h"
#include "perfreg/sample.h"

#define DATA "tests/data/numbers/"
#define TOOLONG "line longer than 1048576 bytes"

static char tmpdir[256];

static int
setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/perfreg-numbers.XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Writes len bytes to a file in the temporary directory; its path. */
static const char *
write_tmp(const char *name, const void *data, size_t len)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* Reads path and checks the values, in order. */
static void
expect_values(const char *path, int column, const char *delims,
    const double *want, size_t n)
{
	struct pr_sample s = PR_SAMPLE_INIT;
	struct pr_error err;
	size_t i;

	pr_error_clear(&err);
	if (pr_read_numbers(path, column, delims, &s, &err) != PR_OK)
		fail_msg("%s: %s", path, err.msg);
	assert_int_equal(s.n, n);
	for (i = 0; i < n; i++)
		if (s.v[i] != want[i])
			fail_msg("%s: value %zu is %.17g, not %.17g", path, i,
			    s.v[i], want[i]);
	assert_int_equal(s.sorted, 0);
	pr_sample_release(&s);
}

/*
 * Reads path, expects failure with status st at line (0: none), and the
 * formatted message "FILE[:LINE]: msg".  A sample holding one value must
 * come back holding just that value.
 */
static void
expect_error(const char *path, int column, const char *delims,
    enum pr_status st, long line, const char *msg)
{
	struct pr_sample s = PR_SAMPLE_INIT;
	struct pr_error err;
	char want[1024], got[1024];

	pr_error_clear(&err);
	assert_int_equal(pr_sample_push(&s, 42.0, NULL), PR_OK);
	assert_int_equal(pr_read_numbers(path, column, delims, &s, &err), st);
	assert_int_equal(err.status, st);
	assert_int_equal(err.line, line);
	if (line > 0)
		snprintf(want, sizeof(want), "%s:%ld: %s", path, line, msg);
	else
		snprintf(want, sizeof(want), "%s: %s", path, msg);
	assert_string_equal(pr_error_format(&err, got, sizeof(got)), want);
	assert_int_equal(s.n, 1);
	assert_true(s.v[0] == 42.0);
	pr_sample_release(&s);
}

static void
test_ministat_rules(void **state)
{
	/* ministat -n reads these nine (N 9, min -10, max 6.5, avg
	 * 2.1666667): blank and white lines and comments skipped, trailing
	 * comment dropped, second field of "6.5 7.5" ignored. */
	static const double ministat[] = { 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, -10,
		0.5, 5 };
	static const double three[] = { 1, 2, 3 };

	(void)state;
	expect_values(DATA "ministat.txt", 1, " \t", ministat, 9);
	expect_values(DATA "ministat.txt", 1, NULL, ministat, 9);
	expect_values(DATA "crlf.txt", 1, " \t", three, 3);
	expect_values(DATA "nonewline.txt", 1, " \t", three, 3);
	/* ministat rejects the byte order mark; perfreg skips it. */
	expect_values(DATA "bom.txt", 1, " \t", three, 3);
}

static void
test_columns(void **state)
{
	/* -C 2 -d ,: runs of delimiters are one ("b,,2.5"), short lines
	 * ("c") and fields starting with '#' ("f,#9,9") skipped.  ministat
	 * stops at " 4 " (space after the number); perfreg allows it. */
	static const double c2[] = { 1.25, 2.5, 3, 4 };
	/* -C 3: what ministat reads (100, 300, 400). */
	static const double c3[] = { 100, 300, 400 };
	/* Delimiters that occur in numbers: -d . -C 2 as ministat does. */
	static const double dots[] = { 5, 25, 125 };
	static const double dots1[] = { 1, 2, 3 };

	(void)state;
	expect_values(DATA "columns.csv", 2, ",", c2, 4);
	expect_values(DATA "columns.csv", 3, ",", c3, 3);
	expect_values(DATA "dots.txt", 2, ".", dots, 3);
	expect_values(DATA "dots.txt", 1, ".", dots1, 3);
	/* Which column is missing, and how many the lines have (review of
	 * session 15: it said "no numbers in the input"). */
	expect_error(DATA "columns.csv", 4, ",", PR_EPARSE, 0,
	    "no column 4 in the input: its lines have at most 3 fields");
	expect_error(DATA "columns.csv", 1, ",", PR_EPARSE, 2,
	    "expected a number, got 'a'");
}

static void
test_bad_numbers(void **state)
{
	static const struct {
		const char *file;
		enum pr_status st;
		long line;
		const char *msg;
	} cases[] = {
		{ "words.txt", PR_EPARSE, 4, "expected a number, got 'abc'" },
		{ "glued.txt", PR_EPARSE, 3, "expected a number, got '5#x'" },
		{ "nan.txt", PR_EPARSE, 3, "not a finite number: 'nan'" },
		{ "inf.txt", PR_EPARSE, 4, "not a finite number: '-Infinity'" },
		{ "huge.txt", PR_ERANGE, 2, "number out of range: '1e999'" },
		{ "hex.txt", PR_EPARSE, 2,
		    "hexadecimal numbers are not accepted: '0x10'" },
		{ "empty.txt", PR_EPARSE, 0, "no numbers in the input" },
		{ "comments.txt", PR_EPARSE, 0, "no numbers in the input" },
	};
	char path[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(path, sizeof(path), DATA "%s", cases[i].file);
		expect_error(path, 1, NULL, cases[i].st, cases[i].line,
		    cases[i].msg);
	}
}

static void
test_column_reported(void **state)
{
	struct pr_sample s = PR_SAMPLE_INIT;
	struct pr_error err;
	const char *p;

	(void)state;
	p = write_tmp("col.txt", "1 2\n3  x7\n", 10);
	assert_int_equal(pr_read_numbers(p, 2, NULL, &s, &err), PR_EPARSE);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 4);
	assert_string_equal(err.msg, "expected a number, got 'x7'");
	pr_sample_release(&s);
}

static void
test_missing(void **state)
{
	struct pr_sample s = PR_SAMPLE_INIT;
	struct pr_error err;

	(void)state;
	expect_error(DATA "no-such-file.txt", 1, NULL, PR_ENOTFOUND, 0,
	    "cannot open: No such file or directory");
	assert_int_equal(pr_read_numbers(DATA "no-such-file.txt", 1, NULL, &s,
			     &err),
	    PR_ENOTFOUND);
	assert_int_equal(err.sys_errno, ENOENT);
	expect_error(DATA, 1, NULL, PR_EIO, 0, "cannot read: Is a directory");
	/* Arguments outside their domain. */
	assert_int_equal(pr_read_numbers(DATA "ministat.txt", 0, NULL, &s,
			     &err),
	    PR_EINVAL);
	assert_int_equal(pr_read_numbers(DATA "ministat.txt", 1, "", &s, &err),
	    PR_EINVAL);
	assert_int_equal(s.n, 0);
}

static void
test_binary(void **state)
{
	static const char nul[] = "1\n2\n3\0\n4\n";
	static const char ctl[] = "1\n2\n# esc \x1b[0m\n";
	static const char utf8[] = "1\n# \xc2\xb5s is fine\n\xe2\x82\xac\n";
	static const char bad8[] = "1\n# \xc3\x28\n";
	unsigned char junk[4096];
	struct pr_sample s = PR_SAMPLE_INIT;
	struct pr_error err;
	struct pr_rng r;
	const char *p;
	size_t i;

	(void)state;
	p = write_tmp("nul.txt", nul, sizeof(nul) - 1);
	expect_error(p, 1, NULL, PR_EPARSE, 3,
	    "NUL byte in text (binary data?)");
	/* Control characters count as binary even in a comment. */
	p = write_tmp("ctl.txt", ctl, sizeof(ctl) - 1);
	expect_error(p, 1, NULL, PR_EPARSE, 3,
	    "control character 0x1b in text (binary data?)");
	/* UTF-8 passes a comment, not a number; invalid UTF-8 fails. */
	p = write_tmp("utf8.txt", utf8, sizeof(utf8) - 1);
	expect_error(p, 1, NULL, PR_EPARSE, 3,
	    "expected a number, got '\\xe2\\x82\\xac'");
	p = write_tmp("bad8.txt", bad8, sizeof(bad8) - 1);
	expect_error(p, 1, NULL, PR_EPARSE, 2,
	    "invalid UTF-8 (byte 0xc3; binary data?)");
	/* Random bytes, as when a binary file is given by mistake: an error
	 * at a line, whatever the bytes, for many seeds. */
	for (i = 0; i < 64; i++) {
		size_t k;

		pr_rng_seed(&r, 1000 + i);
		for (k = 0; k < sizeof(junk); k++)
			junk[k] = (unsigned char)pr_rng_below(&r, 256);
		p = write_tmp("junk.bin", junk, sizeof(junk));
		pr_error_clear(&err);
		assert_int_equal(pr_read_numbers(p, 1, NULL, &s, &err),
		    PR_EPARSE);
		assert_true(err.line >= 1);
		assert_string_equal(err.file, p);
		assert_int_equal(s.n, 0);
	}
	pr_sample_release(&s);
}

static void
test_long_lines(void **state)
{
	size_t max = PR_READ_LINE_MAX, big = 10 * 1024 * 1024;
	static const double seven[] = { 1, 7, 2 };
	char *buf = malloc(big + 16);
	const char *p;

	(void)state;
	assert_non_null(buf);
	/* A line of exactly PR_READ_LINE_MAX bytes is read... */
	memcpy(buf, "1\n", 2);
	memset(buf + 2, ' ', max - 1);
	memcpy(buf + 2 + max - 1, "7\n2\n", 4);
	p = write_tmp("max.txt", buf, max + 5);
	expect_values(p, 1, NULL, seven, 3);
	/* ...one byte more is an error naming the line. */
	memset(buf + 2, ' ', max);
	memcpy(buf + 2 + max, "7\n2\n", 4);
	p = write_tmp("over.txt", buf, max + 6);
	expect_error(p, 1, NULL, PR_ELIMIT, 2, TOOLONG);
	/* A 10 MB line of digits, and one without a newline at the end. */
	memcpy(buf, "1\n2\n", 4);
	memset(buf + 4, '9', big);
	memcpy(buf + 4 + big, "\n3\n", 3);
	p = write_tmp("10mb.txt", buf, big + 7);
	expect_error(p, 1, NULL, PR_ELIMIT, 3, TOOLONG);
	p = write_tmp("10mb-end.txt", buf, big + 4);
	expect_error(p, 1, NULL, PR_ELIMIT, 3, TOOLONG);
	/* A long number within the limit is read exactly (strtod's value). */
	memcpy(buf, "0.", 2);
	memset(buf + 2, '3', 100000);
	memcpy(buf + 100002, "\n", 1);
	p = write_tmp("longnum.txt", buf, 100003);
	{
		static const double third[] = { 0.33333333333333331 };

		expect_values(p, 1, NULL, third, 1);
	}
	free(buf);
}

/*
 * Many lines of varied shapes, so that buffer refills fall inside
 * numbers, comments and CRLF pairs; values checked against strtod.  The
 * file is over 4 MiB, so the reader reserves for it and gives the rest
 * back.
 */
static void
test_large(void **state)
{
	const size_t lines = 200000;
	struct pr_sample s = PR_SAMPLE_INIT;
	struct pr_error err;
	struct pr_rng r;
	double *want;
	char *buf, *p;
	const char *path;
	size_t i, n = 0, len;

	(void)state;
	buf = malloc(lines * 128);
	want = malloc(lines * sizeof(double));
	assert_non_null(buf);
	assert_non_null(want);
	pr_rng_seed(&r, 7);
	p = buf;
	for (i = 0; i < lines; i++) {
		double x = pr_rng_normal(&r) * 1000;
		char num[40];

		switch (pr_rng_below(&r, 8)) {
		case 0:
			snprintf(num, sizeof(num), "%.17g", x);
			break;
		case 1:
			snprintf(num, sizeof(num), "%.3e", x);
			break;
		case 2:
			snprintf(num, sizeof(num), "%.0f", x);
			break;
		default:
			snprintf(num, sizeof(num), "%.6f", x);
			break;
		}
		switch (pr_rng_below(&r, 16)) {
		case 0:
		case 4:
		case 5:
		case 6: /* long comments make the file large at few values */
			p += snprintf(p, 128, "# comment %zu %0*d\n", i,
			    (int)pr_rng_below(&r, 100), 0);
			break;
		case 1:
			p += snprintf(p, 48, "%s\r\n", num);
			want[n++] = strtod(num, NULL);
			break;
		case 2:
			p += snprintf(p, 48, "  %s\t# note\n", num);
			want[n++] = strtod(num, NULL);
			break;
		case 3:
			p += snprintf(p, 48, "\n");
			break;
		default:
			p += snprintf(p, 48, "%s\n", num);
			want[n++] = strtod(num, NULL);
			break;
		}
	}
	len = (size_t)(p - buf);
	assert_true(len > ((size_t)4 << 20));
	path = write_tmp("large.txt", buf, len);
	assert_int_equal(pr_read_numbers(path, 1, NULL, &s, &err), PR_OK);
	assert_int_equal(s.n, n);
	assert_memory_equal(s.v, want, n * sizeof(double));
	/* The range of the sort keys, found while reading (the buffer is
	 * refilled many times on the way), is that of the values. */
	{
		static const struct {
			const char *text;
			double lo, hi;
		} ends[] = { { "-0\n0\n0.5\n", -0.0, 0.5 },
			{ "3\n9\n1\n4\n", 1, 9 }, { "9\n3\n4\n-1\n", -1, 9 } };
		struct pr_sample t = PR_SAMPLE_INIT;
		uint64_t keys[2] = { 0, 0 }, lo = UINT64_MAX, hi = 0, k;

		for (i = 0; i < n; i++) {
			k = pr_sort_key(want[i]);
			lo = k < lo ? k : lo;
			hi = k > hi ? k : hi;
		}
		assert_int_equal(pr_read_numbers_keys(path, 1, NULL,
				     PR_READ_VALUES_MAX, &t, keys, &err),
		    PR_OK);
		assert_int_equal(t.n, n);
		assert_true(keys[0] == lo && keys[1] == hi);
		pr_sample_release(&t);
		/* Both zeros (-0 has the smaller key), and the ends at even
		 * and at odd places (the reader keeps two minima and maxima,
		 * one for each). */
		for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
			path = write_tmp("ends.txt", ends[i].text,
			    strlen(ends[i].text));
			assert_int_equal(pr_read_numbers_keys(path, 1, NULL,
					     PR_READ_VALUES_MAX, &t, keys,
					     &err),
			    PR_OK);
			assert_true(keys[0] == pr_sort_key(ends[i].lo) &&
			    keys[1] == pr_sort_key(ends[i].hi));
			pr_sample_release(&t);
		}
	}
	/* The capacity reserved for the file was given back. */
	assert_true(s.cap == s.n);
	/* A second file appends. */
	assert_int_equal(pr_read_numbers(DATA "crlf.txt", 1, NULL, &s, &err),
	    PR_OK);
	assert_int_equal(s.n, n + 3);
	assert_true(s.v[n + 2] == 3.0);
	pr_sample_release(&s);
	free(buf);
	free(want);
}

static void
test_stdin(void **state)
{
	static const double three[] = { 1, 2, 3 };
	int saved, fd;

	(void)state;
	saved = dup(STDIN_FILENO);
	assert_true(saved >= 0);
	fd = open(DATA "crlf.txt", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	expect_values("-", 1, NULL, three, 3);
	fd = open(DATA "words.txt", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	{
		struct pr_sample s = PR_SAMPLE_INIT;
		struct pr_error err;
		char line[256];

		assert_int_equal(pr_read_numbers("-", 1, NULL, &s, &err),
		    PR_EPARSE);
		assert_string_equal(pr_error_format(&err, line, sizeof(line)),
		    "<stdin>:4: expected a number, got 'abc'");
		pr_sample_release(&s);
	}
	/* A pipe: the buffer starts small and grows for a long line. */
	{
		static const double want[] = { 1, 0.33333333333333331, 3 };
		char *line = malloc(300000);
		int pfd[2];
		pid_t pid;

		assert_non_null(line);
		memcpy(line, "1\n0.", 4);
		memset(line + 4, '3', 299990);
		memcpy(line + 299994, "\n3\n", 3);
		assert_int_equal(pipe(pfd), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			size_t off = 0;
			ssize_t w;

			close(pfd[0]);
			while (off < 299997 &&
			    (w = write(pfd[1], line + off, 299997 - off)) > 0)
				off += (size_t)w;
			_exit(off == 299997 ? 0 : 1);
		}
		close(pfd[1]);
		assert_int_equal(dup2(pfd[0], STDIN_FILENO), STDIN_FILENO);
		close(pfd[0]);
		expect_values("-", 1, NULL, want, 3);
		assert_int_equal(waitpid(pid, NULL, 0), pid);
		free(line);
	}
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
}

/*
 * `yes 1 | perfreg stat` (issue 12) grew until memory ran out: a cap on
 * the values of one input, here lowered to 1000 so that an endless pipe
 * reaches it at once.  The writer is killed after the reader gave up.
 */
static void
test_values_cap(void **state)
{
	struct pr_sample s = PR_SAMPLE_INIT;
	struct pr_error err;
	char line[256];
	int saved, pfd[2];
	pid_t pid;

	(void)state;
	saved = dup(STDIN_FILENO);
	assert_true(saved >= 0);
	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(pfd[0]);
		while (write(pfd[1], "1\n1\n1\n1\n", 8) == 8)
			continue;
		_exit(0);
	}
	close(pfd[1]);
	assert_int_equal(dup2(pfd[0], STDIN_FILENO), STDIN_FILENO);
	close(pfd[0]);
	pr_error_clear(&err);
	assert_int_equal(pr_read_numbers_max("-", 1, NULL, 1000, &s, &err),
	    PR_ELIMIT);
	assert_string_equal(pr_error_format(&err, line, sizeof(line)),
	    "<stdin>:1001: more than 1000 values in one input");
	/* A failed read leaves the sample as it was. */
	assert_int_equal(s.n, 0);
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, NULL, 0), pid);

	/* Exactly at the cap is fine, and the cap counts this input only. */
	assert_int_equal(pr_sample_push(&s, 7, NULL), PR_OK);
	assert_int_equal(pr_read_numbers_max(DATA "crlf.txt", 1, NULL, 3, &s,
			     &err),
	    PR_OK);
	assert_int_equal(s.n, 4);
	assert_int_equal(pr_read_numbers_max(DATA "crlf.txt", 1, NULL, 2, &s,
			     &err),
	    PR_ELIMIT);
	assert_int_equal(s.n, 4);
	pr_sample_release(&s);
}

/*
 * Long decimals of value 0 ("0.000000000000000", %.15f of a 0: 16
 * digits, past the 15 of the plain line, so the reader's decimal path
 * with w = 0) are +0 as strtod reads them, never -0 (review of session
 * 15, P1: a -0 there showed as "-0" in stat's Min and Median); beside
 * them decimals the same path reads, each equal to strtod's value.
 */
static void
test_decimal_zero(void **state)
{
	static const char *const lines[] = { "0.000000000000000",
		"00.000000000000000", "12345.678901234567", "0.100000000000000",
		"9999.999999999999" };
	/* Past 4 MiB, so that the sample is reserved whole and every line
	 * takes the reader's fast path from the first. */
	enum { N = 250000 };
	struct pr_sample s = PR_SAMPLE_INIT;
	struct pr_error err;
	char *buf = malloc((size_t)N * 20);
	const char *path;
	size_t len = 0, i, zeros = 0;

	(void)state;
	assert_non_null(buf);
	for (i = 0; i < N; i++)
		len += (size_t)snprintf(buf + len, (size_t)N * 20 - len, "%s\n",
		    lines[i % 5]);
	assert_true(len > (size_t)4 << 20);
	path = write_tmp("zeros.txt", buf, len);
	free(buf);
	pr_error_clear(&err);
	assert_int_equal(pr_read_numbers(path, 1, NULL, &s, &err), PR_OK);
	assert_int_equal(s.n, N);
	for (i = 0; i < N; i++) {
		double want = strtod(lines[i % 5], NULL);

		assert_true(memcmp(&s.v[i], &want, sizeof(want)) == 0);
		zeros += i % 5 < 2 && !signbit(s.v[i]);
	}
	assert_int_equal(zeros, 2 * N / 5);
	pr_sample_release(&s);
}

/*
 * pr_read_numbers_each: six files read concurrently give each the values
 * pr_read_numbers gives it, sorted when asked; with bad files among them
 * the error is that of the first bad one in the list, whichever thread
 * finished first, and every sample comes back empty.
 */
static void
test_each(void **state)
{
	enum { NF = 6, PER = 30000 };
	struct pr_sample s[NF], one;
	struct pr_error err;
	struct pr_rng r;
	char name[32], *buf, *p, want[1024];
	const char *paths[NF];
	static char path_store[NF][512];
	size_t i, k, failed = 99;

	(void)state;
	buf = malloc((size_t)PER * 32);
	assert_non_null(buf);
	pr_rng_seed(&r, 16);
	for (k = 0; k < NF; k++) {
		p = buf;
		for (i = 0; i < PER; i++)
			p += sprintf(p, k % 2 ? "%.17g\n" : "%.6f\n",
			    100 + pr_rng_normal(&r));
		snprintf(name, sizeof(name), "each%zu.txt", k);
		snprintf(path_store[k], sizeof(path_store[k]), "%s",
		    write_tmp(name, buf, (size_t)(p - buf)));
		paths[k] = path_store[k];
		pr_sample_init(&s[k]);
	}
	pr_error_clear(&err);
	assert_int_equal(pr_read_numbers_each(paths, NF, 1, NULL, 1, s, &failed,
			     &err),
	    PR_OK);
	assert_int_equal(failed, 99);
	for (k = 0; k < NF; k++) {
		pr_sample_init(&one);
		assert_int_equal(pr_read_numbers(paths[k], 1, NULL, &one, NULL),
		    PR_OK);
		pr_sample_sort(&one);
		assert_int_equal(s[k].n, PER);
		assert_int_equal(s[k].sorted, 1);
		assert_memory_equal(s[k].v, one.v, PER * sizeof(double));
		pr_sample_release(&one);
		pr_sample_release(&s[k]);
		pr_sample_init(&s[k]);
	}
	/* Files 2 and 4 are bad; file 4's error is on its first line, so
	 * it is likely found first, but file 2's is the one reported. */
	memcpy(buf, "1\n2\n3\n", 6);
	snprintf(buf + 6, 64, "oops\n");
	snprintf(path_store[2], sizeof(path_store[2]), "%s",
	    write_tmp("each2.txt", buf, strlen(buf)));
	snprintf(path_store[4], sizeof(path_store[4]), "%s",
	    write_tmp("each4.txt", "x\n", 2));
	pr_error_clear(&err);
	assert_int_equal(pr_read_numbers_each(paths, NF, 1, NULL, 0, s, &failed,
			     &err),
	    PR_EPARSE);
	assert_int_equal(failed, 2);
	assert_string_equal(err.file, paths[2]);
	assert_int_equal(err.line, 4);
	snprintf(want, sizeof(want), "expected a number, got 'oops'");
	assert_string_equal(err.msg, want);
	for (k = 0; k < NF; k++) {
		assert_int_equal(s[k].n, 0);
		pr_sample_release(&s[k]);
	}
	/* A missing file among good ones. */
	paths[5] = "/nonexistent/perfreg-each";
	for (k = 0; k < NF; k++)
		pr_sample_init(&s[k]);
	paths[2] = paths[0];
	paths[4] = paths[1];
	assert_int_equal(pr_read_numbers_each(paths, NF, 1, NULL, 1, s, &failed,
			     &err),
	    PR_ENOTFOUND);
	assert_int_equal(failed, 5);
	for (k = 0; k < NF; k++)
		pr_sample_release(&s[k]);
	free(buf);
}

/* Whether two datasets hold the same metrics with the same values. */
static void
same_dataset(struct pr_dataset *x, struct pr_dataset *y)
{
	size_t i;

	assert_int_equal(x->n, y->n);
	for (i = 0; i < x->n; i++) {
		assert_string_equal(x->metrics[i].name, y->metrics[i].name);
		assert_string_equal(x->metrics[i].unit, y->metrics[i].unit);
		assert_int_equal(x->metrics[i].values.n,
		    y->metrics[i].values.n);
		assert_memory_equal(x->metrics[i].values.v,
		    y->metrics[i].values.v,
		    x->metrics[i].values.n * sizeof(double));
	}
}

/* The smallest and largest sort key of s's values, found here. */
static void
keys_of(const struct pr_sample *s, uint64_t *lo, uint64_t *hi)
{
	uint64_t k;
	size_t i;

	*lo = UINT64_MAX;
	*hi = 0;
	for (i = 0; i < s->n; i++) {
		k = pr_sort_key(s->v[i]);
		*lo = k < *lo ? k : *lo;
		*hi = k > *hi ? k : *hi;
	}
}

/*
 * A file of 64 KiB to 1 MiB is read into a buffer of its size and one
 * byte: a %.17g line among the last 23 bytes must not be taken by
 * pr_swar_decimal_line, which reads 24 (plain_lines' guard; review of
 * session 15, P1: no test held it).  A %.17g line of 18 to 20 bytes ends
 * the file, or is followed by a short line of 2 to 12 bytes; the values
 * are strtod's.  Only a read past the buffer tells a missing guard (ASan,
 * valgrind: the CI runs both over this test).
 */
static void
test_long_line_at_end(void **state)
{
	enum { N = 4200 }; /* about 80 KB: above BUF_MIN, below CHUNK */
	static const char *const last[] = { "7\n", "0.5\n", "12.25\n",
		"3.1415\n", "2.718281\n", "1.41421356\n", "99.0000001\n",
		"0.333333333\n" };
	struct pr_rng r;
	char *buf, *p, *q;
	double *want;
	size_t i, k, n;

	(void)state;
	buf = malloc((size_t)N * 24 + 64);
	want = malloc(((size_t)N + 1) * sizeof(*want));
	assert_non_null(buf);
	assert_non_null(want);
	for (k = 0; k < sizeof(last) / sizeof(last[0]); k++) {
		pr_rng_seed(&r, 31 + k);
		p = buf;
		for (i = 0; i < N; i++) {
			q = p;
			p += sprintf(p, "%.17g\n", 50 + pr_rng_normal(&r));
			want[i] = strtod(q, NULL);
		}
		/* The last long line, then a short one of 2 to 12 bytes:
		 * the long one starts 16 + k to 20 + k bytes before the
		 * end. */
		q = p;
		p += sprintf(p, "%s", last[k]);
		want[N] = strtod(q, NULL);
		n = N + 1;
		expect_values(write_tmp("longend.txt", buf, (size_t)(p - buf)),
		    1, NULL, want, n);
		/* And the file ending on the long line itself. */
		expect_values(write_tmp("longend2.txt", buf, (size_t)(q - buf)),
		    1, NULL, want, N);
	}
	free(want);
	free(buf);
}

/*
 * The sample's own key range (perfreg/sample.h), which `compare`'s sort
 * takes instead of looking for it: a numbers file read through
 * pr_read_any (compare's reader) comes keyed with exactly its values'
 * range; a second file read with its keys widens the range; one read
 * without them, a value pushed, or a sample that had no range, leave no
 * range; a copy keeps it; and a keyed sample sorts to what
 * pr_sort_doubles gives.
 */
static void
test_sample_keys(void **state)
{
	enum { N = 70000 }; /* over the radix sort's wide pass (2^16) */
	struct pr_dataset d;
	struct pr_sample s = PR_SAMPLE_INIT, c;
	struct pr_error err;
	struct pr_rng r;
	const char *path, *lowpath;
	char *buf, *p;
	double *ref;
	uint64_t keys[2], lo, hi;
	size_t i;

	(void)state;
	buf = malloc((size_t)N * 32 + 64);
	assert_non_null(buf);
	pr_rng_seed(&r, 29);
	p = buf;
	for (i = 0; i < N; i++)
		p += sprintf(p, "%.17g\n", 50 + pr_rng_normal(&r));
	path = write_tmp("keys0.txt", buf, (size_t)(p - buf));
	pr_dataset_init(&d);
	pr_error_clear(&err);
	assert_int_equal(pr_read_any(path, NULL, NULL, &d, NULL, &err), PR_OK);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.metrics[0].values.n, N);
	assert_true(d.metrics[0].values.keyed);
	keys_of(&d.metrics[0].values, &lo, &hi);
	assert_true(d.metrics[0].values.keys[0] == lo &&
	    d.metrics[0].values.keys[1] == hi);
	/* Kept by a copy; the keyed sort is the plain one's. */
	assert_int_equal(pr_sample_copy(&c, &d.metrics[0].values, &err), PR_OK);
	assert_true(c.keyed && c.keys[0] == lo && c.keys[1] == hi);
	ref = malloc(N * sizeof(double));
	assert_non_null(ref);
	memcpy(ref, c.v, N * sizeof(double));
	pr_sort_doubles(ref, N);
	pr_sample_sort(&c);
	assert_memory_equal(c.v, ref, N * sizeof(double));
	pr_sample_release(&c);
	pr_dataset_release(&d);

	/* Read with its keys, a file keys the empty sample; a second one,
	 * below the first, widens the range to both. */
	assert_int_equal(pr_read_numbers_keys(path, 1, NULL, PR_READ_VALUES_MAX,
			     &s, keys, &err),
	    PR_OK);
	assert_true(s.keyed && s.keys[0] == keys[0] && s.keys[1] == keys[1]);
	lowpath = write_tmp("keys1.txt", "-3\n7\n", 5);
	assert_int_equal(pr_read_numbers_keys(lowpath, 1, NULL,
			     PR_READ_VALUES_MAX, &s, keys, &err),
	    PR_OK);
	assert_true(keys[0] == pr_sort_key(-3) && keys[1] == pr_sort_key(7));
	keys_of(&s, &lo, &hi);
	assert_true(s.keyed && s.keys[0] == lo && s.keys[1] == hi);
	assert_true(s.keys[1] != pr_sort_key(7));
	/* A value pushed leaves no range. */
	assert_int_equal(pr_sample_push(&s, 1e6, &err), PR_OK);
	assert_false(s.keyed);
	/* A sample without one stays without, keys or not. */
	assert_int_equal(pr_read_numbers_keys(lowpath, 1, NULL,
			     PR_READ_VALUES_MAX, &s, keys, &err),
	    PR_OK);
	assert_false(s.keyed);
	pr_sample_release(&s);
	pr_sample_init(&s);
	assert_int_equal(pr_read_numbers_keys(lowpath, 1, NULL,
			     PR_READ_VALUES_MAX, &s, keys, &err),
	    PR_OK);
	assert_true(s.keyed);
	assert_int_equal(pr_read_numbers(lowpath, 1, NULL, &s, &err), PR_OK);
	assert_false(s.keyed);
	pr_sample_release(&s);

	/* A range of one key that the values do not keep to (a writer of
	 * v[] that forgot to clear it) is not trusted: sorted all the
	 * same. */
	pr_sample_init(&s);
	for (i = 0; i < N; i++)
		assert_int_equal(pr_sample_push(&s, (double)((i * 7919) % N),
				     &err),
		    PR_OK);
	s.keyed = 1;
	s.keys[0] = s.keys[1] = pr_sort_key(5);
	pr_sample_sort(&s);
	for (i = 0; i < N; i++)
		assert_true(s.v[i] == (double)i);
	pr_sample_release(&s);
	free(ref);
	free(buf);
}

/*
 * pr_read_any_each (compare's two sides read at once): a numbers file
 * and a CSV file give what pr_read_any gives each, in run order; with
 * both bad, the error is the first one's (its line), and both datasets
 * come back empty; with only the second bad, the second's.
 */
static void
test_any_each(void **state)
{
	enum { PER = 20000 };
	struct pr_dataset d[2], one;
	struct pr_error err;
	struct pr_rng r;
	static char path_store[2][512];
	const char *paths[2];
	char *buf, *p;
	size_t i, k, failed = 99;

	(void)state;
	buf = malloc((size_t)PER * 40 + 64);
	assert_non_null(buf);
	pr_rng_seed(&r, 17);
	p = buf;
	for (i = 0; i < PER; i++)
		p += sprintf(p, "%.17g\n", 100 + pr_rng_normal(&r));
	snprintf(path_store[0], sizeof(path_store[0]), "%s",
	    write_tmp("anyeach0.txt", buf, (size_t)(p - buf)));
	p = buf + sprintf(buf, "elapsed (s),rss_kib\n");
	for (i = 0; i < PER; i++)
		p += sprintf(p, "%.6f,%zu\n", 1 + pr_rng_normal(&r) / 100,
		    1000 + i % 7);
	snprintf(path_store[1], sizeof(path_store[1]), "%s",
	    write_tmp("anyeach1.csv", buf, (size_t)(p - buf)));
	for (k = 0; k < 2; k++) {
		paths[k] = path_store[k];
		pr_dataset_init(&d[k]);
	}
	pr_error_clear(&err);
	assert_int_equal(pr_read_any_each(paths, 2, NULL, NULL, d, NULL,
			     &failed, &err),
	    PR_OK);
	assert_int_equal(failed, 99);
	assert_int_equal(d[1].n, 2);
	for (k = 0; k < 2; k++) {
		pr_dataset_init(&one);
		assert_int_equal(pr_read_any(paths[k], NULL, NULL, &one, NULL,
				     NULL),
		    PR_OK);
		same_dataset(&d[k], &one);
		pr_dataset_release(&one);
		pr_dataset_release(&d[k]);
		pr_dataset_init(&d[k]);
	}
	/* The first bad at its line 3, the second at its first. */
	snprintf(path_store[0], sizeof(path_store[0]), "%s",
	    write_tmp("anyeach0.txt", "1\n2\noops\n", 9));
	snprintf(path_store[1], sizeof(path_store[1]), "%s",
	    write_tmp("anyeach1.txt", "x\n", 2));
	assert_int_equal(pr_read_any_each(paths, 2, NULL, NULL, d, NULL,
			     &failed, &err),
	    PR_EPARSE);
	assert_int_equal(failed, 0);
	assert_string_equal(err.file, paths[0]);
	assert_int_equal(err.line, 3);
	for (k = 0; k < 2; k++)
		assert_int_equal(d[k].n, 0);
	snprintf(path_store[0], sizeof(path_store[0]), "%s",
	    write_tmp("anyeach0.txt", "1\n2\n", 4));
	assert_int_equal(pr_read_any_each(paths, 2, NULL, NULL, d, NULL,
			     &failed, &err),
	    PR_EPARSE);
	assert_int_equal(failed, 1);
	assert_string_equal(err.file, paths[1]);
	assert_int_equal(err.line, 1);
	for (k = 0; k < 2; k++) {
		assert_int_equal(d[k].n, 0);
		pr_dataset_release(&d[k]);
	}
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ministat_rules),
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_bad_numbers),
		cmocka_unit_test(test_column_reported),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_binary),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_values_cap),
		cmocka_unit_test(test_decimal_zero),
		cmocka_unit_test(test_each),
		cmocka_unit_test(test_any_each),
		cmocka_unit_test(test_sample_keys),
		cmocka_unit_test(test_long_line_at_end),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
