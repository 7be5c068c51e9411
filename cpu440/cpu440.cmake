# cpu440: the PPC440 guest core on Unicorn 2.0.1 (Debian libunicorn-dev).
pkg_check_modules(UNICORN QUIET IMPORTED_TARGET unicorn)
if(NOT UNICORN_FOUND)
  message(FATAL_ERROR "unicorn is missing: run tools/install-deps.sh (Debian package libunicorn-dev).")
endif()
file(GLOB CPU440_SRC CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/cpu440/*.c)
add_library(simcpu440 STATIC ${CPU440_SRC})
target_include_directories(simcpu440 PUBLIC ${CMAKE_SOURCE_DIR}/cpu440)
# Linked statically when Debian's archive is there (libunicorn-dev ships
# it): the shared library's ~28k symbol relocations cost every `sim`
# command ~5-10 ms at start-up, a tenth of a 10M-exit replay.
find_library(UNICORN_STATIC_LIB NAMES libunicorn.a HINTS ${UNICORN_LIBRARY_DIRS})
if(UNICORN_STATIC_LIB)
  find_package(Threads REQUIRED)
  target_include_directories(simcpu440 PUBLIC ${UNICORN_INCLUDE_DIRS})
  target_link_libraries(simcpu440 PUBLIC simmodel ${UNICORN_STATIC_LIB} Threads::Threads m)
else()
  target_link_libraries(simcpu440 PUBLIC simmodel PkgConfig::UNICORN m)
endif()
list(APPEND SIM_EXTRA_LIBS simcpu440)

# The CUnit suites of this layer (tests/tests.cmake builds every
# tests/test_*.c against simmodel only): link them with the core once the
# test targets exist, at the end of the top directory. They run clean under
# ASan/UBSan and LeakSanitizer with Unicorn 2.0.1 as it is (no options).
set(CPU440_TESTS test_iss test_booke test_shadow test_cpu440)
function(cpu440_link_tests)
  foreach(t ${CPU440_TESTS} ${WORKLOADS_TESTS})
    if(TARGET ${t})
      target_link_libraries(${t} PRIVATE simcpu440 ${WORKLOADS_LIBS})
    endif()
  endforeach()
endfunction()
cmake_language(DEFER CALL cpu440_link_tests)
