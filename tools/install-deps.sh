#!/bin/sh
# Installs every Debian package sim440 needs (idempotent; apt-get only, no
# other downloads). Run as root, or as a user who may sudo.
#   tools/install-deps.sh            the packages of the build and the tests
#   tools/install-deps.sh PKG...     these packages instead (optional parts,
#                                    e.g. workloads/linux/install-deps.sh)
set -eu
if [ $# -gt 0 ]; then
  PKGS="$*"
else
  PKGS="cmake make pkg-config gcc g++ clang libclang-rt-14-dev time
        libcunit1-dev libgsl-dev libjansson-dev libisal-dev libinih-dev nettle-dev
        libunicorn-dev libsystemc-dev libelf-dev gnuplot-nox python3
        openmpi-bin libopenmpi-dev
        gcc-powerpc-linux-gnu binutils-powerpc-linux-gnu"
fi
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
    || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
echo "install-deps: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
