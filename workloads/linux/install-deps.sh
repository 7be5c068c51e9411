#!/bin/sh
# Installs the Debian packages the Linux guest image (issue 6) needs:
# Debian's kernel source, the tools its build uses, the device-tree compiler
# and the QEMU oracle. Kept apart from tools/install-deps.sh because the image
# is optional: the default build never needs these. Idempotent; apt-get only.
# No libelf-dev or libssl-dev: with this config (no modules, no module
# signing, no BTF, no objtool on 32-bit powerpc) no host tool includes them.
set -eu
PKGS="linux-source-6.1 xz-utils make gcc flex bison bc cpio device-tree-compiler
      gcc-powerpc-linux-gnu binutils-powerpc-linux-gnu qemu-system-ppc"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
    || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
echo "linux/install-deps: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
