/*
 * tests/fuzz/fuzz_envdiff.c - libFuzzer target for the environment
 * snapshot reader and the env diff (`perfreg env diff A B`, and the
 * environment part of `compare` and `suite`).
 *
 * The input is two snapshots in their JSON form, separated by the first
 * NUL byte (all of it is A, and B is empty, when there is none).  Each is
 * read with pr_env_from_json: on failure it must be empty and the error
 * must say something.  The two (empty when unreadable) are then diffed
 * and the diff written as text and as JSON.  Checked: the text holds no
 * control byte but newlines (values and kernel log lines are escaped as
 * cat -v does: issue 12), the JSON is JSON, and a snapshot written back
 * with pr_env_to_json reads again into one that differs from it in
 * nothing.  scripts/fuzz.sh builds and runs it (seeds: tests/data/env).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "perfreg/buf.h"
#include "perfreg/env.h"
#include "perfreg/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads one side; an unreadable one is left empty, with a message. */
static void
read_side(struct pr_env *e, const char *p, size_t n)
{
	struct pr_error err;

	pr_env_init(e);
	if (pr_env_from_json(e, p, n, "fuzz", &err) != PR_OK &&
	    (e->n != 0 || err.msg[0] == '\0'))
		abort();
}

/* Aborts when text holds a control byte other than a newline. */
static void
no_controls(const struct pr_buf *b)
{
	size_t i;

	for (i = 0; i < b->len; i++) {
		unsigned char c = (unsigned char)b->data[i];

		if ((c < 0x20 && c != '\n') || c == 0x7f)
			abort();
	}
}

/* The snapshot written back and read again differs from it in nothing. */
static void
round_trip(const struct pr_env *e)
{
	struct pr_buf b = PR_BUF_INIT((size_t)64 << 20);
	struct pr_envdiff d;
	struct pr_error err;
	struct pr_env again;

	if (pr_env_to_json(e, &b, &err) != PR_OK) {
		pr_buf_release(&b);
		return;
	}
	pr_env_init(&again);
	if (pr_env_from_json(&again, b.data, b.len, "again", &err) != PR_OK)
		abort();
	if (pr_env_diff(e, &again, &d, &err) == PR_OK) {
		if (d.n != 0 || d.nlog_a != 0 || d.nlog_b != 0)
			abort();
		pr_envdiff_release(&d);
	}
	pr_env_release(&again);
	pr_buf_release(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *nul;
	struct pr_buf text = PR_BUF_INIT((size_t)64 << 20);
	struct pr_buf js = PR_BUF_INIT((size_t)64 << 20);
	struct pr_env a, b;
	struct pr_envdiff d;
	struct pr_error err;
	size_t na;
	json_t *j;

	nul = memchr(p, '\0', size);
	na = nul != NULL ? (size_t)(nul - p) : size;
	read_side(&a, p, na);
	read_side(&b, nul != NULL ? nul + 1 : p + size,
	    nul != NULL ? size - na - 1 : 0);
	if (pr_env_diff(&a, &b, &d, &err) == PR_OK) {
		if (pr_envdiff_format_text(&d, "a", "b", 20, &text, &err) ==
		    PR_OK)
			no_controls(&text);
		if (pr_envdiff_to_json(&d, &js, &err) == PR_OK) {
			j = json_loadb(js.data != NULL ? js.data : "", js.len,
			    0, NULL);
			if (j == NULL)
				abort();
			json_decref(j);
		}
		pr_envdiff_release(&d);
	} else if (err.msg[0] == '\0')
		abort();
	round_trip(&a);
	pr_buf_release(&text);
	pr_buf_release(&js);
	pr_env_release(&a);
	pr_env_release(&b);
	return 0;
}
