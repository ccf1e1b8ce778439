pr_add_unit_test(test_read tests/parse/test_read.c)
pr_add_unit_test(test_numbers tests/parse/test_numbers.c)
pr_add_unit_test(test_benchparse tests/parse/test_benchparse.c)
add_test(NAME cli_inputs COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/parse/cli_inputs.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
