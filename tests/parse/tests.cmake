pr_add_unit_test(test_read tests/parse/test_read.c)
pr_add_unit_test(test_numbers tests/parse/test_numbers.c)
pr_add_unit_test(test_benchparse tests/parse/test_benchparse.c)
