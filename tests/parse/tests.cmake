pr_add_unit_test(test_read tests/parse/test_read.c)
