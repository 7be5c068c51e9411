# libFuzzer targets: fuzz/fuzz_<name>.c with a seed corpus in
# fuzz/corpus/<name>/. Each becomes a CTest entry (label "fuzz") that runs for
# SIM_FUZZ_SECONDS, writing new inputs to a scratch dir, never to the repo.
set(SIM_FUZZ_SECONDS 20 CACHE STRING "Seconds each fuzz target runs under ctest")
file(GLOB SIM_FUZZ_SRC CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/fuzz/fuzz_*.c)
foreach(src ${SIM_FUZZ_SRC})
  get_filename_component(name ${src} NAME_WE)
  string(REGEX REPLACE "^fuzz_" "" short ${name})
  add_executable(${name} ${src})
  target_link_libraries(${name} PRIVATE simmodel)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  set(scratch ${CMAKE_BINARY_DIR}/fuzz-scratch/${short})
  file(MAKE_DIRECTORY ${scratch})
  add_test(NAME ${name}
    COMMAND ${name} -max_total_time=${SIM_FUZZ_SECONDS} -timeout=10 -rss_limit_mb=2048
            -artifact_prefix=${CMAKE_BINARY_DIR}/fuzz-scratch/${short}-
            ${scratch} ${CMAKE_SOURCE_DIR}/fuzz/corpus/${short})
  set_tests_properties(${name} PROPERTIES LABELS fuzz TIMEOUT 300)
endforeach()
