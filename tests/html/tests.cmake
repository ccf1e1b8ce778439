# One line per test, so that a test can be added with a single append.
# browser.sh loads the pages in headless Chromium; it skips (77) when
# chromium is absent, and fails instead when PERFREG_REQUIRE_CHROMIUM=1
# (scripts/test.sh, CI).
pr_add_unit_test(test_html tests/html/test_html.c)
add_test(NAME html_browser COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/html/browser.sh $<TARGET_FILE:perfreg_cli> ${CMAKE_BINARY_DIR}/html-browser WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(html_browser PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "LC_ALL=C;TZ=UTC")
pr_add_unit_test(test_decimal tests/html/test_decimal.c)
