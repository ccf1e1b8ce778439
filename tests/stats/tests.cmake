pr_add_unit_test(test_distrib tests/stats/test_distrib.c)
pr_add_unit_test(test_ratio tests/stats/test_ratio.c)
pr_add_unit_test(test_ttest tests/stats/test_ttest.c tests/stats/twosample_fixture.c)
