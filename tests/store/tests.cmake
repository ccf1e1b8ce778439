# One line per test, so that a test can be added with a single append.
# PostgreSQL: a throwaway server per build tree (scripts/pg-test-server.sh,
# fixture pg_server); the tests that need it skip (77) when none could be
# started, and fail instead when PERFREG_REQUIRE_PG=1 (CI).
set(PR_PG_DIR ${CMAKE_BINARY_DIR}/pg-test-server)
set(PR_PG_SH ${CMAKE_SOURCE_DIR}/tests/store/pg_server.sh)
add_test(NAME pg_server_start COMMAND sh ${PR_PG_SH} start ${PR_PG_DIR})
set_tests_properties(pg_server_start PROPERTIES FIXTURES_SETUP pg_server)
add_test(NAME pg_server_stop COMMAND sh ${PR_PG_SH} stop ${PR_PG_DIR})
set_tests_properties(pg_server_stop PROPERTIES FIXTURES_CLEANUP pg_server)
pr_add_unit_test(test_db_pg tests/store/test_db_pg.c)
set_tests_properties(test_db_pg PROPERTIES FIXTURES_REQUIRED pg_server
	SKIP_RETURN_CODE 77
	ENVIRONMENT "LC_ALL=C;TZ=UTC;PERFREG_TEST_PG_FILE=${PR_PG_DIR}/conninfo")
add_test(NAME cli_store COMMAND sh -c "[ -f '${PR_PG_DIR}/conninfo' ] && PERFREG_TEST_PG=$(sh '${CMAKE_SOURCE_DIR}/scripts/pg-test-server.sh' createdb '${PR_PG_DIR}' cli_store) && export PERFREG_TEST_PG; exec sh '${CMAKE_CURRENT_SOURCE_DIR}/store/cli_store.sh' '$<TARGET_FILE:perfreg_cli>'" WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_store PROPERTIES FIXTURES_REQUIRED pg_server TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
pr_add_unit_test(test_store tests/store/test_store.c)
pr_add_unit_test(test_export tests/store/test_export.c)
add_test(NAME test_export_pg COMMAND sh ${PR_PG_SH} run ${PR_PG_DIR} export $<TARGET_FILE:test_export> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(test_export_pg PROPERTIES FIXTURES_REQUIRED pg_server SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
add_test(NAME test_store_pg COMMAND sh ${PR_PG_SH} run ${PR_PG_DIR} store $<TARGET_FILE:test_store> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(test_store_pg PROPERTIES FIXTURES_REQUIRED pg_server SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
add_test(NAME cli_safety COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/store/cli_safety.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_safety PROPERTIES TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
pr_add_unit_test(test_direction tests/store/test_direction.c)
add_test(NAME cli_history COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/store/cli_history.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_history PROPERTIES TIMEOUT 600 ENVIRONMENT "LC_ALL=C;TZ=UTC")
add_test(NAME cli_dbfiles COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/store/cli_dbfiles.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_dbfiles PROPERTIES TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
add_test(NAME cli_escape COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/store/cli_escape.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_escape PROPERTIES TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
add_test(NAME cli_hosts COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/store/cli_hosts.sh $<TARGET_FILE:perfreg_cli> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_hosts PROPERTIES TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
