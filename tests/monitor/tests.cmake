# One line per test, so that a test can be added with a single append.
pr_add_unit_test(test_monitor tests/monitor/test_monitor.c)
add_test(NAME cli_monitor COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/monitor/cli_monitor.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_monitor PROPERTIES TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
add_test(NAME cli_realcase COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/monitor/cli_realcase.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_realcase PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77 ENVIRONMENT "LC_ALL=C;TZ=UTC")
add_test(NAME cli_suite_monitor COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/monitor/cli_suite_monitor.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_suite_monitor PROPERTIES TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
