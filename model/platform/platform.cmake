# model/platform: the SystemC timed platform (C++17: libsystemc 2.3.4 exports
# sc_api_version_2_3_4_cxx201703L, so user code must be C++17 exactly),
# linked into `sim` and into tests/test_platform.c. Without libsystemc-dev a
# C stub is built instead (sim replay --platform systemc then says so).
pkg_check_modules(SYSTEMC QUIET IMPORTED_TARGET systemc)
# Fuzz builds (clang, -fsanitize=fuzzer-no-link on every language) take the
# stub: the platform parses nothing.
if(SYSTEMC_FOUND AND NOT SIM_FUZZ)
  enable_language(CXX)
  set(CMAKE_CXX_STANDARD 17)
  set(CMAKE_CXX_STANDARD_REQUIRED ON)
  set(CMAKE_CXX_EXTENSIONS OFF)
  add_library(simplatform STATIC ${CMAKE_SOURCE_DIR}/model/platform/platform.cpp)
  set_target_properties(simplatform PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON)
  target_link_libraries(simplatform PUBLIC simmodel PkgConfig::SYSTEMC)
else()
  if(NOT SIM_FUZZ)
    message(STATUS "systemc not found: building the platform stub (Debian package libsystemc-dev)")
  endif()
  add_library(simplatform STATIC ${CMAKE_SOURCE_DIR}/model/platform/platform_stub.c)
  target_link_libraries(simplatform PUBLIC simmodel)
endif()
target_include_directories(simplatform PUBLIC ${CMAKE_SOURCE_DIR}/model/platform)
list(APPEND SIM_EXTRA_LIBS simplatform)

# test_platform and test_whatif (model/whatif prices through the platform
# on request), and test_insnprof (its lines say what the pv transform does,
# which pulls in model/whatif) are created by tests/tests.cmake after this
# fragment; link them to the platform once the whole directory has been read.
function(_sim_platform_link_tests)
  foreach(t test_platform test_whatif test_insnprof)
    if(TARGET ${t})
      target_link_libraries(${t} PRIVATE simplatform)
    endif()
  endforeach()
endfunction()
cmake_language(DEFER CALL _sim_platform_link_tests)
