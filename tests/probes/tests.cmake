# One line per test, so that a test can be added with a single append.
pr_add_unit_test(test_probes_a tests/probes/test_probes_a.c)
pr_add_unit_test(test_probes_b tests/probes/test_probes_b.c)
