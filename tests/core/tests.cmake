pr_add_unit_test(test_core tests/core/test_core.c)
