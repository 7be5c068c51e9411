# bench/lib.sh: helpers the benchmark scripts share (sourced, POSIX sh).

# best CMD...: the best (smallest) wall-clock seconds of REPS runs of CMD,
# its output discarded. Best-of-N, because this machine is shared: the
# minimum is the run least disturbed by others.
best() {
  b=""
  i=0
  while [ $i -lt "${REPS:-5}" ]; do
    s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
    t=$(awk "BEGIN{print $e - $s}")
    if [ -z "$b" ] || [ "$(awk "BEGIN{print ($t < $b)}")" = 1 ]; then b=$t; fi
    i=$((i + 1))
  done
  echo "$b"
}

# rss CMD...: peak resident memory of one run of CMD, in KiB.
rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
