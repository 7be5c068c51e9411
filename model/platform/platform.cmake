# model/platform: the SystemC timed platform (C++17), linked into `sim` and
# into tests/test_platform.c. Without libsystemc-dev a C stub is built
# instead (sim replay --platform systemc then says so).
add_library(simplatform STATIC ${CMAKE_SOURCE_DIR}/model/platform/platform_stub.c)
target_include_directories(simplatform PUBLIC ${CMAKE_SOURCE_DIR}/model/platform)
target_link_libraries(simplatform PUBLIC simmodel)
list(APPEND SIM_EXTRA_LIBS simplatform)

# test_platform is created by tests/tests.cmake after this fragment; link it
# to the platform once the whole directory has been read.
function(_sim_platform_link_tests)
  if(TARGET test_platform)
    target_link_libraries(test_platform PRIVATE simplatform)
  endif()
endfunction()
cmake_language(DEFER CALL _sim_platform_link_tests)
