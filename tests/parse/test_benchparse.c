/*
 * tests/parse/test_benchparse.c - the parsers of `perfreg parse`
 * (perfreg/parse.h) on output captured from the real tools
 * (tests/data/{openssl,iperf3,time,dd,perf,seeds}/, commands in
 * tests/data/README.md), on every kind of bad input, and the user
 * (--metric) and derived (--derive) metrics.
 *
 * Expected values are written from the text of the files: "586.20k" in
 * an openssl table is 586200 bytes per second, "1.16 GBytes" in iperf3 is
 * 1.16 * 2^30 bytes, "4.99 Gbits/sec" is 4.99e9 bits per second.  They are
 * compared exactly (==): the parsers promise the double nearest to the
 * scaled decimal, which is what the C compiler makes of the same literal.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/buf.h"
#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/parse.h"
#include "perfreg/read.h"

/* --- helpers --- */

static struct pr_metric *
metric(struct pr_dataset *ds, const char *name, int line)
{
	struct pr_metric *m = pr_dataset_find(ds, name);

	if (m == NULL)
		fail_msg("line %d: no metric '%s'", line, name);
	return m;
}

/* The i-th value of metric name is exactly expect. */
#define VAL(ds, name, i, expect) \
	check_val((ds), (name), (i), (expect), __LINE__)
static void
check_val(struct pr_dataset *ds, const char *name, size_t i, double expect,
    int line)
{
	struct pr_metric *m = metric(ds, name, line);

	if (i >= m->values.n)
		fail_msg("line %d: '%s' has %zu values, wanted #%zu", line,
		    name, m->values.n, i);
	if (!(m->values.v[i] == expect))
		fail_msg("line %d: '%s'[%zu] = %.17g, expected %.17g", line,
		    name, i, m->values.v[i], expect);
}

/* Metric name has n values, the unit and the direction given. */
#define META(ds, name, n, unit, better) \
	check_meta((ds), (name), (n), (unit), (better), __LINE__)
static void
check_meta(struct pr_dataset *ds, const char *name, size_t n, const char *unit,
    enum pr_better better, int line)
{
	struct pr_metric *m = metric(ds, name, line);

	if (m->values.n != n)
		fail_msg("line %d: '%s' has %zu values, expected %zu", line,
		    name, m->values.n, n);
	if (strcmp(m->unit, unit) != 0)
		fail_msg("line %d: '%s' in '%s', expected '%s'", line, name,
		    m->unit, unit);
	if (m->better != better)
		fail_msg("line %d: '%s' direction %d, expected %d", line, name,
		    (int)m->better, (int)better);
}

static enum pr_status
parse_path(const char *path, const char *format, struct pr_dataset *ds,
    const char **used, struct pr_error *err)
{
	struct pr_parser *p;
	enum pr_status st;

	assert_int_equal(pr_parser_new(&p, err), PR_OK);
	if (format != NULL)
		assert_int_equal(pr_parser_set_format(p, format, err), PR_OK);
	st = pr_parse_file(p, path, 0, ds, used, err);
	pr_parser_free(p);
	return st;
}

/* Parses a file that must parse, in the format expected. */
static void
load(const char *path, const char *format, struct pr_dataset *ds)
{
	struct pr_error err;
	const char *used = NULL;
	char msg[1024];

	pr_dataset_init(ds);
	pr_error_clear(&err);
	if (parse_path(path, NULL, ds, &used, &err) != PR_OK)
		fail_msg("%s: %s", path,
		    pr_error_format(&err, msg, sizeof(msg)));
	assert_non_null(used);
	assert_string_equal(used, format);
}

/* Parses text with the given parser (NULL: defaults). */
static enum pr_status
parse_with(struct pr_parser *p, const char *text, size_t len,
    struct pr_dataset *ds, struct pr_error *err)
{
	pr_error_clear(err);
	return pr_parse_buffer(p, text, len, "t.txt", 0, ds, NULL, err);
}

/*
 * text must fail with status st, at line (0: not checked), with a
 * message that contains `needle`.
 */
#define BAD(p, text, st, line, needle) \
	check_bad((p), (text), strlen(text), (st), (line), (needle), __LINE__)
static void
check_bad(struct pr_parser *p, const char *text, size_t len, enum pr_status st,
    long line, const char *needle, int where)
{
	struct pr_dataset ds;
	struct pr_error err;
	enum pr_status got;

	pr_dataset_init(&ds);
	got = parse_with(p, text, len, &ds, &err);
	if (got != st)
		fail_msg("line %d: status %d (%s), expected %d", where,
		    (int)got, err.msg, (int)st);
	if (line > 0 && err.line != line)
		fail_msg("line %d: error at line %ld, expected %ld (%s)", where,
		    err.line, line, err.msg);
	if (strstr(err.msg, needle) == NULL)
		fail_msg("line %d: message '%s' lacks '%s'", where, err.msg,
		    needle);
	if (strcmp(err.file, "t.txt") != 0)
		fail_msg("line %d: error names '%s', not the input", where,
		    err.file);
	/* A failed input adds nothing. */
	assert_int_equal(ds.n, 0);
	pr_dataset_release(&ds);
}

/* A parser with one --metric or --derive spec (and format). */
static struct pr_parser *
parser(const char *format, const char *metric_spec, const char *derive_spec)
{
	struct pr_parser *p;
	struct pr_error err;

	assert_int_equal(pr_parser_new(&p, &err), PR_OK);
	if (format != NULL)
		assert_int_equal(pr_parser_set_format(p, format, &err), PR_OK);
	if (metric_spec != NULL &&
	    pr_parser_add_metric(p, metric_spec, &err) != PR_OK)
		fail_msg("--metric %s: %s", metric_spec, err.msg);
	if (derive_spec != NULL &&
	    pr_parser_add_derive(p, derive_spec, &err) != PR_OK)
		fail_msg("--derive %s: %s", derive_spec, err.msg);
	return p;
}

/* --- openssl speed --- */

static void
test_openssl_seed000(void **state)
{
	struct pr_dataset ds;

	(void)state;
	/* OpenSSL 1.0.1c, two runs pasted in a mail with prose around. */
	load("tests/data/seeds/seed000-openssl-1.0.1c.txt", "openssl", &ds);
	META(&ds, "des-ede3-cbc/16B", 2, "B/s", PR_BETTER_HIGHER);
	VAL(&ds, "des-ede3-cbc/16B", 0, 586200.0);  /* 586.20k */
	VAL(&ds, "des-ede3-cbc/64B", 0, 2357870.0); /* 2357.87k */
	VAL(&ds, "des-ede3-cbc/256B", 0, 8246750.0);
	VAL(&ds, "des-ede3-cbc/1024B", 0, 25685880.0);
	VAL(&ds, "des-ede3-cbc/8192B", 0, 79916910.0);
	VAL(&ds, "des-ede3-cbc/16B", 1, 564750.0); /* 564.75k */
	VAL(&ds, "des-ede3-cbc/8192B", 1, 78188690.0);
	/* "115774 des-ede3-cbc's in 3.16s" */
	META(&ds, "des-ede3-cbc/16B/ops", 2, "ops", PR_BETTER_HIGHER);
	VAL(&ds, "des-ede3-cbc/16B/ops", 0, 115774.0);
	META(&ds, "des-ede3-cbc/16B/ops_per_s", 2, "ops/s", PR_BETTER_HIGHER);
	VAL(&ds, "des-ede3-cbc/16B/ops_per_s", 0, 115774.0 / 3.16);
	VAL(&ds, "des-ede3-cbc/8192B/ops_per_s", 1, 28729.0 / 3.01);
	/* Five sizes, three metrics each. */
	assert_int_equal(ds.n, 15);
	pr_dataset_release(&ds);
}

static void
test_openssl_3x(void **state)
{
	struct pr_dataset ds;

	(void)state;
	load("tests/data/openssl/speed-evp-aes-128-gcm.txt", "openssl", &ds);
	/* "AES-128-GCM 32747.66k ... 3050831.87k", names lowercased. */
	META(&ds, "aes-128-gcm/16B", 1, "B/s", PR_BETTER_HIGHER);
	VAL(&ds, "aes-128-gcm/16B", 0, 32747660.0);
	VAL(&ds, "aes-128-gcm/64B", 0, 123604350.0);
	VAL(&ds, "aes-128-gcm/1024B", 0, 1272540160.0);
	VAL(&ds, "aes-128-gcm/16384B", 0, 3050831870.0);
	VAL(&ds, "aes-128-gcm/16B/ops", 0, 2046729.0);
	VAL(&ds, "aes-128-gcm/16384B/ops_per_s", 0, 186208.0 / 1.00);
	assert_int_equal(ds.n, 18);
	pr_dataset_release(&ds);

	load("tests/data/openssl/speed-elapsed-des-ede3.txt", "openssl", &ds);
	VAL(&ds, "des-ede3/16B", 0, 25931970.0);
	VAL(&ds, "des-ede3/16384B", 0, 26853380.0);
	VAL(&ds, "des-ede3/8192B/ops", 0, 3314.0);
	pr_dataset_release(&ds);

	load("tests/data/openssl/speed-elapsed-evp-des-ede3-cbc.txt", "openssl",
	    &ds);
	VAL(&ds, "des-ede3-cbc/16B", 0, 26208260.0);
	VAL(&ds, "des-ede3-cbc/16384B", 0, 27754500.0);
	pr_dataset_release(&ds);
}

static void
test_openssl_mr(void **state)
{
	struct pr_dataset ds;

	(void)state;
	load("tests/data/openssl/speed-mr-sha256.txt", "openssl", &ds);
	/* +F values are bytes per second already. */
	META(&ds, "sha256/16B", 1, "B/s", PR_BETTER_HIGHER);
	VAL(&ds, "sha256/16B", 0, 87455088.0);
	VAL(&ds, "sha256/16384B", 0, 1631567872.0);
	/* "+DT:sha256:1:16" then "+R:5465943:sha256:1.000000" */
	VAL(&ds, "sha256/16B/ops", 0, 5465943.0);
	VAL(&ds, "sha256/16B/ops_per_s", 0, 5465943.0);
	VAL(&ds, "sha256/16384B/ops", 0, 99583.0);
	pr_dataset_release(&ds);

	/* 3.x rates, oriented by +R1 (1211 / 0.35 is near 3460). */
	load("tests/data/openssl/speed-mr-rsa2048-ecdsap256.txt", "openssl",
	    &ds);
	META(&ds, "rsa2048/sign", 1, "ops/s", PR_BETTER_HIGHER);
	VAL(&ds, "rsa2048/sign", 0, 3460.0);
	VAL(&ds, "rsa2048/verify", 0, 61171.875);
	VAL(&ds, "ecdsap256/sign", 0, 46970.588235);
	VAL(&ds, "ecdsap256/verify", 0, 18448.484848);
	pr_dataset_release(&ds);
}

static void
test_openssl_mr_seconds(void **state)
{
	/* OpenSSL 1.0 -mr: +F2 holds seconds per operation; the +R1 line
	 * (1000 signs in 10 s: 100/s) tells.  */
	static const char text[] =
	    "+DTP:2048:private:rsa:10\n+R1:1000:2048:10.00\n"
	    "+DTP:2048:public:rsa:10\n+R2:50000:2048:10.00\n"
	    "+F2:2:2048:0.010000:0.000200\n"
	    "+DTP:256:sign:ecdsa:10\n+R5:2000:256:10.00\n"
	    "+F4:3:256:0.005000:0.002000\n"
	    "+R7:400:256:10.00\n+F5:3:256:0.025000:40.000000\n";
	struct pr_dataset ds;
	struct pr_error err;

	(void)state;
	pr_dataset_init(&ds);
	assert_int_equal(parse_with(NULL, text, strlen(text), &ds, &err),
	    PR_OK);
	VAL(&ds, "rsa2048/sign", 0, 1 / 0.01);
	VAL(&ds, "rsa2048/verify", 0, 1 / 0.0002);
	VAL(&ds, "ecdsap256/sign", 0, 1 / 0.005);
	VAL(&ds, "ecdsap256/verify", 0, 1 / 0.002);
	META(&ds, "ecdhp256/op", 1, "ops/s", PR_BETTER_HIGHER);
	VAL(&ds, "ecdhp256/op", 0, 1 / 0.025);
	pr_dataset_release(&ds);
}

static void
test_openssl_pkey(void **state)
{
	struct pr_dataset ds;
	struct pr_error err;
	static const char text[] =
	    "                  sign    verify    sign/s verify/s\n"
	    "rsa 2048 bits 0.000259s 0.000016s   3864.0  64183.0\n"
	    "dsa 1024 bits 0.000100s 0.000090s  10000.0  11111.1\n"
	    "                              op      op/s\n"
	    " 253 bits ecdh (X25519)   0.0000s  24313.1\n"
	    "                              sign    verify    sign/s verify/s\n"
	    " 253 bits EdDSA (Ed25519)   0.0000s   0.0001s  35988.9  13229.3\n"
	    " 256 bits SM2 (CurveSM2)   0.0003s   0.0004s   3000.5   2500.0\n"
	    "                       op     op/s\n"
	    "2048 bits ffdh   0.0012s    810.2\n"
	    "                   sign    verify    encrypt   decrypt   sign/s "
	    "verify/s  encr./s  decr./s\n"
	    "rsa  4096 bits 0.004000s 0.000100s 0.000100s 0.004000s    250.0 "
	    "10000.0  10000.0    250.0\n";

	(void)state;
	load("tests/data/openssl/speed-rsa2048.txt", "openssl", &ds);
	META(&ds, "rsa2048/sign", 1, "ops/s", PR_BETTER_HIGHER);
	VAL(&ds, "rsa2048/sign", 0, 3864.0);
	VAL(&ds, "rsa2048/verify", 0, 64183.0);
	assert_int_equal(ds.n, 2);
	pr_dataset_release(&ds);

	load("tests/data/openssl/speed-ecdsap256.txt", "openssl", &ds);
	VAL(&ds, "ecdsap256/sign", 0, 40699.0);
	VAL(&ds, "ecdsap256/verify", 0, 15240.0);
	pr_dataset_release(&ds);

	/* The other tables of speed.c, named like the speed arguments. */
	pr_dataset_init(&ds);
	assert_int_equal(parse_with(NULL, text, strlen(text), &ds, &err),
	    PR_OK);
	VAL(&ds, "dsa1024/verify", 0, 11111.1);
	VAL(&ds, "ecdhx25519/op", 0, 24313.1);
	VAL(&ds, "ed25519/sign", 0, 35988.9);
	VAL(&ds, "sm2/verify", 0, 2500.0);
	VAL(&ds, "ffdh2048/op", 0, 810.2);
	VAL(&ds, "rsa4096/decrypt", 0, 250.0);
	VAL(&ds, "rsa4096/encrypt", 0, 10000.0);
	pr_dataset_release(&ds);
}

static void
test_openssl_multi(void **state)
{
	struct pr_dataset ds;

	(void)state;
	/* -multi 2: the summed table, without its header; the children's
	 * interleaved +DT/+R lines are not read. */
	load("tests/data/openssl/speed-multi2-sha256.txt", "openssl", &ds);
	META(&ds, "sha256/16B", 1, "B/s", PR_BETTER_HIGHER);
	VAL(&ds, "sha256/16B", 0, 228084820.0);     /* 228084.82k */
	VAL(&ds, "sha256/16384B", 0, 3335405570.0); /* 3335405.57k */
	assert_int_equal(ds.n, 6);
	pr_dataset_release(&ds);
}

static void
test_openssl_small_and_absent(void **state)
{
	/* Below 10000 B/s speed.c prints bytes per second without 'k';
	 * 0.00 is a test it did not run. */
	static const char text[] = "type             16 bytes     64 bytes\n"
				   "md2                9999.99         0.00 \n"
				   "sha1               12.50k      1000.00 \n";
	struct pr_dataset ds;
	struct pr_error err;

	(void)state;
	pr_dataset_init(&ds);
	assert_int_equal(parse_with(NULL, text, strlen(text), &ds, &err),
	    PR_OK);
	VAL(&ds, "md2/16B", 0, 9999.99);
	META(&ds, "md2/64B", 0, "B/s", PR_BETTER_HIGHER);
	VAL(&ds, "sha1/16B", 0, 12500.0);
	VAL(&ds, "sha1/64B", 0, 1000.0);
	pr_dataset_release(&ds);
}

static void
test_openssl_bad(void **state)
{
	char big[600];
	struct pr_parser *p = parser("openssl", NULL, NULL);

	(void)state;
	BAD(NULL,
	    "The 'numbers' are in 1000s of bytes per second processed.\n"
	    "type             16 bytes     64 bytes\n",
	    PR_EPARSE, 2, "without rows");
	BAD(NULL,
	    "type             16 bytes     64 bytes    256 bytes\n"
	    "des-ede3-cbc       586.20k     2357.87k\n",
	    PR_EPARSE, 2, "cut short: 2 of 3 values");
	/* The file ends inside a row (no line end after it). */
	BAD(NULL,
	    "type             16 bytes     64 bytes\n"
	    "des-ede3-cbc       586.20k     2357.87k\n"
	    "des-ede3",
	    PR_EPARSE, 3, "cut short");
	BAD(NULL, "Doing des-ede3-cbc for 3s on 16 size blocks: \n", PR_EPARSE,
	    1, "cut short");
	BAD(NULL,
	    "Doing des-ede3-cbc for 3s on 16 size blocks: 115774 "
	    "des-ede3-cbc's in nans\n",
	    PR_EPARSE, 1, "nan");
	BAD(NULL, "+DT:sha256:1:16\n+R:5465943:sha256\n", PR_EPARSE, 2,
	    "malformed");
	BAD(NULL, "+F:6:sha256:87455088.00:285664832.00\n", PR_EPARSE, 1,
	    "without a '+H' line");
	BAD(NULL, "+H:16:64:256\n+F:6:sha256:87455088.00:285664832.00\n",
	    PR_EPARSE, 2, "cut short: 2 of 3");
	BAD(NULL, "+H:16\n+F:6:sha256:1e999\n", PR_ERANGE, 2, "range");
	BAD(NULL, "+H:16\n+F:6:sha256:inf\n", PR_EPARSE, 2, "finite");
	BAD(NULL, "+DTP:2048:private:rsa:10\n+F2:2:2048:3460.0:61171.8\n",
	    PR_EPARSE, 2, "without its '+R1' line");
	BAD(NULL, "+R5:100:160:1.00\n+F4:16:160:100.0:50.0\n", PR_EPARSE, 2,
	    "curve #16");
	BAD(NULL,
	    "                  sign    verify    sign/s verify/s\n"
	    "rsa 2048 bits 0.000259s 0.000016s   3864.0\n",
	    PR_EPARSE, 2, "cut short");
	/* A value too large for a double, in a table. */
	memset(big, '9', 400);
	snprintf(big + 400, sizeof(big) - 400, "k\n");
	{
		char text[700];

		snprintf(text, sizeof(text), "type 16 bytes\nx %s", big);
		BAD(NULL, text, PR_ERANGE, 2, "out of range");
	}
	/* Forced openssl on something else: no results, clearly said. */
	BAD(p, "hello\n", PR_EPARSE, 0, "no openssl results found");
	BAD(p, "speed: Unknown algorithm foo\n", PR_EPARSE, 1,
	    "openssl said: speed: Unknown algorithm foo");
	pr_parser_free(p);
}

/* --- iperf3 --- */

static void
test_iperf3_seed001(void **state)
{
	struct pr_dataset ds;

	(void)state;
	/* FreeBSD bug 274994: six tests, quoted with "> " in the mail. */
	load("tests/data/seeds/seed001-iperf3.txt", "iperf3", &ds);
	META(&ds, "sender_bitrate", 6, "bit/s", PR_BETTER_HIGHER);
	VAL(&ds, "sender_bitrate", 0, 35.9e9);
	VAL(&ds, "sender_bitrate", 1, 37.2e9);
	VAL(&ds, "sender_bitrate", 2, 664e6);
	VAL(&ds, "sender_bitrate", 5, 32.7e9);
	META(&ds, "sender_transfer", 6, "B", PR_BETTER_HIGHER);
	VAL(&ds, "sender_transfer", 0, 83.6 * 1073741824.0);
	VAL(&ds, "sender_transfer", 2, 1.55 * 1073741824.0);
	META(&ds, "sender_retransmits", 6, "", PR_BETTER_LOWER);
	VAL(&ds, "sender_retransmits", 0, 0);
	VAL(&ds, "sender_retransmits", 1, 147);
	META(&ds, "receiver_bitrate", 6, "bit/s", PR_BETTER_HIGHER);
	VAL(&ds, "receiver_bitrate", 2, 661e6);
	VAL(&ds, "receiver_bitrate", 3, 39.4e9);
	VAL(&ds, "receiver_transfer", 2, 1.54 * 1073741824.0);
	assert_int_equal(ds.n, 5);
	pr_dataset_release(&ds);
}

static void
test_iperf3_text(void **state)
{
	struct pr_dataset ds;

	(void)state;
	load("tests/data/iperf3/tcp-client.txt", "iperf3", &ds);
	/* "1.16 GBytes  4.99 Gbits/sec   27   sender" */
	VAL(&ds, "sender_transfer", 0, 1.16 * 1073741824.0);
	VAL(&ds, "sender_bitrate", 0, 4.99e9);
	VAL(&ds, "sender_retransmits", 0, 27);
	VAL(&ds, "receiver_bitrate", 0, 4.83e9);
	META(&ds, "receiver_transfer", 1, "B", PR_BETTER_HIGHER);
	pr_dataset_release(&ds);

	/* The server knows only the receiving side. */
	load("tests/data/iperf3/tcp-server.txt", "iperf3", &ds);
	VAL(&ds, "receiver_bitrate", 0, 4.83e9);
	assert_null(pr_dataset_find(&ds, "sender_bitrate"));
	pr_dataset_release(&ds);

	/* -P 2: the [SUM] lines, not the streams. */
	load("tests/data/iperf3/tcp-p2-client.txt", "iperf3", &ds);
	META(&ds, "sender_bitrate", 1, "bit/s", PR_BETTER_HIGHER);
	VAL(&ds, "sender_bitrate", 0, 14.0e9);
	VAL(&ds, "sender_transfer", 0, 3.25 * 1073741824.0);
	VAL(&ds, "sender_retransmits", 0, 23);
	pr_dataset_release(&ds);

	/* UDP: "477 MBytes 2.00 Gbits/sec 0.000 ms 0/15253 (0%) sender",
	 * "432 MBytes 1.81 Gbits/sec 0.009 ms 1438/15253 (9.4%) receiver" */
	load("tests/data/iperf3/udp-b1g-client.txt", "iperf3", &ds);
	VAL(&ds, "sender_transfer", 0, 477 * 1048576.0);
	VAL(&ds, "sender_datagrams", 0, 15253);
	VAL(&ds, "receiver_bitrate", 0, 1.81e9);
	META(&ds, "receiver_jitter", 1, "ms", PR_BETTER_LOWER);
	VAL(&ds, "receiver_jitter", 0, 0.009);
	VAL(&ds, "receiver_lost", 0, 1438);
	VAL(&ds, "receiver_datagrams", 0, 15253);
	META(&ds, "receiver_lost_pct", 1, "%", PR_BETTER_LOWER);
	VAL(&ds, "receiver_lost_pct", 0, 100 * 1438.0 / 15253.0);
	assert_null(pr_dataset_find(&ds, "sender_jitter"));
	pr_dataset_release(&ds);

	load("tests/data/iperf3/udp-server.txt", "iperf3", &ds);
	VAL(&ds, "receiver_transfer", 0, 256 * 1024.0);
	VAL(&ds, "receiver_jitter", 0, 0.078);
	VAL(&ds, "receiver_lost_pct", 0, 0);
	pr_dataset_release(&ds);
}

/*
 * The units, checked against iperf3 itself: the same test seen by the
 * client's text and by the server's -J JSON (exact bytes and bits/s).
 * "1.06 GBytes" only rounds from the exact byte count with 2^30, "4.53
 * Gbits/sec" only with 10^9.
 */
static void
test_iperf3_units_vs_json(void **state)
{
	struct pr_dataset t, j;
	double tb, jb, tr, jr;

	(void)state;
	load("tests/data/iperf3/paired-client.txt", "iperf3", &t);
	load("tests/data/iperf3/paired-server.json", "iperf3", &j);
	tb = metric(&t, "receiver_transfer", __LINE__)->values.v[0];
	jb = metric(&j, "receiver_transfer", __LINE__)->values.v[0];
	tr = metric(&t, "receiver_bitrate", __LINE__)->values.v[0];
	jr = metric(&j, "receiver_bitrate", __LINE__)->values.v[0];
	/* Within half a unit of the last printed digit (3 digits). */
	assert_true(fabs(tb - jb) <= 0.005 * 1073741824.0);
	assert_true(fabs(tr - jr) <= 0.005e9);
	/* And not so under the other reading of the prefixes. */
	assert_false(fabs(tb / 1073741824.0 * 1e9 - jb) <= 0.005e9);
	pr_dataset_release(&t);
	pr_dataset_release(&j);

	load("tests/data/iperf3/udp-server-for-json.txt", "iperf3", &t);
	load("tests/data/iperf3/udp-client.json", "iperf3", &j);
	VAL(&t, "receiver_transfer", 0, 262144.0);
	VAL(&j, "receiver_transfer", 0, 262144.0);
	assert_true(
	    fabs(metric(&t, "receiver_bitrate", __LINE__)->values.v[0] -
		metric(&j, "receiver_bitrate", __LINE__)->values.v[0]) <=
	    0.005e6);
	pr_dataset_release(&t);
	pr_dataset_release(&j);
}

static void
test_iperf3_json(void **state)
{
	struct pr_dataset ds;

	(void)state;
	load("tests/data/iperf3/tcp-client.json", "iperf3", &ds);
	META(&ds, "sender_bitrate", 1, "bit/s", PR_BETTER_HIGHER);
	VAL(&ds, "sender_bitrate", 0, 9326365389.86498);
	VAL(&ds, "sender_transfer", 0, 2331770880.0);
	VAL(&ds, "sender_retransmits", 0, 23);
	VAL(&ds, "receiver_bitrate", 0, 9300035602.80199);
	VAL(&ds, "receiver_transfer", 0, 2325348352.0);
	META(&ds, "cpu_host", 1, "%", PR_BETTER_LOWER);
	pr_dataset_release(&ds);

	load("tests/data/iperf3/udp-client.json", "iperf3", &ds);
	VAL(&ds, "receiver_jitter", 0, 0.46240165501832964);
	VAL(&ds, "receiver_lost", 0, 0);
	VAL(&ds, "receiver_datagrams", 0, 8);
	VAL(&ds, "sender_bitrate", 0, 1048507.3227703585);
	pr_dataset_release(&ds);

	/* A server's JSON: its own side only. */
	load("tests/data/iperf3/tcp-server.json", "iperf3", &ds);
	VAL(&ds, "receiver_transfer", 0, 2325348352.0);
	assert_null(pr_dataset_find(&ds, "sender_transfer"));
	pr_dataset_release(&ds);
}

/*
 * Issue 12: what iperf3 prints beyond the summary: the CPU utilisation
 * split into user and system, host and remote (-J, and -V in text), and
 * each stream's figures with -P (iperf3 3.12's -P JSON repeats keys in
 * "start", which must not make it unreadable).
 */
static void
test_iperf3_more(void **state)
{
	struct pr_dataset ds;
	struct pr_parser *p;

	(void)state;
	load("tests/data/iperf3/tcp-client.json", "iperf3", &ds);
	VAL(&ds, "cpu_host", 0, 10.584118395878626);
	VAL(&ds, "cpu_host_user", 0, 1.8239604590344465);
	VAL(&ds, "cpu_host_system", 0, 8.76020772150065);
	VAL(&ds, "cpu_remote", 0, 56.002247652737644);
	VAL(&ds, "cpu_remote_user", 0, 4.6757276000857866);
	VAL(&ds, "cpu_remote_system", 0, 51.326470060375669);
	META(&ds, "cpu_remote_system", 1, "%", PR_BETTER_LOWER);
	/* One stream: no per-stream figures, they would repeat the test's. */
	assert_null(pr_dataset_find(&ds, "stream1_sender_bitrate"));
	pr_dataset_release(&ds);

	load("tests/data/iperf3/tcp-verbose-client.txt", "iperf3", &ds);
	VAL(&ds, "cpu_host", 0, 9.4);
	VAL(&ds, "cpu_host_user", 0, 0.0);
	VAL(&ds, "cpu_host_system", 0, 9.4);
	VAL(&ds, "cpu_remote", 0, 7.3);
	VAL(&ds, "cpu_remote_user", 0, 0.2);
	VAL(&ds, "cpu_remote_system", 0, 7.2);
	assert_non_null(pr_dataset_find(&ds, "sender_bitrate"));
	pr_dataset_release(&ds);

	load("tests/data/iperf3/tcp-p2-client.json", "iperf3", &ds);
	VAL(&ds, "sender_bitrate", 0, 4738246370.6360922);
	VAL(&ds, "stream1_sender_bitrate", 0, 2389904967.6453972);
	VAL(&ds, "stream1_sender_retransmits", 0, 6);
	VAL(&ds, "stream1_receiver_transfer", 0, 300154880);
	VAL(&ds, "stream2_sender_transfer", 0, 296222720);
	VAL(&ds, "stream2_receiver_bitrate", 0, 2278231950.7291551);
	META(&ds, "stream2_sender_retransmits", 1, "", PR_BETTER_LOWER);
	assert_null(pr_dataset_find(&ds, "stream3_sender_bitrate"));
	pr_dataset_release(&ds);

	/* Text -P: the [SUM] lines for the test, each stream's own lines
	 * numbered in order of appearance ([  5] is stream 1). */
	load("tests/data/iperf3/tcp-p2-client.txt", "iperf3", &ds);
	VAL(&ds, "sender_bitrate", 0, 14.0e9);
	VAL(&ds, "stream1_sender_bitrate", 0, 7.00e9);
	VAL(&ds, "stream1_sender_retransmits", 0, 12);
	VAL(&ds, "stream2_sender_bitrate", 0, 6.96e9);
	VAL(&ds, "stream2_receiver_bitrate", 0, 6.96e9);
	META(&ds, "stream2_sender_bitrate", 1, "bit/s", PR_BETTER_HIGHER);
	pr_dataset_release(&ds);

	p = parser("iperf3", NULL, NULL);
	BAD(p,
	    "CPU Utilization: local/sender 9.4% (0.0%u/9.4%s), "
	    "remote/receiver 7.3% (0.2%u/7.x%s)\n",
	    PR_EPARSE, 1, "'7.x'");
	BAD(p, "CPU Utilization: local/sender 9.4% (0.0%u/9.4%s)\n", PR_EPARSE,
	    1, "malformed iperf3 CPU");
	pr_parser_free(p);
}

static void
test_iperf3_errors(void **state)
{
	struct pr_dataset ds;
	struct pr_error err;
	const char *used;
	FILE *f;
	char buf[8192];
	size_t n;

	(void)state;
	pr_dataset_init(&ds);
	assert_int_equal(parse_path("tests/data/iperf3/refused-client.json",
			     NULL, &ds, &used, &err),
	    PR_EPARSE);
	assert_non_null(strstr(err.msg,
	    "iperf3 reported an error: unable "
	    "to connect to server: Connection "
	    "refused"));
	assert_int_equal(parse_path("tests/data/iperf3/refused-client.txt",
			     NULL, &ds, &used, &err),
	    PR_EPARSE);
	assert_int_equal(err.line, 1);
	assert_non_null(strstr(err.msg, "Connection refused"));
	assert_int_equal(ds.n, 0);

	/* JSON cut in the middle of an object. */
	f = fopen("tests/data/iperf3/tcp-client.json", "rb");
	assert_non_null(f);
	n = fread(buf, 1, 2000, f);
	fclose(f);
	check_bad(NULL, buf, n, PR_EPARSE, 0, "invalid iperf3 JSON", __LINE__);

	/* Text cut inside the summary. */
	BAD(NULL,
	    "[ ID] Interval           Transfer     Bitrate         Retr\n"
	    "[  5]   0.00-2.00   sec  1.16 GBytes  4.99 Gbits/sec   27      "
	    "       sender\n[  5]   0.00-2.06   sec  1.16 GBytes  4.8",
	    PR_EPARSE, 3, "cut short");
	BAD(NULL,
	    "[ ID] Interval           Transfer     Bitrate\n"
	    "[  5]   0.00-1.00   sec   634 MBytes  5.32 Gbits/sec\n",
	    PR_EPARSE, 0, "without summary lines");
	BAD(NULL,
	    "[  5]   0.00-2.00   sec  1.16 XBytes  4.99 Gbits/sec   27  "
	    "sender\n",
	    PR_EPARSE, 1, "unknown iperf3 transfer unit");
	BAD(NULL,
	    "[  5]   0.00-2.00   sec  nan GBytes  4.99 Gbits/sec   27  "
	    "sender\n",
	    PR_EPARSE, 1, "finite");
	BAD(NULL,
	    "[  5]   0.00-2.00   sec  1.1 GBytes 1 Gbits/sec 0.1 ms "
	    "9/8 (112%)  receiver\n",
	    PR_EPARSE, 1, "more datagrams lost");
	BAD(NULL,
	    "{\"start\":{},\"intervals\":[],\"end\":{\"sum_sent\":"
	    "{\"bytes\":\"x\"}}}",
	    PR_EPARSE, 1, "a number was expected");
	BAD(NULL, "{\"start\":{},\"intervals\":[],\"end\":{}}", PR_EPARSE, 1,
	    "no summary");
	/* Found by fuzz_parse_iperf3: a server's JSON whose only summary is
	 * the side it does not report parsed as an empty success. */
	BAD(NULL,
	    "{\"start\":{\"accepted_connection\":{}},\"intervals\":"
	    "[],\"end\":{\"sum_sent\":{\"bytes\":5}}}",
	    PR_EPARSE, 1, "holds no figures");
	BAD(NULL, "{\"start\":{},\"intervals\":[],\"end\":{\"sum\":{}}}",
	    PR_EPARSE, 1, "holds no figures");
}

/* --- time accounting and dd --- */

static void
test_time_gnu(void **state)
{
	struct pr_dataset ds;

	(void)state;
	/* "0.26user 0.00system 0:00.45elapsed 57%CPU (0avgtext+0avgdata
	 *  1628maxresident)k" / "0inputs+0outputs (0major+85minor)..." */
	load("tests/data/time/gnu-time-loop.txt", "time", &ds);
	META(&ds, "user", 1, "s", PR_BETTER_LOWER);
	VAL(&ds, "user", 0, 0.26);
	VAL(&ds, "sys", 0, 0.00);
	META(&ds, "elapsed", 1, "s", PR_BETTER_LOWER);
	VAL(&ds, "elapsed", 0, 0.45);
	META(&ds, "cpu", 1, "%", PR_BETTER_UNKNOWN);
	VAL(&ds, "cpu", 0, 57);
	META(&ds, "maxrss", 1, "KiB", PR_BETTER_LOWER);
	VAL(&ds, "maxrss", 0, 1628);
	VAL(&ds, "minor_faults", 0, 85);
	VAL(&ds, "major_faults", 0, 0);
	VAL(&ds, "swaps", 0, 0);
	assert_int_equal(ds.n, 12);
	pr_dataset_release(&ds);

	/* dd's summary in the same capture. */
	load("tests/data/time/gnu-time-default.txt", "time", &ds);
	VAL(&ds, "fs_inputs", 0, 176);
	VAL(&ds, "fs_outputs", 0, 16);
	VAL(&ds, "dd_bytes", 0, 209715200);
	VAL(&ds, "dd_seconds", 0, 0.0262563);
	VAL(&ds, "dd_rate", 0, 8.0e9);
	pr_dataset_release(&ds);

	load("tests/data/time/gnu-time-v-loop.txt", "time", &ds);
	VAL(&ds, "user", 0, 0.28);
	VAL(&ds, "elapsed", 0, 0.42); /* "0:00.42" */
	VAL(&ds, "cpu", 0, 67);
	VAL(&ds, "maxrss", 0, 1572);
	VAL(&ds, "voluntary_cs", 0, 1);
	VAL(&ds, "involuntary_cs", 0, 42);
	META(&ds, "minor_faults", 1, "", PR_BETTER_LOWER);
	assert_null(pr_dataset_find(&ds, "Page size (bytes)"));
	pr_dataset_release(&ds);

	load("tests/data/time/gnu-time-p-loop.txt", "time", &ds);
	VAL(&ds, "elapsed", 0, 0.46);
	VAL(&ds, "user", 0, 0.25);
	VAL(&ds, "sys", 0, 0);
	assert_int_equal(ds.n, 3);
	pr_dataset_release(&ds);
}

static void
test_time_shells(void **state)
{
	struct pr_dataset ds;
	struct pr_error err;
	static const char zsh[] =
	    "sh -c 'true'  0.26s user 0.01s system 57% cpu 1:02.451 total\n";

	(void)state;
	load("tests/data/time/bash-time-loop.txt", "time", &ds);
	VAL(&ds, "elapsed", 0, 0.553); /* "real\t0m0.553s" */
	VAL(&ds, "user", 0, 0.254);
	VAL(&ds, "sys", 0, 0.002);
	pr_dataset_release(&ds);

	/* tcsh: "0.260u 0.000s 0:00.51 50.9%\t0+0k 0+0io 0pf+0w" */
	load("tests/data/time/tcsh-time-loop.txt", "time", &ds);
	VAL(&ds, "user", 0, 0.26);
	VAL(&ds, "elapsed", 0, 0.51);
	VAL(&ds, "cpu", 0, 50.9);
	VAL(&ds, "avgdata", 0, 0);
	VAL(&ds, "fs_outputs", 0, 0);
	pr_dataset_release(&ds);

	pr_dataset_init(&ds);
	assert_int_equal(parse_with(NULL, zsh, strlen(zsh), &ds, &err), PR_OK);
	VAL(&ds, "user", 0, 0.26);
	VAL(&ds, "sys", 0, 0.01);
	VAL(&ds, "cpu", 0, 57);
	VAL(&ds, "elapsed", 0, 62.451);
	pr_dataset_release(&ds);
}

static void
test_time_seeds(void **state)
{
	struct pr_dataset ds;
	static const double elapsed[] = { 5.30, 5.18, 5.61, 4.83, 5.16, 4.87 };
	static const double user3[] = { 7.258, 7.222, 7.239, 7.019, 7.019,
		7.028 };
	static const double el3[] = { 7.69, 7.67, 7.69, 7.02, 7.02, 7.02 };
	size_t i;

	(void)state;
	/* Seed 002: six GNU time lines in a mail. */
	load("tests/data/seeds/seed002-gnu-time.txt", "time", &ds);
	META(&ds, "elapsed", 6, "s", PR_BETTER_LOWER);
	for (i = 0; i < 6; i++)
		VAL(&ds, "elapsed", i, elapsed[i]);
	VAL(&ds, "sys", 0, 2.74);
	VAL(&ds, "maxrss", 5, 2460);
	pr_dataset_release(&ds);

	/* Seed 003: csh time lines inside a diff of a C comment. */
	load("tests/data/seeds/seed003-csh-time.txt", "time", &ds);
	META(&ds, "user", 6, "s", PR_BETTER_LOWER);
	for (i = 0; i < 6; i++) {
		VAL(&ds, "user", i, user3[i]);
		VAL(&ds, "elapsed", i, el3[i]);
	}
	VAL(&ds, "cpu", 5, 100.0);
	VAL(&ds, "avgdata", 0, 70);
	VAL(&ds, "fs_inputs", 0, 2);
	pr_dataset_release(&ds);
}

static void
test_dd(void **state)
{
	struct pr_dataset ds;
	struct pr_error err;
	static const char bsd[] =
	    "104857600 bytes transferred in 0.041437 secs (2530532472 "
	    "bytes/sec)\n";
	static const char zero[] = "0 bytes copied, 0 s, Infinity B/s\n";

	(void)state;
	load("tests/data/dd/dd-100M.txt", "time", &ds);
	META(&ds, "dd_bytes", 1, "B", PR_BETTER_UNKNOWN);
	VAL(&ds, "dd_bytes", 0, 104857600);
	VAL(&ds, "dd_seconds", 0, 0.00483001);
	META(&ds, "dd_rate", 1, "B/s", PR_BETTER_HIGHER);
	VAL(&ds, "dd_rate", 0, 21.7e9); /* "21.7 GB/s", SI */
	pr_dataset_release(&ds);

	load("tests/data/dd/dd-1byte.txt", "time", &ds);
	VAL(&ds, "dd_bytes", 0, 1);
	VAL(&ds, "dd_rate", 0, 6.7e3); /* "6.7 kB/s" */
	pr_dataset_release(&ds);

	pr_dataset_init(&ds);
	assert_int_equal(parse_with(NULL, bsd, strlen(bsd), &ds, &err), PR_OK);
	VAL(&ds, "dd_seconds", 0, 0.041437);
	VAL(&ds, "dd_rate", 0, 2530532472.0);
	pr_dataset_release(&ds);

	/* A rate dd could not compute is absent, not infinite. */
	pr_dataset_init(&ds);
	assert_int_equal(parse_with(NULL, zero, strlen(zero), &ds, &err),
	    PR_OK);
	META(&ds, "dd_rate", 0, "B/s", PR_BETTER_HIGHER);
	VAL(&ds, "dd_seconds", 0, 0);
	pr_dataset_release(&ds);
}

static void
test_time_bad(void **state)
{
	struct pr_dataset ds;
	struct pr_error err;
	static const char two_runs[] =
	    "0.01user 0.00system 0:00.02elapsed 50%CPU "
	    "(0avgtext+0avgdata 1612maxresident)k\n"
	    "Command exited with non-zero status 2\n"
	    "0.02user 0.00system 0:00.03elapsed 66%CPU "
	    "(0avgtext+0avgdata 1612maxresident)k\n";
	static const char hours[] =
	    "1.00user 0.50system 1:02:03elapsed ?%CPU (0avgtext+0avgdata "
	    "1000maxresident)k\n";

	(void)state;
	/* Issue 12: a command that exited with status 3 is reported, its
	 * figures and its status; -v says it twice, once counted. */
	load("tests/data/time/gnu-time-exit3.txt", "time", &ds);
	VAL(&ds, "exit_status", 0, 3);
	META(&ds, "exit_status", 1, "", PR_BETTER_UNKNOWN);
	VAL(&ds, "elapsed", 0, 0.02);
	VAL(&ds, "maxrss", 0, 1612);
	VAL(&ds, "minor_faults", 0, 87);
	pr_dataset_release(&ds);
	load("tests/data/time/gnu-time-v-exit3.txt", "time", &ds);
	META(&ds, "exit_status", 1, "", PR_BETTER_UNKNOWN);
	VAL(&ds, "exit_status", 0, 3);
	VAL(&ds, "elapsed", 0, 0.01);
	pr_dataset_release(&ds);
	/* Once one run failed, every run has a status: 0 for the others. */
	assert_int_equal(parse_with(NULL, two_runs, strlen(two_runs), &ds,
			     &err),
	    PR_OK);
	VAL(&ds, "exit_status", 0, 0);
	VAL(&ds, "exit_status", 1, 2);
	VAL(&ds, "user", 1, 0.02);
	pr_dataset_release(&ds);
	/* Without a failure, no exit_status at all (as before). */
	load("tests/data/time/gnu-time-v.txt", "time", &ds);
	assert_null(pr_dataset_find(&ds, "exit_status"));
	pr_dataset_release(&ds);
	pr_dataset_init(&ds);
	BAD(NULL,
	    "Command exited with non-zero status x\n0.05user 2.74system "
	    "0:05.30elapsed 52%CPU (0avgtext+0avgdata 2400maxresident)k\n",
	    PR_EPARSE, 1, "N from 1 to 255");

	/* h:mm:ss, and a CPU share time could not compute. */
	assert_int_equal(parse_with(NULL, hours, strlen(hours), &ds, &err),
	    PR_OK);
	VAL(&ds, "elapsed", 0, 3723);
	META(&ds, "cpu", 0, "%", PR_BETTER_UNKNOWN);
	pr_dataset_release(&ds);

	BAD(NULL, "0.05user 2.74system 0:05.30elapsed\n", PR_EPARSE, 1,
	    "cut short");
	BAD(NULL,
	    "0.05user 2.74system 0:75.30elapsed 52%CPU (0avgtext+"
	    "0avgdata 2400maxresident)k\n",
	    PR_EPARSE, 1, "past 59");
	BAD(NULL,
	    "Command terminated by signal 9\n0.05user 2.74system "
	    "0:05.30elapsed 52%CPU (0avgtext+0avgdata 2400maxresident)k\n",
	    PR_EPARSE, 1, "signal 9");
	BAD(NULL, "\tUser time (seconds): 0.28\n\tExit status: 2x\n", PR_EPARSE,
	    2, "expected an exit status");
	BAD(NULL, "\tUser time (seconds): nan\n", PR_EPARSE, 1, "finite");
	BAD(NULL, "real\t0m5.3x\n", PR_EPARSE, 1, "expected a time");
	BAD(NULL, "7.258u 0.000s 0:07.69 94.2%     2+70k 2+0io 0pf+1e999w\n",
	    PR_EPARSE, 1, "expected '<number>w'");
	BAD(NULL,
	    "104857600 bytes (105 MB, 100 MiB) copied, 0.0123 s, 8.5 "
	    "QB/s\n",
	    PR_EPARSE, 1, "unknown dd rate unit");
	BAD(NULL, "104857600 bytes (105 MB, 100 MiB) copied, 0.01\n", PR_EPARSE,
	    1, "cut short");
}

/* The bytes of a captured file; the caller frees them. */
static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	b[n] = '\0';
	*len = (size_t)n;
	return b;
}

/*
 * A capture with the last line damaged in place: line `line` (1-based)
 * replaced by `with`, the rest kept.  Must fail at that line, with a
 * message holding needle.
 */
static void
damaged(const char *path, long line, const char *with, const char *needle,
    int where)
{
	struct pr_buf b = PR_BUF_INIT(1 << 24);
	size_t len, i;
	long no = 1;
	char *text = slurp(path, &len);

	for (i = 0; i < len; i++) {
		if (no != line)
			assert_int_equal(pr_buf_addc(&b, text[i], NULL), PR_OK);
		if (text[i] == '\n' && ++no == line)
			assert_int_equal(pr_buf_addf(&b, NULL, "%s\n", with),
			    PR_OK);
	}
	check_bad(NULL, b.data, b.len, PR_EPARSE, line, needle, where);
	pr_buf_release(&b);
	free(text);
}

/*
 * Issue 12: a line recognised as the format's parses completely or is an
 * error at its line; a number is a whole token; a record cut at the end
 * of the input is an error.  On captured outputs.
 */
static void
test_damaged(void **state)
{
	static const struct {
		const char *path;
		size_t cut; /* bytes taken off the end */
		long line;
		const char *needle;
	} cuts[] = {
		/* "3050831.87k" cut to "3050831." read as 3050831 B/s. */
		{ "tests/data/openssl/speed-evp-aes-128-gcm.txt", 4, 14,
		    "cut short" },
		{ "tests/data/openssl/speed-rsa2048.txt", 3, 0, "cut short" },
		{ "tests/data/openssl/speed-mr-sha256.txt", 3, 0, "cut short" },
		{ "tests/data/time/gnu-time-p.txt", 2, 0, "cut short" },
		{ "tests/data/time/bash-time.txt", 2, 0, "cut short" },
		{ "tests/data/time/tcsh-time.txt", 2, 0, "cut short" },
		{ "tests/data/dd/dd-100M.txt", 10, 0, "cut short" },
		{ "tests/data/iperf3/tcp-client.txt", 60, 0, "cut short" },
		/* "0.004120000 seconds sys" cut to "... seconds sy": the
		 * line is no longer perf's, but sys was there. */
		{ "tests/data/perf/perf-stat.txt", 4, 0, "cut short" },
		{ "tests/data/perf/perf-stat.txt", 6, 0, "cut short" },
	};
	static const char gnu[] = "tests/data/time/gnu-time-default.txt";
	size_t i, len;
	char *text;

	(void)state;
	for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		text = slurp(cuts[i].path, &len);
		assert_true(len > cuts[i].cut);
		check_bad(NULL, text, len - cuts[i].cut, PR_EPARSE,
		    cuts[i].line, cuts[i].needle, __LINE__);
		free(text);
	}

	/* GNU time's first line with a damaged field: each is an error,
	 * not a line skipped with its user, system and elapsed times. */
	damaged(gnu, 4,
	    "0.00user 0.01sys#@!tem 0:00.05elapsed 24%CPU (0avgtext+"
	    "0avgdata 2820maxresident)k",
	    "got '0.01sys#@!tem'", __LINE__);
	damaged(gnu, 4,
	    "0.00user 0.01system 0:00.0Oelapsed 24%CPU (0avgtext+"
	    "0avgdata 2820maxresident)k",
	    "expected a time", __LINE__);
	damaged(gnu, 4,
	    "nanuser 0.01system 0:00.05elapsed 24%CPU (0avgtext+"
	    "0avgdata 2820maxresident)k",
	    "got 'nanuser'", __LINE__);
	damaged(gnu, 4,
	    "0.00user infsystem 0:00.05elapsed 24%CPU (0avgtext+"
	    "0avgdata 2820maxresident)k",
	    "got 'infsystem'", __LINE__);
	damaged(gnu, 4,
	    "0.00user 0.01system 0:00.05elapsed 24%CPU (0avgtext 0k",
	    "expected '<n>%CPU", __LINE__);
	damaged("tests/data/time/gnu-time-p.txt", 4, "real nan",
	    "with a fraction", __LINE__);
	damaged("tests/data/time/gnu-time-p.txt", 6, "sys 0", "with a fraction",
	    __LINE__);
	damaged("tests/data/time/bash-time.txt", 7, "sys\t0",
	    "expected a time like '0m5.300s'", __LINE__);
	/* openssl prints "%.2f", with a 'k' above 10000. */
	damaged("tests/data/openssl/speed-evp-aes-128-gcm.txt", 14,
	    "AES-128-GCM      32747.66k   123604.35k   447754.50k  "
	    "1272540.16k  2839625.73k  3050831.8k",
	    "2 decimals", __LINE__);
	damaged("tests/data/openssl/speed-evp-aes-128-gcm.txt", 14,
	    "AES-128-GCM      32747.66k   123604.35k   447754.50k  "
	    "1272540.16k  2839625.73k  3050831.87",
	    "above 10000", __LINE__);
	damaged("tests/data/openssl/speed-rsa2048.txt", 9,
	    "rsa 2048 bits 0.000259s 0.000016s   3864.0  6418", "1 decimal",
	    __LINE__);
}

/* --- perf stat --- */

static void
test_perf(void **state)
{
	struct pr_dataset ds;

	(void)state;
	load("tests/data/perf/perf-stat.txt", "perf", &ds);
	/* "89.44 msec task-clock" */
	META(&ds, "task-clock", 1, "ms", PR_BETTER_LOWER);
	VAL(&ds, "task-clock", 0, 89.44);
	META(&ds, "context-switches", 1, "", PR_BETTER_LOWER);
	VAL(&ds, "context-switches", 0, 18);
	VAL(&ds, "page-faults", 0, 63);
	/* "<not supported> cycles": absent, never zero. */
	META(&ds, "cycles", 0, "", PR_BETTER_LOWER);
	META(&ds, "branch-misses", 0, "", PR_BETTER_LOWER);
	VAL(&ds, "elapsed", 0, 0.183011042);
	VAL(&ds, "user", 0, 0.090641);
	VAL(&ds, "sys", 0, 0.004120);
	assert_int_equal(ds.n, 11);
	pr_dataset_release(&ds);

	load("tests/data/perf/perf-stat-r3.txt", "perf", &ds);
	VAL(&ds, "task-clock", 0, 89.91);
	VAL(&ds, "elapsed", 0, 0.13610); /* "0.13610 +- 0.00448" */
	assert_null(pr_dataset_find(&ds, "user"));
	pr_dataset_release(&ds);

	load("tests/data/perf/perf-stat-e.txt", "perf", &ds);
	META(&ds, "instructions:u", 0, "", PR_BETTER_LOWER);
	VAL(&ds, "task-clock", 0, 89.51);
	pr_dataset_release(&ds);

	/* perf output after dd's: the dd lines are not perf's. */
	load("tests/data/perf/perf-stat-dd.txt", "perf", &ds);
	VAL(&ds, "task-clock", 0, 8.67);
	assert_null(pr_dataset_find(&ds, "dd_bytes"));
	pr_dataset_release(&ds);

	load("tests/data/perf/perf-stat-x.txt", "perf", &ds);
	VAL(&ds, "task-clock", 0, 88.83); /* "88.83,msec,task-clock,..." */
	VAL(&ds, "context-switches", 0, 15);
	META(&ds, "cycles", 0, "", PR_BETTER_LOWER);
	assert_int_equal(ds.n, 8);
	pr_dataset_release(&ds);

	/* -x, -r 3: the stddev field after the event. */
	load("tests/data/perf/perf-stat-x-r3-dd.txt", "perf", &ds);
	VAL(&ds, "task-clock", 0, 8.28);
	VAL(&ds, "page-faults", 0, 337);
	pr_dataset_release(&ds);
}

static void
test_perf_bad(void **state)
{
	struct pr_dataset ds;
	struct pr_error err;
	const char *used;
	static const char grouped[] = " Performance counter stats for 'x':\n\n"
				      "     1,234,567      cycles:u\n"
				      "        12,345.5 msec task-clock\n\n"
				      "       1.5 seconds time elapsed\n";

	(void)state;
	pr_dataset_init(&ds);
	assert_int_equal(parse_path("tests/data/perf/perf-stat-badevent.txt",
			     NULL, &ds, &used, &err),
	    PR_EPARSE);
	assert_non_null(strstr(err.msg, "event syntax error"));
	assert_int_equal(ds.n, 0);

	assert_int_equal(parse_with(NULL, grouped, strlen(grouped), &ds, &err),
	    PR_OK);
	VAL(&ds, "cycles:u", 0, 1234567);
	VAL(&ds, "task-clock", 0, 12345.5);
	VAL(&ds, "elapsed", 0, 1.5);
	pr_dataset_release(&ds);

	BAD(NULL,
	    " Performance counter stats for 'x':\n\n"
	    "     1,234,567      cycles\n",
	    PR_EPARSE, 1, "cut short");
	BAD(NULL,
	    " Performance counter stats for 'x':\n\n"
	    "     12,34,567      cycles\n\n 1.5 seconds time elapsed\n",
	    PR_EPARSE, 3, "1,234,567");
	BAD(NULL,
	    " Performance counter stats for 'x':\n\n"
	    "     nan      cycles\n\n 1.5 seconds time elapsed\n",
	    PR_EPARSE, 3, "not a finite number");
	BAD(NULL,
	    " Performance counter stats for 'x':\n"
	    "     1.001042158              1,234      cycles\n",
	    PR_EPARSE, 2, "interval output");
	BAD(NULL, "CPU0,1234,,cycles,1000,100.00,,\n", PR_EPARSE, 1, "per-CPU");
	BAD(NULL, "1.001,1234,,cycles,1000,100.00,,\n", PR_EPARSE, 1,
	    "interval");
	BAD(NULL, "1e999,,cycles,1000,100.00,,\n", PR_ERANGE, 1,
	    "out of range");
	/* One event in two units. */
	BAD(NULL, "5,msec,foo,1,100.00,,\n6,,foo,1,100.00,,\n", PR_EPARSE, 0,
	    "is in 'ms' and in ''");
}

/* --- user and derived metrics --- */

static void
test_metric(void **state)
{
	struct pr_parser *p;
	struct pr_dataset ds;
	struct pr_error err;
	static const char text[] = "lat: 12.5 ms\nlat: -3 ms\nlat: 1e3 ms\n";

	(void)state;
	/* Seed 002's own arithmetic, "=> 25.0MB/s". */
	p = parser(NULL, "mbs=([0-9.]+)MB/s:MB/s", NULL);
	pr_dataset_init(&ds);
	assert_int_equal(pr_parse_file(p,
			     "tests/data/seeds/seed002-gnu-time.txt", 0, &ds,
			     NULL, &err),
	    PR_OK);
	META(&ds, "mbs", 2, "MB/s", PR_BETTER_HIGHER);
	VAL(&ds, "mbs", 0, 25.0);
	VAL(&ds, "mbs", 1, 27.1);
	/* The built-in format is read too. */
	META(&ds, "elapsed", 6, "s", PR_BETTER_LOWER);
	pr_dataset_release(&ds);
	pr_parser_free(p);

	/* Format none; direction given; a colon kept with "\:". */
	p = parser("none", "lat=^lat\\: (\\S+) ms:ms:higher", NULL);
	pr_dataset_init(&ds);
	assert_int_equal(parse_with(p, text, strlen(text), &ds, &err), PR_OK);
	META(&ds, "lat", 3, "ms", PR_BETTER_HIGHER);
	VAL(&ds, "lat", 0, 12.5);
	VAL(&ds, "lat", 1, -3);
	VAL(&ds, "lat", 2, 1000);
	pr_dataset_release(&ds);
	pr_parser_free(p);

	/* Unit from a word, no direction: the unit's (ms is a time). */
	p = parser("none", "lat=lat: (\\S+) ms:ms", NULL);
	pr_dataset_init(&ds);
	assert_int_equal(parse_with(p, text, strlen(text), &ds, &err), PR_OK);
	META(&ds, "lat", 3, "ms", PR_BETTER_LOWER);
	pr_dataset_release(&ds);
	pr_parser_free(p);

	/* An empty match cannot loop. */
	p = parser("none", "n=x*(\\d*)", NULL);
	BAD(p, "abc\n", PR_EPARSE, 1, "got an empty field");
	pr_parser_free(p);
}

static void
test_metric_bad(void **state)
{
	struct pr_parser *p;
	struct pr_error err;
	char *big;
	size_t n = 5u << 20;

	(void)state;
	assert_int_equal(pr_parser_new(&p, &err), PR_OK);
	assert_int_equal(pr_parser_add_metric(p, "x", &err), PR_EINVAL);
	assert_int_equal(pr_parser_add_metric(p, "=(\\d+)", &err), PR_EINVAL);
	assert_int_equal(pr_parser_add_metric(p, "x=", &err), PR_EINVAL);
	assert_int_equal(pr_parser_add_metric(p, "x=\\d+", &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "capture group"));
	assert_int_equal(pr_parser_add_metric(p, "x=(\\d+", &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "offset"));
	assert_int_equal(pr_parser_add_metric(p, "x=(\\d+)", &err), PR_OK);
	assert_int_equal(pr_parser_add_metric(p, "x=(\\w+)", &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "twice"));
	/* A unit too long: the message names the metric, read before the
	 * half-built metric is freed (a use after free found by
	 * fuzz_parse_metric). */
	assert_int_equal(pr_parser_add_metric(p,
			     "lat=(\\S+) ms:"
			     "mwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww"
			     "wwwwwwwwwwwwwwwww"
			     "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww"
			     "wwwwwwwwwwwwwww"
			     "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww"
			     "wwwwwwwwwwwwwww"
			     "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww"
			     "wwwwwwwwwwwwwww",
			     &err),
	    PR_EINVAL);
	assert_string_equal(err.msg, "--metric 'lat': unit too long");
	pr_parser_free(p);

	p = parser("none", "v=value (\\S+)", NULL);
	BAD(p, "value 1\nvalue abc\n", PR_EPARSE, 2, "'abc'");
	BAD(p, "value 1\nvalue nan\n", PR_EPARSE, 2, "finite");
	BAD(p, "value 1e999\n", PR_ERANGE, 1, "range");
	BAD(p, "nothing here\n", PR_EPARSE, 0, "no match");
	pr_parser_free(p);

	/* A user metric may not hide a built-in one. */
	p = parser(NULL, "elapsed=(\\d+)", NULL);
	BAD(p, "real 5.30\n", PR_EINVAL, 0, "already has a metric");
	pr_parser_free(p);

	/* Catastrophic backtracking on 5 MB: stopped by the match limit.
	 * The line is one of 5 MB, above the line limit: no match is even
	 * tried. */
	p = parser("none", "v=^(a+)+$", NULL);
	big = malloc(n + 2);
	assert_non_null(big);
	memset(big, 'a', n);
	big[n] = 'b';
	big[n + 1] = '\n';
	check_bad(p, big, n + 2, PR_ELIMIT, 1, "longer than", __LINE__);
	/* Short lines that backtrack: the match limit stops it. */
	memset(big, 'a', 64);
	big[64] = 'b';
	big[65] = '\n';
	check_bad(p, big, 66, PR_ELIMIT, 1, "matching failed", __LINE__);
	free(big);
	pr_parser_free(p);

	/*
	 * Issue 12: "\s+(\d+)" over 200 KB of spaces tries each start
	 * position afresh, every attempt inside PCRE2's own limits; it took
	 * 12.5 s.  The budget of steps for the whole input stops it with a
	 * clear error (bench/parse-sizes.sh times it per size).
	 */
	n = 200000;
	big = malloc(n + 2);
	assert_non_null(big);
	big[0] = 'x';
	memset(big + 1, ' ', n);
	big[n + 1] = '\n';
	p = parser("none", "x=\\s+(\\d+)", NULL);
	check_bad(p, big, n + 2, PR_ELIMIT, 1, "steps on this input", __LINE__);
	pr_parser_free(p);
	free(big);
}

/*
 * Many matches: their line numbers are counted from the previous match,
 * not from the start (40,000 matches in 2 MB took minutes), and are right.
 */
static void
test_metric_many(void **state)
{
	struct pr_parser *p;
	struct pr_dataset ds;
	struct pr_error err;
	struct pr_buf b = PR_BUF_INIT(1 << 24);
	size_t i, n = 40000;

	(void)state;
	for (i = 0; i < n; i++)
		assert_int_equal(pr_buf_addf(&b, NULL, "t %zu ms\n", i), PR_OK);
	assert_int_equal(pr_buf_addf(&b, NULL, "t 1x ms\n"), PR_OK);
	p = parser("none", "t=^t (\\S+) ms:ms", NULL);
	pr_dataset_init(&ds);
	assert_int_equal(parse_with(p, b.data, b.len, &ds, &err), PR_EPARSE);
	assert_int_equal(err.line, (long)n + 1);
	assert_int_equal(parse_with(p, b.data, b.len - 8, &ds, &err), PR_OK);
	META(&ds, "t", n, "ms", PR_BETTER_LOWER);
	VAL(&ds, "t", n - 1, (double)(n - 1));
	pr_dataset_release(&ds);
	pr_parser_free(p);
	pr_buf_release(&b);
}

static void
test_derive(void **state)
{
	struct pr_parser *p;
	struct pr_dataset ds;
	struct pr_error err;
	static const double elapsed[] = { 5.30, 5.18, 5.61, 4.83, 5.16, 4.87 };
	size_t i;

	(void)state;
	/* Seed 002's throughput, value by value. */
	p = parser(NULL, NULL, "MBps=134217728/elapsed/1e6:MB/s:higher");
	pr_dataset_init(&ds);
	assert_int_equal(pr_parse_file(p,
			     "tests/data/seeds/seed002-gnu-time.txt", 0, &ds,
			     NULL, &err),
	    PR_OK);
	META(&ds, "MBps", 6, "MB/s", PR_BETTER_HIGHER);
	for (i = 0; i < 6; i++)
		VAL(&ds, "MBps", i, 134217728 / elapsed[i] / 1e6);
	pr_dataset_release(&ds);
	pr_parser_free(p);

	/* Precedence, unary minus, braces around any name. */
	p = parser(NULL, NULL, "x=2+3*4-(1+1)/2 - -{des-ede3-cbc/16B}/1e5");
	pr_dataset_init(&ds);
	assert_int_equal(pr_parse_file(p,
			     "tests/data/seeds/seed000-openssl-1.0.1c.txt", 0,
			     &ds, NULL, &err),
	    PR_OK);
	META(&ds, "x", 2, "", PR_BETTER_UNKNOWN);
	VAL(&ds, "x", 0, 2 + 3 * 4 - (1 + 1) / 2.0 + 586200.0 / 1e5);
	VAL(&ds, "x", 1, 2 + 3 * 4 - (1 + 1) / 2.0 + 564750.0 / 1e5);
	pr_dataset_release(&ds);
	pr_parser_free(p);

	/* Constants alone give one value; derived from derived. */
	assert_int_equal(pr_parser_new(&p, &err), PR_OK);
	assert_int_equal(pr_parser_add_derive(p, "k=-(2*-3)", &err), PR_OK);
	assert_int_equal(pr_parser_add_derive(p, "k2=k*k:x", &err), PR_OK);
	pr_dataset_init(&ds);
	assert_int_equal(parse_with(p, "real 1.00\n", 10, &ds, &err), PR_OK);
	VAL(&ds, "k", 0, 6);
	META(&ds, "k2", 1, "x", PR_BETTER_UNKNOWN);
	VAL(&ds, "k2", 0, 36);
	pr_dataset_release(&ds);
	pr_parser_free(p);
}

static void
test_derive_bad(void **state)
{
	struct pr_parser *p;
	struct pr_error err;
	char deep[400];
	size_t i;
	static const char *const syntax[] = { "x", "=1", "x=", "x=1+", "x=(1",
		"x=1)", "x=2e", "x=1 2", "x={a", "x={}", "x=1e999", "x=*2",
		"x y=1", NULL };

	(void)state;
	assert_int_equal(pr_parser_new(&p, &err), PR_OK);
	for (i = 0; syntax[i] != NULL; i++)
		if (pr_parser_add_derive(p, syntax[i], &err) != PR_EINVAL)
			fail_msg("--derive '%s' accepted", syntax[i]);
	assert_int_equal(pr_parser_add_derive(p, "x=(1", &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "column 5"));
	/* Nesting deep enough to exhaust a stack is refused. */
	deep[0] = 'x';
	deep[1] = '=';
	for (i = 2; i < 302; i++)
		deep[i] = '(';
	deep[i++] = '1';
	deep[i] = '\0';
	assert_int_equal(pr_parser_add_derive(p, deep, &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "nested too deeply"));
	pr_parser_free(p);

	p = parser(NULL, NULL, "x=1/(user-user)");
	BAD(p, "real 1.00\nuser 0.50\n", PR_EUNDEF, 0, "division by zero");
	pr_parser_free(p);
	p = parser(NULL, NULL, "x=wall_s*2");
	BAD(p, "real 1.00\n", PR_ENOTFOUND, 0, "no metric 'wall_s'");
	pr_parser_free(p);
	p = parser(NULL, NULL, "x=elapsed*1e308*10");
	BAD(p, "real 1.00\n", PR_ERANGE, 0, "out of range");
	pr_parser_free(p);
	p = parser(NULL, NULL, "x=elapsed/user");
	BAD(p, "real 1.00\nreal 2.00\nuser 0.50\n", PR_EINVAL, 0,
	    "differ in count");
	pr_parser_free(p);
	p = parser(NULL, NULL, "ipc=instructions/cycles");
	BAD(p,
	    " Performance counter stats for 'x':\n"
	    "   <not supported>      cycles\n      5      instructions\n"
	    "  1.0 seconds time elapsed\n",
	    PR_EUNDEF, 0, "absent");
	pr_parser_free(p);
	p = parser(NULL, NULL, "user=elapsed");
	BAD(p, "real 1.00\nuser 0.50\n", PR_EINVAL, 0, "already exists");
	pr_parser_free(p);
}

/* --- the registry, bad input --- */

/*
 * hyperfine's entry serves `compare` and `parse`: its input cap (64 MiB of
 * JSON) holds for `parse` too, with the registry's own message, as when
 * `parse` reached hyperfine through compare's reader ("input larger
 * than", not the JSON loader's "JSON input larger than").  Detection
 * picks the same entry, so the format is given by name here: detecting
 * 64 MiB takes seconds.
 */
static void
test_registry_cap(void **state)
{
	const size_t len = PR_READ_JSON_MAX + 1;
	struct pr_parser *p;
	struct pr_dataset ds;
	struct pr_error err;
	const char *used;
	char *big;
	size_t k;

	(void)state;
	big = malloc(len);
	assert_non_null(big);
	/* Blank lines of 64 KiB: none too long for a text. */
	memset(big, ' ', len);
	for (k = 65535; k < len; k += 65536)
		big[k] = '\n';
	memcpy(big, "{\"results\": [", 13);
	assert_int_equal(pr_parser_new(&p, &err), PR_OK);
	assert_int_equal(pr_parser_set_format(p, "hyperfine", &err), PR_OK);
	pr_dataset_init(&ds);
	pr_error_clear(&err);
	assert_int_equal(pr_parse_buffer(p, big, len, "big.json", 0, &ds, &used,
			     &err),
	    PR_ELIMIT);
	assert_string_equal(used, "hyperfine");
	assert_string_equal(err.msg, "input larger than 67108864 bytes");
	assert_string_equal(err.file, "big.json");
	assert_int_equal(ds.n, 0);
	/* At the cap it is read, and fails as the JSON it is not. */
	pr_error_clear(&err);
	assert_int_equal(pr_parse_buffer(p, big, len - 1, "big.json", 0, &ds,
			     &used, &err),
	    PR_EPARSE);
	assert_non_null(strstr(err.msg, "invalid JSON"));
	assert_int_equal(ds.n, 0);
	pr_dataset_release(&ds);
	pr_parser_free(p);
	free(big);
}

static void
test_registry(void **state)
{
	struct pr_parser *p;
	struct pr_dataset ds;
	struct pr_error err;
	const char *used, *desc;
	size_t i;

	(void)state;
	for (i = 0; pr_parse_format_name(i, &desc) != NULL; i++)
		assert_non_null(desc);
	assert_int_equal(i, 6);
	assert_string_equal(pr_parse_format_name(0, NULL), "openssl");

	assert_int_equal(pr_parser_new(&p, &err), PR_OK);
	assert_int_equal(pr_parser_set_format(p, "nosuch", &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "openssl, iperf3, time, perf"));
	pr_parser_free(p);

	/* hyperfine and gobench through the readers of compare. */
	load("tests/data/hyperfine/true.json", "hyperfine", &ds);
	META(&ds, "true", 10, "s", PR_BETTER_LOWER);
	pr_dataset_release(&ds);
	load("tests/data/gobench/sum-count5.txt", "gobench", &ds);
	assert_true(ds.n > 0);
	pr_dataset_release(&ds);

	/* Two files into one dataset: values accumulate. */
	pr_dataset_init(&ds);
	assert_int_equal(parse_path("tests/data/time/gnu-time-p-loop.txt", NULL,
			     &ds, &used, &err),
	    PR_OK);
	assert_int_equal(parse_path("tests/data/time/bash-time-loop.txt", NULL,
			     &ds, &used, &err),
	    PR_OK);
	META(&ds, "elapsed", 2, "s", PR_BETTER_LOWER);
	VAL(&ds, "elapsed", 1, 0.553);
	/* A later input that fails adds nothing. */
	assert_int_equal(parse_path("tests/data/parse-bad/perf-cut.txt", NULL,
			     &ds, &used, &err),
	    PR_EPARSE);
	META(&ds, "elapsed", 2, "s", PR_BETTER_LOWER);
	/* Nor one whose units disagree. */
	p = parser("none", "elapsed=t=(\\d+):ms", NULL);
	assert_int_equal(pr_parse_buffer(p, "t=5\n", 4, "u.txt", 0, &ds, NULL,
			     &err),
	    PR_EINVAL);
	assert_non_null(strstr(err.msg, "'ms' here but was in 's'"));
	META(&ds, "elapsed", 2, "s", PR_BETTER_LOWER);
	pr_parser_free(p);
	pr_dataset_release(&ds);

	/* Missing file. */
	pr_dataset_init(&ds);
	assert_int_equal(parse_path("tests/data/nosuchfile", NULL, &ds, &used,
			     &err),
	    PR_ENOTFOUND);
	assert_string_equal(err.file, "tests/data/nosuchfile");
	assert_int_equal(parse_path("tests/data", NULL, &ds, &used, &err),
	    PR_EIO);
	pr_dataset_release(&ds);
}

/* a and b hold the same metrics, in the same order, with the same bits. */
static void
same_dataset(const struct pr_dataset *a, const struct pr_dataset *b,
    const char *what)
{
	const struct pr_metric *x, *y;
	size_t i;

	if (a->n != b->n)
		fail_msg("%s: %zu metrics, %zu without the blank lines", what,
		    b->n, a->n);
	for (i = 0; i < a->n; i++) {
		x = &a->metrics[i];
		y = &b->metrics[i];
		if (strcmp(x->name, y->name) != 0 ||
		    strcmp(x->unit, y->unit) != 0 || x->better != y->better ||
		    x->flags != y->flags || x->values.n != y->values.n ||
		    (x->values.n > 0 &&
			memcmp(x->values.v, y->values.v,
			    x->values.n * sizeof(double)) != 0))
			fail_msg("%s: metric '%s' differs", what, x->name);
	}
}

/*
 * Blank lines before the text (issue 16 item 3: the detectors skip them
 * in one pass, pr_lines_next_text): a capture behind them is detected
 * as the same format and reads as without them; an error in it is
 * reported at its line counting them; blank lines then a word are not
 * a benchmark's output, however many (4 MiB of line ends here).
 */
static void
test_blank_lines(void **state)
{
	static const char *const paths[] = {
		"tests/data/openssl/speed-evp-aes-128-gcm.txt",
		"tests/data/openssl/speed-mr-sha256.txt",
		"tests/data/iperf3/tcp-client.txt",
		"tests/data/time/gnu-time-v.txt",
		"tests/data/time/bash-time.txt",
		"tests/data/dd/dd-100M.txt",
		"tests/data/perf/perf-stat.txt",
		"tests/data/perf/perf-stat-x.txt",
	};
	static const char blank[] = "\n \n\t\r\n\r\n  \t \v\f\n\n";
	const long nblank = 6;
	struct pr_dataset a, b;
	struct pr_error err;
	const char *fa, *fb;
	char msg[1024];
	size_t i, len, n = 4u << 20;
	char *text, *both, *big;

	(void)state;
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		text = slurp(paths[i], &len);
		both = malloc(sizeof(blank) - 1 + len);
		assert_non_null(both);
		memcpy(both, blank, sizeof(blank) - 1);
		memcpy(both + sizeof(blank) - 1, text, len);
		pr_dataset_init(&a);
		pr_dataset_init(&b);
		fa = fb = NULL;
		pr_error_clear(&err);
		if (pr_parse_buffer(NULL, text, len, "t.txt", 0, &a, &fa,
			&err) != PR_OK ||
		    pr_parse_buffer(NULL, both, sizeof(blank) - 1 + len,
			"t.txt", 0, &b, &fb, &err) != PR_OK)
			fail_msg("%s: %s", paths[i],
			    pr_error_format(&err, msg, sizeof(msg)));
		assert_non_null(fa);
		assert_non_null(fb);
		assert_string_equal(fa, fb);
		same_dataset(&a, &b, paths[i]);
		pr_dataset_release(&a);
		pr_dataset_release(&b);
		/* Cut inside the last number (test_damaged's first case):
		 * the error at its line, counting the blank lines. */
		if (i == 0)
			check_bad(NULL, both, sizeof(blank) - 1 + len - 4,
			    PR_EPARSE, 14 + nblank, "cut short", __LINE__);
		free(both);
		free(text);
	}
	BAD(NULL,
	    "\n\n \n0.00user 0.01sys#@!tem 0:00.05elapsed 24%CPU "
	    "(0avgtext+0avgdata 2820maxresident)k\n",
	    PR_EPARSE, 4, "got '0.01sys#@!tem'");
	BAD(NULL, "\n\n\t\n  \nword\n", PR_EPARSE, 0,
	    "not the output of a known benchmark");
	big = malloc(n + 6);
	assert_non_null(big);
	memset(big, '\n', n);
	memcpy(big + n, "word\n", 5);
	big[n + 5] = '\0';
	check_bad(NULL, big, n + 5, PR_EPARSE, 0,
	    "not the output of a known benchmark", __LINE__);
	free(big);
}

static void
test_bad_input(void **state)
{
	static const char nul[] = "real 5.30\nuser\0 0.05\n";
	static const char latin1[] = "real 5.30\ncaf\xe9\n";
	char *big;
	size_t n = 5u << 20;

	(void)state;
	BAD(NULL, "", PR_EPARSE, 0, "empty input");
	BAD(NULL, "\n  \n\t\n", PR_EPARSE, 0, "only blank lines");
	BAD(NULL, "hello world\nthis is not a benchmark\n", PR_EPARSE, 0,
	    "not the output of a known benchmark");
	check_bad(NULL, nul, sizeof(nul) - 1, PR_EPARSE, 2, "NUL byte",
	    __LINE__);
	BAD(NULL, latin1, PR_EPARSE, 2, "invalid UTF-8");
	/* A 5 MB line, as a runaway benchmark might print. */
	big = malloc(n + 1);
	assert_non_null(big);
	memset(big, 'x', n);
	big[n] = '\0';
	check_bad(NULL, big, n, PR_ELIMIT, 1, "longer than", __LINE__);
	/* Binary junk: random bytes. */
	for (size_t i = 0; i < 4096; i++)
		big[i] = (char)((i * 2654435761u) >> 13);
	check_bad(NULL, big, 4096, PR_EPARSE, 0, "binary data", __LINE__);
	free(big);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_openssl_seed000),
		cmocka_unit_test(test_openssl_3x),
		cmocka_unit_test(test_openssl_mr),
		cmocka_unit_test(test_openssl_mr_seconds),
		cmocka_unit_test(test_openssl_pkey),
		cmocka_unit_test(test_openssl_multi),
		cmocka_unit_test(test_openssl_small_and_absent),
		cmocka_unit_test(test_openssl_bad),
		cmocka_unit_test(test_iperf3_seed001),
		cmocka_unit_test(test_iperf3_text),
		cmocka_unit_test(test_iperf3_units_vs_json),
		cmocka_unit_test(test_iperf3_json),
		cmocka_unit_test(test_iperf3_more),
		cmocka_unit_test(test_iperf3_errors),
		cmocka_unit_test(test_time_gnu),
		cmocka_unit_test(test_time_shells),
		cmocka_unit_test(test_time_seeds),
		cmocka_unit_test(test_dd),
		cmocka_unit_test(test_time_bad),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_perf),
		cmocka_unit_test(test_perf_bad),
		cmocka_unit_test(test_metric),
		cmocka_unit_test(test_metric_bad),
		cmocka_unit_test(test_metric_many),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_derive_bad),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_registry_cap),
		cmocka_unit_test(test_blank_lines),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
