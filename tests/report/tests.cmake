pr_add_unit_test(test_report_stat tests/report/test_report_stat.c)
pr_add_unit_test(test_report tests/report/test_report.c)
pr_add_unit_test(test_report_model tests/report/test_report_model.c)
pr_add_unit_test(test_report_run tests/report/test_report_run.c)
