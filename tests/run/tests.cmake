# One line per test, so that a test can be added with a single append.
# Helper programs of the run tests: they crash, hang, spew, fail.
foreach(prog crash hang spew exit3 forkhang)
	add_executable(prog_${prog} ${CMAKE_CURRENT_SOURCE_DIR}/run/progs/${prog}.c)
	set_target_properties(prog_${prog} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/run-progs)
endforeach()
pr_add_unit_test(test_split tests/run/test_split.c)
pr_add_unit_test(test_spawn tests/run/test_spawn.c)
target_compile_definitions(test_spawn PRIVATE PROGS_DIR="${CMAKE_BINARY_DIR}/run-progs")
add_dependencies(test_spawn prog_crash prog_hang prog_spew prog_exit3 prog_forkhang)
pr_add_unit_test(test_runner tests/run/test_runner.c)
target_compile_definitions(test_runner PRIVATE PROGS_DIR="${CMAKE_BINARY_DIR}/run-progs")
add_dependencies(test_runner prog_crash prog_exit3)
