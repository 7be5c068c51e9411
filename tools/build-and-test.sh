#!/bin/sh
# Builds sim440 (release, and a test build with -Werror and ASan/UBSan) and
# runs every test: the CUnit suites and CLI golden/bad-input tests
# (build-test/), then each libFuzzer target for a bounded time on its
# committed seed corpus (build-fuzz/). The Linux-guest tests (label linux:
# the QEMU oracle and cpu440 against it) build a kernel from Debian's source
# first, 3-7 minutes on 2 cores; SIM_LINUX=0 leaves them out.
set -eu
cd "$(dirname "$0")/.."
./tools/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)

# the release build must compile warning-free too (-O2 finds other warnings)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSIM_WERROR=ON >/dev/null
cmake --build build -j"$jobs"

cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Debug -DSIM_SANITIZE=ON -DSIM_WERROR=ON >/dev/null
cmake --build build-test -j"$jobs"
(cd build-test && ctest --output-on-failure -j"$jobs" -LE linux)
# The Linux guest (label "linux"): its packages, one kernel build into
# build-test/linux (reused by later runs), then the two boots' tests.
if [ "${SIM_LINUX:-1}" = 1 ]; then
  sh workloads/linux/install-deps.sh
  (cd build-test && ctest --output-on-failure -L linux)
fi

CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DSIM_FUZZ=ON -DSIM_TESTS=OFF \
  -DSIM_FUZZ_SECONDS="${SIM_FUZZ_SECONDS:-20}" >/dev/null
cmake --build build-fuzz -j"$jobs"
(cd build-fuzz && ctest --output-on-failure -L fuzz)
