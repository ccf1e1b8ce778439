/*
 * tests/core/test_jsonout.c - the JSON dump post-pass (core/jsonout.h):
 * DEL and the C1 controls U+0080..U+009F come out as \u escapes, in
 * strings and in keys, everything else of the text is jansson's own,
 * and the text reads back to the same strings (issue 12).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "core/jsonout.h"

static void
test_escapes(void **state)
{
	/* DEL, CSI (U+009B), U+0080, U+009F, then U+00A0 and U+00B5 (not
	 * controls), a euro sign and an ESC, which jansson escapes itself (in upper case). */
	static const char name[] = "a\x7f"
				   "b\xc2\x9b"
				   "c\xc2\x80\xc2\x9f"
				   "d\xc2\xa0\xc2\xb5\xe2\x82\xac\x1b";
	json_t *root, *back;
	json_error_t jerr;
	char *text;

	(void)state;
	root = json_pack("{s:s,s:i}", name, name, "n", 7);
	assert_non_null(root);
	text = pr_jsonout_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_non_null(text);
	assert_string_equal(text,
	    "{\"a\\u007fb\\u009bc\\u0080\\u009fd\xc2\xa0\xc2\xb5\xe2\x82\xac"
	    "\\u001B\":\"a\\u007fb\\u009bc\\u0080\\u009fd\xc2\xa0\xc2\xb5"
	    "\xe2\x82\xac\\u001B\",\"n\":7}");
	back = json_loads(text, 0, &jerr);
	assert_non_null(back);
	assert_true(json_equal(root, back));
	json_decref(back);
	json_decref(root);
	free(text);
}

static void
test_nothing_to_escape(void **state)
{
	char *s, *t;

	(void)state;
	/* The same pointer comes back when nothing needs escaping. */
	s = strdup("{\"x\": \"\xc2\xb5s\"}");
	assert_non_null(s);
	t = pr_jsonout_escape(s);
	assert_ptr_equal(s, t);
	free(t);
	assert_null(pr_jsonout_escape(NULL));
	/* A C1 control at the very end of the text. */
	s = strdup("\"\xc2\x85\"");
	assert_non_null(s);
	t = pr_jsonout_escape(s);
	assert_string_equal(t, "\"\\u0085\"");
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_nothing_to_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
