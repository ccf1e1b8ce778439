/*
 * tests/run/test_deadline.c - the timeout of pr_spawn_run is a deadline
 * in seconds after the start, not later.  test_spawn.c's timeout tests
 * use a program that never ends, so a deadline a thousand times too late
 * (milliseconds taken for seconds, say) only makes them slow; here the
 * command ends by itself 30 s after it starts, so a deadline that is not
 * about the 1 s asked for lets it finish and the outcome says so.
 *
 * This bounds no time of ours: a correct deadline kills `sleep 30` after
 * about 1 s, and the test can only fail by accident if the machine
 * delays the kill by more than 29 s.  Only a lower bound is asserted on
 * the measured wall time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "perfreg/spawn.h"

static void
test_deadline_in_seconds(void **state)
{
	char *argv[] = { "sleep", "30", NULL };
	struct pr_spawn_opts o;
	struct pr_spawn_result r;
	struct pr_error err;

	(void)state;
	pr_spawn_opts_init(&o);
	o.timeout_s = 1;
	pr_spawn_result_init(&r);
	assert_int_equal(pr_spawn_run(argv, &o, &r, &err), PR_OK);
	assert_int_equal(r.outcome, PR_SPAWN_TIMEOUT);
	assert_string_equal(r.reason, "timed out after 1 s");
	assert_true(r.wall_s >= 1);
	pr_spawn_result_release(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deadline_in_seconds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
