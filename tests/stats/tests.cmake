pr_add_unit_test(test_ratio tests/stats/test_ratio.c)
