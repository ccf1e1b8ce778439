# One line per test, so that a test can be added with a single append.
pr_add_unit_test(test_probes_a tests/probes/test_probes_a.c)
pr_add_unit_test(test_probes_b tests/probes/test_probes_b.c)
add_test(NAME cli_suite COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/probes/cli_suite.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_suite PROPERTIES TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
pr_add_unit_test(test_suite tests/probes/test_suite.c)
add_test(NAME cli_suite_means COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/probes/cli_suite_means.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_suite_means PROPERTIES TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
add_test(NAME cli_suite_history COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/probes/cli_suite_history.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_suite_history PROPERTIES TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
add_test(NAME cli_suite_change COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/probes/cli_suite_change.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_suite_change PROPERTIES TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
pr_add_unit_test(test_suite_process tests/probes/test_suite_process.c)
# A probe's own tests, tests/probes/test_probe_<name>.c, are found by
# name, so that adding a probe needs no line here (doc/HACKING.md).
file(GLOB PR_PROBE_OWN_TESTS RELATIVE ${CMAKE_SOURCE_DIR}
	${CMAKE_SOURCE_DIR}/tests/probes/test_probe_*.c)
foreach(src ${PR_PROBE_OWN_TESTS})
	get_filename_component(name ${src} NAME_WE)
	pr_add_unit_test(${name} ${src})
endforeach()
