#!/bin/sh
# Builds the Linux 44x guest image of issue 6 from Debian packages only:
#   build-image.sh SRCDIR OUTDIR
# SRCDIR is workloads/linux (config fragment, cpio list, device trees, init);
# OUTDIR is a folder of the build tree. Writes only into OUTDIR:
#   OUTDIR/vmlinux          the kernel (ELF, loads at physical 0), init built in
#   OUTDIR/vmlinux-pv       the same with kvm-magic-page-selftest.patch, the
#                           one change the PV boot needs (docs/linux-guest.md)
#   OUTDIR/sim440.dtb       device tree of the plain guest
#   OUTDIR/sim440-pv.dtb    the same plus /hypervisor (the KVM paravirt guest)
#   OUTDIR/init             the libc-free init (also inside vmlinux)
# Every step reruns only when its inputs changed; the kernel's own make is
# incremental, so a second run takes seconds.
# Exits 77 (CTest's skip code) with one line when a needed package is absent.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 SRCDIR OUTDIR" >&2; exit 2; }
SRC=$(cd "$1" && pwd)
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
# The package installs its tarball here; LINUX_TARBALL only for a test tree.
TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CROSS=powerpc-linux-gnu-
JOBS=${LINUX_JOBS:-2}

missing=""
[ -r "$TARBALL" ] || missing="$missing linux-source-6.1"
for t in "${CROSS}gcc:gcc-powerpc-linux-gnu" "${CROSS}ld:binutils-powerpc-linux-gnu" \
         flex:flex bison:bison bc:bc dtc:device-tree-compiler cpio:cpio \
         xz:xz-utils make:make patch:patch; do
  command -v "${t%%:*}" >/dev/null 2>&1 || missing="$missing ${t#*:}"
done
if [ -n "$missing" ]; then
  echo "linux image: skipped, missing Debian packages:$missing (run workloads/linux/install-deps.sh)" >&2
  exit 77
fi

step() { echo "linux image: $*" >&2; }
# newer A B: A was modified after B (POSIX test has no -nt; find has -newer).
newer() { [ -n "$(find "$1" -prune -newer "$2")" ]; }

# 1. Debian's kernel source, unpacked once. The stamp holds the tarball's
# size and time so a package upgrade unpacks the new source afresh.
KSRC=$OUT/linux-source-6.1
stamp=$(stat -c '%s %Y' "$TARBALL")
if [ ! -f "$OUT/.unpacked" ] || [ "$(cat "$OUT/.unpacked")" != "$stamp" ]; then
  step "unpacking $TARBALL"
  rm -rf "$KSRC" "$OUT/obj" "$OUT/.unpacked"
  tar -xJf "$TARBALL" -C "$OUT"
  echo "$stamp" > "$OUT/.unpacked"
fi

# 2. The init: static, no libc, no FP (soft-float: not one FP instruction,
# so the guest never takes an FP-unavailable interrupt), no lmw/stmw or
# string instructions (as workloads/ builds its guests), 4 KiB pages.
# Rebuilt when init.c or this script (its flags) changed.
if [ ! -f "$OUT/init" ] || newer "$SRC/init.c" "$OUT/init" || newer "$0" "$OUT/init"; then
  step "init"
  "${CROSS}gcc" -O2 -m32 -mcpu=440 -msoft-float -static -nostdlib -ffreestanding \
    -fno-builtin -mno-multiple -mno-string -fno-pie -no-pie -fno-stack-protector \
    -fno-asynchronous-unwind-tables \
    -Wall -Wextra -Werror -e _start -Wl,-z,max-page-size=4096 -Wl,-z,noexecstack \
    -Wl,--build-id=none -o "$OUT/init.tmp" "$SRC/init.c"
  mv "$OUT/init.tmp" "$OUT/init"
fi

# 3. The initramfs list and the kernel config: the committed files hold no
# path of this machine, so the absolute paths are filled in here. A file is
# rewritten only when its content changes, so make sees no spurious change.
update() { # update FILE: moves FILE.new over FILE when they differ
  if cmp -s "$1.new" "$1"; then rm -f "$1.new"; else mv "$1.new" "$1"; fi
}
# gen_init_cpio stores a file's own mtime (KBUILD_BUILD_TIMESTAMP below only
# covers directories and nodes): the cpio gets a copy of init dated 1970, and
# the list carries init's checksum so that a new init still changes the list,
# which is what makes the kernel's make regenerate the cpio.
mkdir -p "$OUT/initramfs"
cp "$OUT/init" "$OUT/initramfs/init"
touch -d @0 "$OUT/initramfs/init"
sum=$(sha256sum "$OUT/init")
{ echo "# init sha256 ${sum%% *}"
  sed "s|@INIT@|$OUT/initramfs/init|" "$SRC/initramfs.list"; } > "$OUT/initramfs.list.new"
update "$OUT/initramfs.list"
{ cat "$SRC/sim440.config"
  echo "CONFIG_INITRAMFS_SOURCE=\"$OUT/initramfs.list\""; } > "$OUT/allconfig.new"
update "$OUT/allconfig"

# nice: the machine is shared with other builds.
kmake() { nice make -C "$KSRC" O="$OUT/obj" ARCH=powerpc CROSS_COMPILE="$CROSS" "$@"; }
# A reproducible image: the banner's build user, host, number and date, and
# the initramfs files' times (usr/gen_initramfs.sh takes the timestamp), are
# fixed instead of this machine's, so a rebuild anywhere gives the same bytes
# and the same guest run.
export KBUILD_BUILD_USER=sim440 KBUILD_BUILD_HOST=sim440 KBUILD_BUILD_VERSION=1
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 1970"
mkdir -p "$OUT/obj"
if [ ! -f "$OUT/obj/.config" ] || newer "$OUT/allconfig" "$OUT/obj/.config"; then
  step "config (allnoconfig + sim440.config)"
  kmake -s KCONFIG_ALLCONFIG="$OUT/allconfig" allnoconfig
  # allnoconfig silently drops a symbol whose dependencies are unmet: check
  # that every line of the fragment made it into the final config.
  bad=$(grep -E '^(CONFIG_|# CONFIG_)' "$OUT/allconfig" | while IFS= read -r l; do
          grep -qxF "$l" "$OUT/obj/.config" || echo "$l"; done)
  if [ -n "$bad" ]; then
    echo "linux image: the config fragment was not applied as written:" >&2
    echo "$bad" >&2
    rm -f "$OUT/obj/.config"
    exit 1
  fi
fi

# 4. The kernel.
step "make -j$JOBS vmlinux"
kmake -s -j"$JOBS" vmlinux
cp -p "$OUT/obj/vmlinux" "$OUT/vmlinux.new"
update "$OUT/vmlinux"

# 4b. The PV kernel. 6.1's kvm_use_magic_page() checks the freshly mapped
# magic page with fault_in_readable(), whose access_ok() refuses the kernel
# address 0xfffff000 on 32-bit: an unmodified 6.1 guest maps the page and
# then never patches itself (measured on cpu440: 2 hypercalls, no patched
# instruction). vmlinux-pv is the same tree with that one check fixed; the
# plain build is restored afterwards so the next run's make is a no-op.
PATCH=$SRC/kvm-magic-page-selftest.patch
unpatch() { patch -s -R -p1 -d "$KSRC" < "$PATCH"; }
# a run interrupted in this step left the source patched
if patch -s -R -p1 --dry-run -d "$KSRC" < "$PATCH" >/dev/null 2>&1; then
  unpatch
fi
if [ ! -f "$OUT/vmlinux-pv" ] || newer "$OUT/vmlinux" "$OUT/vmlinux-pv" \
   || newer "$PATCH" "$OUT/vmlinux-pv"; then
  step "vmlinux-pv (with $(basename "$PATCH"))"
  patch -s -p1 -d "$KSRC" < "$PATCH"
  trap unpatch EXIT INT TERM
  kmake -s -j"$JOBS" vmlinux
  cp -p "$OUT/obj/vmlinux" "$OUT/vmlinux-pv.new"
  unpatch
  trap - EXIT INT TERM
  update "$OUT/vmlinux-pv"
  touch "$OUT/vmlinux-pv" # newer than vmlinux even when its bytes are the same
  step "make -j$JOBS vmlinux (the plain kernel back in obj/)"
  kmake -s -j"$JOBS" vmlinux
fi

# 5. The device trees (the PV one includes the plain one).
for d in sim440 sim440-pv; do
  if [ ! -f "$OUT/$d.dtb" ] || newer "$SRC/$d.dts" "$OUT/$d.dtb" \
     || newer "$SRC/sim440.dts" "$OUT/$d.dtb"; then
    step "$d.dtb"
    dtc -q -I dts -O dtb -o "$OUT/$d.dtb" "$SRC/$d.dts"
  fi
done
step "done: $OUT/vmlinux $OUT/vmlinux-pv $OUT/sim440.dtb $OUT/sim440-pv.dtb"
