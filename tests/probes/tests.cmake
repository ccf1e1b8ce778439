# One line per test, so that a test can be added with a single append.
pr_add_unit_test(test_probes_a tests/probes/test_probes_a.c)
pr_add_unit_test(test_probes_b tests/probes/test_probes_b.c)
add_test(NAME cli_suite COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/probes/cli_suite.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_suite PROPERTIES TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
pr_add_unit_test(test_suite tests/probes/test_suite.c)
pr_add_unit_test(test_probe_units tests/probes/test_probe_units.c)
add_test(NAME cli_suite_means COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/probes/cli_suite_means.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_suite_means PROPERTIES TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
