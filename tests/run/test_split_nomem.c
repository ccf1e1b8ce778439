/*
 * tests/run/test_split_nomem.c - pr_split_words when memory runs out while
 * a word is stored.  The word array grows before the word is detached from
 * its buffer; when detaching failed on the first word, the slot realloc
 * had just added was left unset and pr_split_free read and freed whatever
 * it held (found by clang-tidy's analyzer, scripts/lint.sh).  This program
 * is linked with -Wl,--wrap=malloc,--wrap=realloc, so that the library's
 * calls to them come here: while armed, a request of one byte (an empty
 * word's copy, pr_buf_detach) fails, and a fresh block from realloc is
 * filled with 0xa5 bytes, so that a slot left unset holds a pointer that
 * cannot be freed, rather than the zeros a fresh page often happens to
 * hold; every request goes to the real functions, so sanitizers and
 * valgrind still see every allocation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/spawn.h"

void *__real_malloc(size_t n);
void *__wrap_malloc(size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);

static int g_armed, g_failed;

void *
__wrap_malloc(size_t n)
{
	if (g_armed && n == 1) {
		g_failed++;
		return NULL;
	}
	return __real_malloc(n);
}

void *
__wrap_realloc(void *p, size_t n)
{
	void *q = __real_realloc(p, n);

	if (g_armed && p == NULL && q != NULL)
		memset(q, 0xa5, n);
	return q;
}

static void
test_first_word_fails(void **state)
{
	struct pr_error err;
	char **words = NULL;
	size_t n = 0;
	enum pr_status st;

	(void)state;
	/* '' is one empty word: its buffer never allocated, so detaching
	 * it allocates the one byte of its terminator. */
	g_armed = 1;
	st = pr_split_words("''", &words, &n, &err);
	g_armed = 0;
	assert_int_equal(g_failed, 1);
	assert_int_equal(st, PR_ENOMEM);
	assert_null(words);
}

static void
test_later_word_fails(void **state)
{
	struct pr_error err;
	char **words = NULL;
	size_t n = 0;
	enum pr_status st;

	(void)state;
	g_failed = 0;
	g_armed = 1;
	st = pr_split_words("a b ''", &words, &n, &err);
	g_armed = 0;
	assert_int_equal(g_failed, 1);
	assert_int_equal(st, PR_ENOMEM);
	assert_null(words);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_word_fails),
		cmocka_unit_test(test_later_word_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
