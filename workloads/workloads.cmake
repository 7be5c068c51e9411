# workloads: guest programs built at build time with Debian's powerpc cross
# toolchain (gcc-powerpc-linux-gnu, binutils-powerpc-linux-gnu) and embedded
# into the sim binary; no prebuilt guest binaries are committed.
find_program(PPC_CC powerpc-linux-gnu-gcc)
find_program(PPC_LD powerpc-linux-gnu-ld)
find_program(PPC_OBJCOPY powerpc-linux-gnu-objcopy)
if(NOT PPC_CC OR NOT PPC_LD OR NOT PPC_OBJCOPY)
  message(FATAL_ERROR "the powerpc cross toolchain is missing: run tools/install-deps.sh (Debian packages gcc-powerpc-linux-gnu, binutils-powerpc-linux-gnu).")
endif()
execute_process(COMMAND ${PPC_CC} -m32 -print-libgcc-file-name
                OUTPUT_VARIABLE PPC_LIBGCC OUTPUT_STRIP_TRAILING_WHITESPACE)

set(WL_SRC ${CMAKE_SOURCE_DIR}/workloads/guest)
set(WL_OUT ${CMAKE_BINARY_DIR}/workloads)
file(MAKE_DIRECTORY ${WL_OUT})
# -mcpu=440 without the 405/440 MAC ops (Unicorn's 405D4 lacks nothing, but
# the guest stays portable), no FP in C, no lmw/stmw or string ops in
# compiled code, code and data on separate pages (the linker scripts).
set(WL_CFLAGS -O2 -m32 -mbig -mcpu=440 -mno-mulhw -ffreestanding -nostdlib
    -fno-builtin -fno-pic -mno-relocatable -msdata=none -mno-multiple
    -mno-string -fno-stack-protector -fno-asynchronous-unwind-tables
    -Wall -Wextra -Werror -Wa,-many -I${WL_SRC} -I${CMAKE_SOURCE_DIR}/cpu440)
set(WL_LDFLAGS -z noexecstack --no-warn-rwx-segments)

# user space: one binary for every flavour
add_custom_command(
  OUTPUT ${WL_OUT}/user.bin
  COMMAND ${PPC_CC} ${WL_CFLAGS} -c ${WL_SRC}/user.c -o ${WL_OUT}/user.o
  COMMAND ${PPC_CC} ${WL_CFLAGS} -c ${WL_SRC}/ustart.S -o ${WL_OUT}/ustart.o
  COMMAND ${PPC_LD} ${WL_LDFLAGS} -T ${WL_SRC}/user.ld -o ${WL_OUT}/user.elf
          ${WL_OUT}/ustart.o ${WL_OUT}/user.o ${PPC_LIBGCC}
  COMMAND ${PPC_OBJCOPY} -O binary ${WL_OUT}/user.elf ${WL_OUT}/user.bin
  DEPENDS ${WL_SRC}/user.c ${WL_SRC}/ustart.S ${WL_SRC}/user.ld
  VERBATIM)

# kernels: nopv, pv (magic page) and microbench
set(WL_BINS "")
foreach(flavour nopv pv bench)
  set(defs "")
  set(extra "")
  if(flavour STREQUAL "pv")
    set(defs -DPV)
  elseif(flavour STREQUAL "bench")
    set(defs -DMICROBENCH)
  endif()
  set(o ${WL_OUT}/${flavour})
  add_custom_command(
    OUTPUT ${WL_OUT}/kernel-${flavour}.bin
    COMMAND ${PPC_CC} ${WL_CFLAGS} ${defs} -c ${WL_SRC}/kernel.c -o ${o}-kernel.o
    COMMAND ${PPC_CC} ${WL_CFLAGS} ${defs} -c ${WL_SRC}/microbench.c -o ${o}-mb.o
    COMMAND ${PPC_CC} ${WL_CFLAGS} ${defs} "-DUSER_BIN=\"${WL_OUT}/user.bin\""
            -c ${WL_SRC}/start.S -o ${o}-start.o
    COMMAND ${PPC_LD} ${WL_LDFLAGS} -T ${WL_SRC}/kernel.ld -o ${o}.elf
            ${o}-start.o ${o}-kernel.o ${o}-mb.o ${PPC_LIBGCC}
    COMMAND ${PPC_OBJCOPY} -O binary ${o}.elf ${WL_OUT}/kernel-${flavour}.bin
    DEPENDS ${WL_SRC}/kernel.c ${WL_SRC}/microbench.c ${WL_SRC}/start.S
            ${WL_SRC}/ppc.h ${WL_SRC}/kernel.ld ${WL_OUT}/user.bin
            ${CMAKE_SOURCE_DIR}/cpu440/kvm_para.h
            ${CMAKE_SOURCE_DIR}/cpu440/booke_msr.h
    VERBATIM)
  list(APPEND WL_BINS ${WL_OUT}/kernel-${flavour}.bin)
endforeach()

# embedded as C arrays
add_custom_command(
  OUTPUT ${WL_OUT}/wl_images.c
  COMMAND ${CMAKE_COMMAND} -DOUT=${WL_OUT}/wl_images.c -DDIR=${WL_OUT}
          -P ${CMAKE_SOURCE_DIR}/workloads/embed.cmake
  DEPENDS ${WL_BINS} ${CMAKE_SOURCE_DIR}/workloads/embed.cmake
  VERBATIM)

# libelf (elfutils) reads the Linux guest's vmlinux
pkg_check_modules(LIBELF QUIET IMPORTED_TARGET libelf)
if(NOT LIBELF_FOUND)
  message(FATAL_ERROR "libelf is missing: run tools/install-deps.sh (Debian package libelf-dev).")
endif()
add_library(simworkloads STATIC ${CMAKE_SOURCE_DIR}/workloads/workloads.c
            ${CMAKE_SOURCE_DIR}/workloads/linux_boot.c ${WL_OUT}/wl_images.c)
target_include_directories(simworkloads PUBLIC ${CMAKE_SOURCE_DIR}/workloads)
target_link_libraries(simworkloads PUBLIC simcpu440 PkgConfig::LIBELF)
# where `sim record linux-boot` looks for the image by default
target_compile_definitions(simworkloads PRIVATE
  SIM_LINUX_DIR="${CMAKE_BINARY_DIR}/linux")
list(APPEND SIM_EXTRA_LIBS simworkloads)
set(WORKLOADS_LIBS simworkloads)
set(WORKLOADS_TESTS test_workloads)
