# cpu440: the PPC440 guest core on Unicorn 2.0.1 (Debian libunicorn-dev).
pkg_check_modules(UNICORN QUIET IMPORTED_TARGET unicorn)
if(NOT UNICORN_FOUND)
  message(FATAL_ERROR "unicorn is missing: run tools/install-deps.sh (Debian package libunicorn-dev).")
endif()
file(GLOB CPU440_SRC CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/cpu440/*.c)
add_library(simcpu440 STATIC ${CPU440_SRC})
target_include_directories(simcpu440 PUBLIC ${CMAKE_SOURCE_DIR}/cpu440)
target_link_libraries(simcpu440 PUBLIC simmodel PkgConfig::UNICORN m)
list(APPEND SIM_EXTRA_LIBS simcpu440)

# The CUnit suites of this layer (tests/tests.cmake builds every
# tests/test_*.c against simmodel only): link them with the core once the
# test targets exist, at the end of the top directory. They run clean under
# ASan/UBSan and LeakSanitizer with Unicorn 2.0.1 as it is (no options).
set(CPU440_TESTS test_iss test_decode test_booke test_shadow test_cpu440)
function(cpu440_link_tests)
  foreach(t ${CPU440_TESTS} ${WORKLOADS_TESTS})
    if(TARGET ${t})
      target_link_libraries(${t} PRIVATE simcpu440 ${WORKLOADS_LIBS})
    endif()
  endforeach()
endfunction()
cmake_language(DEFER CALL cpu440_link_tests)
