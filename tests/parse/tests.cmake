pr_add_unit_test(test_read tests/parse/test_read.c)
pr_add_unit_test(test_numbers tests/parse/test_numbers.c)
pr_add_unit_test(test_benchparse tests/parse/test_benchparse.c)
pr_add_unit_test(test_readany tests/parse/test_readany.c)
add_test(NAME cli_inputs COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/parse/cli_inputs.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# A format's own tests, tests/parse/test_format_<name>.c, are found by
# name, so that adding a parser needs no line here (doc/HACKING.md).
file(GLOB PR_PARSE_FORMAT_TESTS RELATIVE ${CMAKE_SOURCE_DIR}
	${CMAKE_SOURCE_DIR}/tests/parse/test_format_*.c)
foreach(src ${PR_PARSE_FORMAT_TESTS})
	get_filename_component(name ${src} NAME_WE)
	pr_add_unit_test(${name} ${src})
endforeach()
