pr_add_unit_test(test_bisect tests/bisect/test_bisect.c)
add_test(NAME cli_bisect COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/bisect/cli_bisect.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_bisect PROPERTIES TIMEOUT 600 ENVIRONMENT "LC_ALL=C;TZ=UTC")
