# One line per test, so that a test can be added with a single append.
pr_add_unit_test(test_monitor tests/monitor/test_monitor.c)
