pr_add_unit_test(test_bisect tests/bisect/test_bisect.c)
