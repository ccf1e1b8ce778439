/*
 * tests/run/test_split.c - the shell-style word splitter of perfreg run:
 * blanks, quotes, backslashes, and the refusal of what needs a shell.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/spawn.h"

/* Splits line and checks the words against want (NULL-terminated). */
static void
check(const char *line, const char *const *want)
{
	struct pr_error err;
	char **w;
	size_t n, i;

	assert_int_equal(pr_split_words(line, &w, &n, &err), PR_OK);
	for (i = 0; want[i] != NULL; i++) {
		assert_true(i < n);
		assert_string_equal(w[i], want[i]);
	}
	assert_int_equal(n, i);
	assert_null(w[n]);
	pr_split_free(w);
}

static void
check_fail(const char *line, enum pr_status want, long column,
    const char *msg_part)
{
	struct pr_error err;
	char **w = (char **)&err;

	assert_int_equal(pr_split_words(line, &w, NULL, &err), want);
	assert_null(w);
	assert_int_equal(err.column, column);
	assert_non_null(strstr(err.msg, msg_part));
}

static void
test_blanks(void **state)
{
	(void)state;
	check("a", (const char *[]){ "a", NULL });
	check("  ls \t -l\n/tmp  ",
	    (const char *[]){ "ls", "-l", "/tmp", NULL });
	check("dd if=/dev/zero bs=1M count=128",
	    (const char *[]){ "dd", "if=/dev/zero", "bs=1M", "count=128",
		NULL });
}

static void
test_quotes(void **state)
{
	(void)state;
	check("echo 'a b'  \"c  d\"",
	    (const char *[]){ "echo", "a b", "c  d", NULL });
	check("x'y'\"z\"w", (const char *[]){ "xyzw", NULL });
	check("'' \"\" a", (const char *[]){ "", "", "a", NULL });
	/* Single quotes keep backslashes and every special character. */
	check("'a\\b $x | `y`'", (const char *[]){ "a\\b $x | `y`", NULL });
	/* In double quotes a backslash only escapes $ ` " \ newline. */
	check("\"\\$x \\\" \\\\ \\a\"",
	    (const char *[]){ "$x \" \\ \\a", NULL });
	check("\"a\\\nb\"", (const char *[]){ "ab", NULL });
	check("\"it's\"", (const char *[]){ "it's", NULL });
}

static void
test_backslash(void **state)
{
	(void)state;
	check("a\\ b c", (const char *[]){ "a b", "c", NULL });
	check("\\|\\$\\'", (const char *[]){ "|$'", NULL });
	check("a\\\nb", (const char *[]){ "ab", NULL });
	/* Globs and tildes are kept as they are. */
	check("ls *.c ~ [ab]?",
	    (const char *[]){ "ls", "*.c", "~", "[ab]?", NULL });
}

static void
test_errors(void **state)
{
	(void)state;
	check_fail("echo 'abc", PR_EPARSE, 6, "unterminated single quote");
	check_fail("a \"b", PR_EPARSE, 3, "unterminated double quote");
	check_fail("abc\\", PR_EPARSE, 4, "trailing backslash");
	check_fail("ls | wc", PR_EINVAL, 4, "'|' needs a shell");
	check_fail("echo $HOME", PR_EINVAL, 6, "'$' needs a shell");
	check_fail("echo \"$HOME\"", PR_EINVAL, 7, "'$' needs a shell");
	check_fail("a>b", PR_EINVAL, 2, "'>' needs a shell");
	check_fail("a; b", PR_EINVAL, 2, "';' needs a shell");
	check_fail("sleep 1 &", PR_EINVAL, 9, "'&' needs a shell");
	check_fail("echo `id`", PR_EINVAL, 6, "'`' needs a shell");
	check_fail("", PR_EINVAL, 0, "empty command");
	check_fail("  \t ", PR_EINVAL, 0, "empty command");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blanks),
		cmocka_unit_test(test_quotes),
		cmocka_unit_test(test_backslash),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
