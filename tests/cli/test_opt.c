/*
 * tests/cli/test_opt.c - the option parser of the CLI (src/cli/opt.c)
 * against a table of every kind: GNU getopt_long's order of options and
 * operands, "--", bundled short options, abbreviations and ambiguity,
 * bounds, the one-line errors with "did you mean", the synopsis and
 * --help written from the table, and the edit distance.
 *
 * The CLI's error printers are replaced here by ones that keep the last
 * message, so that the tests can read what a user would see.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cmd.h"
#include "cli/opt.h"

static char msg[512];

void
cli_errorf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
}

int
cli_usage_error(const struct cmd_entry *e, const char *fmt, ...)
{
	char m[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	snprintf(msg, sizeof(msg), "%s: %s; see", e->name, m);
	return PR_EXIT_USAGE;
}

struct t_opts {
	int all, json;
	const char *out;
	size_t runs;
	uint64_t seed;
	double pct;
	struct opt_list tags;
	int calls;
	const char *last;
};

static int
count_call(void *base, const struct opt *o, const char *arg)
{
	struct t_opts *t = base;

	t->calls += o->ival;
	t->last = arg;
	return 0;
}

static const struct opt topts[] = { OPT_FLAG('A', NULL, "all", struct t_opts,
					all, 1),
	OPT_INT('n', "runs", "n", "runs", struct t_opts, runs, 1, 1000, NULL),
	OPT_STRING('o', "output", "file", "output", struct t_opts, out,
	    OPT_NONEMPTY, "a file name"),
	OPT_STRING(0, "output-limit", "bytes", "limit", struct t_opts, out, 0,
	    NULL),
	OPT_FLAG(0, "json", "JSON", struct t_opts, json, 1),
	OPT_INT(0, "seed", "n", "seed", struct t_opts, seed, 0, UINT64_MAX,
	    NULL),
	OPT_GROUP(),
	OPT_DOUBLE('c', "confidence", "pct", "confidence", struct t_opts, pct,
	    0, 100, OPT_LO_OPEN | OPT_HI_OPEN | OPT_PCT_SIGN, NULL),
	OPT_LIST(0, "tag", "k=v", "a tag", struct t_opts, tags, OPT_NONEMPTY,
	    NULL),
	OPT_CALL(0, "twice", NULL, "counts two", count_call, OPT_NOARG, 2),
	OPT_CALL(0, "equivalence", "pct", "counts one", count_call, 0, 1),
	OPT_END() };

static const struct cmd_entry tcmd = { .name = "t",
	.synopsis = "[options] a b\n--json x",
	.about = "About.\n",
	.opts = topts,
	.epilogue = "Exit.\n",
	.exec = NULL };

/* Parses the words of line (split at spaces) into *t; the first operand's
 * index, and the reordered words in out. */
static int
parse(const char *line, struct t_opts *t, char *out, size_t size,
    uint64_t *seen)
{
	static char buf[512];
	char *argv[32], *p;
	int argc = 0, rc, i;
	size_t used = 0;

	memset(t, 0, sizeof(*t));
	msg[0] = '\0';
	snprintf(buf, sizeof(buf), "t %s", line);
	for (p = buf; *p != '\0';) {
		argv[argc++] = p;
		while (*p != '\0' && *p != ' ')
			p++;
		if (*p == ' ')
			*p++ = '\0';
	}
	argv[argc] = NULL;
	rc = opt_parse(&tcmd, argc, argv, t, seen);
	out[0] = '\0';
	for (i = 1; i < argc && used < size; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%s",
		    i > 1 ? " " : "", argv[i]);
	return rc;
}

static void
test_order(void **state)
{
	struct t_opts t;
	char out[256];
	uint64_t seen;

	(void)state;
	/* Operands move behind the options, in their order. */
	assert_int_equal(parse("a -n 3 b --json c", &t, out, sizeof(out),
			     &seen),
	    4);
	assert_string_equal(out, "-n 3 --json a b c");
	assert_int_equal(t.runs, 3);
	assert_int_equal(t.json, 1);
	assert_true(seen & opt_bit(topts, "runs"));
	assert_true(seen & opt_bit(topts, "json"));
	assert_false(seen & opt_bit(topts, "A"));
	/* "--" ends the options; it stays, before the operands. */
	assert_int_equal(parse("x --json -- -n 3", &t, out, sizeof(out), NULL),
	    3);
	assert_string_equal(out, "--json -- x -n 3");
	assert_int_equal(t.runs, 0);
	/* "-" is an operand. */
	assert_int_equal(parse("- -A", &t, out, sizeof(out), NULL), 2);
	assert_string_equal(out, "-A -");
	/* No operand at all. */
	assert_int_equal(parse("-A", &t, out, sizeof(out), NULL), 2);
}

static void
test_forms(void **state)
{
	struct t_opts t;
	char out[256];

	(void)state;
	/* Bundled short options, attached and detached arguments. */
	assert_true(parse("-An5", &t, out, sizeof(out), NULL) > 0);
	assert_int_equal(t.all, 1);
	assert_int_equal(t.runs, 5);
	assert_true(parse("-o f --runs=7", &t, out, sizeof(out), NULL) > 0);
	assert_string_equal(t.out, "f");
	assert_int_equal(t.runs, 7);
	/* An argument may begin with '-'. */
	assert_true(parse("--output -x", &t, out, sizeof(out), NULL) > 0);
	assert_string_equal(t.out, "-x");
	/* Abbreviations: unique prefixes, and an exact name wins. */
	assert_true(parse("--js --conf 90%", &t, out, sizeof(out), NULL) > 0);
	assert_int_equal(t.json, 1);
	assert_true(t.pct == 90);
	assert_true(parse("--output o", &t, out, sizeof(out), NULL) > 0);
	assert_string_equal(t.out, "o");
	assert_int_equal(parse("--out o", &t, out, sizeof(out), NULL), -1);
	assert_string_equal(msg,
	    "t: option '--out' is ambiguous ('--output', '--output-limit'); "
	    "see");
	/* Lists keep every value in order; callbacks get their row. */
	assert_true(parse("--tag a=1 --twice --tag b=2 --equivalence 3", &t,
			out, sizeof(out), NULL) > 0);
	assert_int_equal(t.tags.n, 2);
	assert_string_equal(t.tags.v[0], "a=1");
	assert_string_equal(t.tags.v[1], "b=2");
	assert_int_equal(t.calls, 3);
	assert_string_equal(t.last, "3");
	opt_list_release(&t.tags);
	assert_null(t.tags.v);
	/* The whole range of a 64-bit member. */
	assert_true(parse("--seed 18446744073709551615", &t, out, sizeof(out),
			NULL) > 0);
	assert_true(t.seed == UINT64_MAX);
}

static void
test_errors(void **state)
{
	struct t_opts t;
	char out[256];

	(void)state;
	assert_int_equal(parse("--jsno", &t, out, sizeof(out), NULL), -1);
	assert_string_equal(msg,
	    "t: unknown option '--jsno' (did you mean '--json'?); see");
	assert_int_equal(parse("--equivalance=2", &t, out, sizeof(out), NULL),
	    -1);
	assert_string_equal(msg,
	    "t: unknown option '--equivalance' (did you mean "
	    "'--equivalence'?); see");
	assert_int_equal(parse("--frobnicate", &t, out, sizeof(out), NULL), -1);
	assert_string_equal(msg, "t: unknown option '--frobnicate'; see");
	assert_int_equal(parse("-Az", &t, out, sizeof(out), NULL), -1);
	assert_string_equal(msg, "t: unknown option '-z'; see");
	assert_int_equal(parse("a -n", &t, out, sizeof(out), NULL), -1);
	assert_string_equal(msg,
	    "t: option '-n, --runs' needs an argument; see");
	assert_int_equal(parse("--seed", &t, out, sizeof(out), NULL), -1);
	assert_string_equal(msg, "t: option '--seed' needs an argument; see");
	assert_int_equal(parse("--json=1", &t, out, sizeof(out), NULL), -1);
	assert_string_equal(msg, "t: option '--json' takes no argument; see");
	assert_int_equal(parse("-n 0", &t, out, sizeof(out), NULL), -1);
	assert_string_equal(msg,
	    "t: -n, --runs: expected a whole number from 1 to 1000, got '0'");
	assert_int_equal(parse("-n 1001", &t, out, sizeof(out), NULL), -1);
	assert_int_equal(parse("-n +5", &t, out, sizeof(out), NULL), -1);
	assert_int_equal(parse("-n 5x", &t, out, sizeof(out), NULL), -1);
	assert_int_equal(parse("--seed 18446744073709551616", &t, out,
			     sizeof(out), NULL),
	    -1);
	assert_int_equal(parse("-c 100", &t, out, sizeof(out), NULL), -1);
	assert_string_equal(msg,
	    "t: -c, --confidence: expected a number from 0 to 100, got '100'");
	assert_int_equal(parse("-c 0", &t, out, sizeof(out), NULL), -1);
	assert_int_equal(parse("-c nan", &t, out, sizeof(out), NULL), -1);
	assert_int_equal(parse("-o", &t, out, sizeof(out), NULL), -1);
	memset(&t, 0, sizeof(t));
	{
		char a0[] = "t", a1[] = "-o", a2[] = "";
		char *argv[] = { a0, a1, a2, NULL };

		assert_int_equal(opt_parse(&tcmd, 3, argv, &t, NULL), -1);
		assert_string_equal(msg,
		    "t: -o, --output: expected a file name, got ''");
	}
}

static void
test_help(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(f = open_memstream(&buf, &len));
	opt_help(&tcmd, f);
	fclose(f);
	assert_string_equal(buf,
	    "usage: perfreg t [-A] [-n n] [-o file] [--output-limit bytes] "
	    "[--json]\n"
	    "                 [--seed n] [-c pct] [--tag k=v]... [--twice]\n"
	    "                 [--equivalence pct] a b\n"
	    "       perfreg t --json x\n"
	    "\n"
	    "About.\n"
	    "\n"
	    "options:\n"
	    "  -A                    all\n"
	    "  -n, --runs n          runs\n"
	    "  -o, --output file     output\n"
	    "  --output-limit bytes  limit\n"
	    "  --json                JSON\n"
	    "  --seed n              seed\n"
	    "\n"
	    "  -c, --confidence pct  confidence\n"
	    "  --tag k=v             a tag\n"
	    "  --twice               counts two\n"
	    "  --equivalence pct     counts one\n"
	    "\n"
	    "Exit.\n");
	free(buf);
	assert_non_null(f = open_memstream(&buf, &len));
	opt_synopsis(&tcmd, f, 0);
	opt_dump(&tcmd, f);
	fclose(f);
	assert_string_equal(buf,
	    "usage: perfreg t [options] a b\n"
	    "       perfreg t --json x\n"
	    "t\t-A\nt\t-n\nt\t--runs\nt\t-o\nt\t--output\nt\t--output-limit\n"
	    "t\t--json\nt\t--seed\nt\t-c\nt\t--confidence\nt\t--tag\n"
	    "t\t--twice\nt\t--equivalence\n");
	free(buf);
}

static void
test_distance(void **state)
{
	(void)state;
	assert_int_equal(opt_distance("json", "json", 4), 0);
	assert_int_equal(opt_distance("jsno", "json", 4), 1);
	assert_int_equal(opt_distance("jon", "json", 4), 1);
	assert_int_equal(opt_distance("jsoon", "json", 4), 1);
	assert_int_equal(opt_distance("kitten", "sitting", 6), 3);
	assert_int_equal(opt_distance("", "abc", 6), 3);
	/* Capped: far words stop early. */
	assert_int_equal(opt_distance("abcdefgh", "zyxwvuts", 2), 3);
	assert_int_equal(opt_distance("a", "abcdef", 2), 3);
	assert_true(opt_close_enough(1, 4));
	assert_false(opt_close_enough(0, 4));
	assert_false(opt_close_enough(2, 5));
	assert_true(opt_close_enough(3, 10));
	assert_true(opt_close_enough(1, 2));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_distance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
