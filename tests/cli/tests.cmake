# One line per test, so that a test can be added with a single append.
# Golden CLI tests: each folder under tests/cli/cases holds `cmd` (the
# arguments, one shell line, run from the source tree with $PERFREG set to
# the binary), and the expected `stdout`, `stderr` and `status`.
# PERFREG_UPDATE_GOLDEN=1 rewrites the expected files after a deliberate
# change.  Other tests in this folder are listed below the loop.
file(GLOB PR_GOLDEN_CASES LIST_DIRECTORIES true
	${CMAKE_CURRENT_SOURCE_DIR}/cli/cases/*)
foreach(dir ${PR_GOLDEN_CASES})
	if(IS_DIRECTORY ${dir})
		get_filename_component(case ${dir} NAME)
		add_test(NAME golden/${case}
			COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/run_golden.sh
				$<TARGET_FILE:perfreg_cli> ${dir}
			WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
	endif()
endforeach()
add_test(NAME stat_vs_ministat COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/stat_vs_ministat.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME parse_live COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/parse_live.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
pr_add_unit_test(test_opt tests/cli/test_opt.c src/cli/opt.c)
add_test(NAME man_options COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/man_options.sh $<TARGET_FILE:perfreg_cli> doc/perfreg.1 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME install COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/install.sh ${CMAKE_BINARY_DIR} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME cli_changepoints COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli_changepoints.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
