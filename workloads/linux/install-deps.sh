#!/bin/sh
# Installs the Debian packages the Linux guest image (issue 6) needs:
# Debian's kernel source, the tools its build uses, the device-tree compiler
# and the QEMU oracle. Kept apart from the default list because the image is
# optional: the default build never needs these. Idempotent; apt-get only
# (through tools/install-deps.sh).
# No libelf-dev or libssl-dev: with this config (no modules, no module
# signing, no BTF, no objtool on 32-bit powerpc) no host tool includes them.
set -eu
exec sh "$(dirname "$0")/../../tools/install-deps.sh" \
  linux-source-6.1 xz-utils make gcc flex bison bc cpio device-tree-compiler patch \
  gcc-powerpc-linux-gnu binutils-powerpc-linux-gnu qemu-system-ppc
