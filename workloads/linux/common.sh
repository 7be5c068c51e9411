# Sourced by the Linux-guest scripts (qemu-oracle.sh, compare-oracle.sh):
#   need_qemu NAME          exits 77 (CTest's skip code) with a message when
#                           qemu-system-ppc is absent
#   build_image SRCDIR OUT  with SRCDIR set, builds (or brings up to date) the
#                           image; passes on build-image.sh's 77 (packages
#                           absent) and any failure
need_qemu() {
  if ! command -v qemu-system-ppc >/dev/null 2>&1; then
    echo "$1: skipped, qemu-system-ppc is absent (run workloads/linux/install-deps.sh)" >&2
    exit 77
  fi
}
build_image() {
  [ -n "$1" ] || return 0
  rc=0
  sh "$1/build-image.sh" "$1" "$2" || rc=$?
  [ $rc -eq 0 ] || exit $rc
}
