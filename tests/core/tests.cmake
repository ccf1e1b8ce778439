pr_add_unit_test(test_core tests/core/test_core.c)
pr_add_unit_test(test_numparse tests/core/test_numparse.c)
pr_add_unit_test(test_jsonout tests/core/test_jsonout.c)
