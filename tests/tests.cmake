# CTest entries: one per CUnit suite (tests/test_<module>.c), plus CLI golden
# and bad-input tests (tests/cli_tests.cmake).
file(GLOB SIM_TEST_SRC CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/test_*.c)
set(SIM_TEST_ENV
  SIM_TEST_DATA=${CMAKE_SOURCE_DIR}/tests/data
  SIM_TEST_TMP=${CMAKE_BINARY_DIR}/testtmp
  SIM_BIN=$<TARGET_FILE:sim>)
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
foreach(src ${SIM_TEST_SRC})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests)
  target_link_libraries(${name} PRIVATE simmodel PkgConfig::CUNIT)
  add_test(NAME ${name} COMMAND ${name} WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
  set_tests_properties(${name} PROPERTIES TIMEOUT 120 ENVIRONMENT "${SIM_TEST_ENV}")
endforeach()

# The runner itself: a suite with a failing assertion must fail the run.
add_executable(cunit_selfcheck ${CMAKE_SOURCE_DIR}/tests/cunit_selfcheck.c)
target_include_directories(cunit_selfcheck PRIVATE ${CMAKE_SOURCE_DIR}/tests)
target_link_libraries(cunit_selfcheck PRIVATE PkgConfig::CUNIT)
add_test(NAME cunit_failing_assert_fails_run COMMAND cunit_selfcheck)
set_tests_properties(cunit_failing_assert_fails_run PROPERTIES WILL_FAIL TRUE TIMEOUT 30)

# CLI tests: sim_cli_test(NAME RC EXPECT ARGS...) runs `sim ARGS` in
# testtmp; RC is the expected exit code; EXPECT is a golden file (relative to
# tests/golden) compared with stdout, or "~regex" matched against stderr+stdout.
function(sim_cli_test name rc expect)
  add_test(NAME cli_${name}
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli_check.sh ${rc} ${expect} $<TARGET_FILE:sim> ${ARGN}
    WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
  set_tests_properties(cli_${name} PROPERTIES TIMEOUT 120
    ENVIRONMENT "${SIM_TEST_ENV};SIM_GOLDEN=${CMAKE_SOURCE_DIR}/tests/golden")
endfunction()
file(GLOB SIM_CLI_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/cli_*.cmake)
foreach(f ${SIM_CLI_TESTS})
  include(${f})
endforeach()

# sim --help tells the truth about its commands (tests/help_check.sh).
add_test(NAME cli_help_commands
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/help_check.sh $<TARGET_FILE:sim>)
set_tests_properties(cli_help_commands PROPERTIES TIMEOUT 60)

# The hardware tables are evidence: pinned by SHA-256 so an edit cannot slip in.
add_test(NAME hw_tables_pinned COMMAND sha256sum --check --strict SHA256SUMS
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/validation/hw)
set_tests_properties(hw_tables_pinned PROPERTIES TIMEOUT 30)

# workloads/linux/pv-scan.awk counts the PV text scan's instructions on a
# hand-written listing as counted by hand, and refuses shapes it does not
# understand (tests/pv_scan_check.sh; no Linux image needed).
add_test(NAME pv_scan_count
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/pv_scan_check.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(pv_scan_count PROPERTIES TIMEOUT 60)

# The repository stands on its own: nothing cites notes outside it, and
# every docs/kvm440.md §N cited exists (tests/self_contained.sh).
add_test(NAME self_contained_citations
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/self_contained.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(self_contained_citations PROPERTIES TIMEOUT 30)

# Every Markdown table in the docs has rows of its header's width
# (tests/md_tables.py): a row pasted into the wrong table fails here.
add_test(NAME docs_tables_well_formed
  COMMAND ${SIM_PYTHON3} ${CMAKE_SOURCE_DIR}/tests/md_tables.py ${CMAKE_SOURCE_DIR})
set_tests_properties(docs_tables_well_formed PROPERTIES TIMEOUT 30)
