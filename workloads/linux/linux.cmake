# workloads/linux: an unmodified Linux 44x guest (issue 6), built from Debian
# packages only (workloads/linux/install-deps.sh installs them). The kernel
# takes minutes to build, so nothing here is part of the default build:
#   cmake --build . --target linux-image   -> <build>/linux/{vmlinux,*.dtb,init}
#   ctest -L linux                         -> builds it if needed, boots it in
#                                             QEMU (the independent reference)
# Both skip with one line (the test: CTest's SKIP_RETURN_CODE 77) when the
# packages are absent; the checks run when the target or test runs, so
# installing the packages later needs no reconfigure.
set(LINUX_SRC ${CMAKE_SOURCE_DIR}/workloads/linux)
set(LINUX_OUT ${CMAKE_BINARY_DIR}/linux)

# A one-line notice at configure time; the scripts make the real check.
set(_linux_missing "")
if(NOT EXISTS /usr/src/linux-source-6.1.tar.xz)
  list(APPEND _linux_missing linux-source-6.1)
endif()
foreach(_tool dtc flex bison qemu-system-ppc)
  find_program(_linux_have_${_tool} ${_tool})
  if(NOT _linux_have_${_tool})
    list(APPEND _linux_missing ${_tool})
  endif()
endforeach()
if(_linux_missing)
  string(REPLACE ";" " " _linux_missing "${_linux_missing}")
  message(STATUS "Linux guest image: skipped, missing ${_linux_missing} (run workloads/linux/install-deps.sh)")
endif()

# Always runs when asked for: build-image.sh and the kernel's make decide
# what is out of date (a no-change run takes seconds).
add_custom_target(linux-image
  COMMAND sh ${LINUX_SRC}/build-image.sh ${LINUX_SRC} ${LINUX_OUT}
  COMMENT "Linux guest image (Debian linux-source-6.1) in ${LINUX_OUT}"
  USES_TERMINAL VERBATIM)

add_test(NAME linux_qemu_oracle
  COMMAND sh ${LINUX_SRC}/qemu-oracle.sh -b ${LINUX_SRC} ${LINUX_OUT})
# TIMEOUT: a first kernel build at -j2 on a shared machine plus the boot.
# RUN_SERIAL: that build takes both cores; under `ctest -j` it would starve
# the timed tests running beside it.
set_tests_properties(linux_qemu_oracle PROPERTIES
  LABELS linux SKIP_RETURN_CODE 77 TIMEOUT 900 RUN_SERIAL TRUE)

# cpu440 against the oracle, kind by kind, plus repeated boots giving
# byte-identical traces (compare-oracle.sh). The image comes the same way as
# linux_qemu_oracle's (-b: built or brought up to date first).
add_test(NAME linux_cpu440_vs_qemu
  COMMAND sh ${LINUX_SRC}/compare-oracle.sh -b ${LINUX_SRC} $<TARGET_FILE:sim> ${LINUX_OUT})
set_tests_properties(linux_cpu440_vs_qemu PROPERTIES
  LABELS linux SKIP_RETURN_CODE 77 TIMEOUT 900 RUN_SERIAL TRUE)
