# What `-o PATH` does to what is at PATH (model/outfile.c): files are
# replaced by rename, devices/FIFOs/stdout written in place, symlinks
# followed, directories refused before the work, temporary files removed on
# a signal, an error leaves no output (tests/outfile_paths.sh).
foreach(case fifo symlink dangling absolute stdout directory missing-dir report
        params-dir output-is-input other-input plot-over-input plot-fails long-name two-outputs stdout-full device signal-TERM signal-INT dump-signal record-int plot)
  add_test(NAME cli_outfile_${case}
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/outfile_paths.sh ${case} $<TARGET_FILE:sim>
    WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
  set_tests_properties(cli_outfile_${case} PROPERTIES TIMEOUT 60
    SKIP_RETURN_CODE 77 ENVIRONMENT "${SIM_TEST_ENV}")
endforeach()
