pr_add_unit_test(test_bisect tests/bisect/test_bisect.c)
add_test(NAME cli_bisect COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/bisect/cli_bisect.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# The timeout bounds a hang, it times nothing: cli_bisect took 69 s at
# load 12-18 and 537 s at load 24 (dev build, session 16).
set_tests_properties(cli_bisect PROPERTIES TIMEOUT 1800 ENVIRONMENT "LC_ALL=C;TZ=UTC")
