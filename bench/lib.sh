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

# model_trace: builds $B (Release) and a synthetic trace of $EXITS exits
# drawn from the seed's profile; sets trace (its path) and n (its exits).
# The page cache is warmed.
model_trace() {
  cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$B" -j2 >/dev/null
  mkdir -p "$B/bench"
  trace=$B/bench/model-$EXITS.bin
  [ -f "$trace" ] || "$B/sim" trace synth --exits "$EXITS" --seed 1 -o "$trace" 2>/dev/null
  n=$("$B/sim" trace info "$trace" | awk '/^exits/ {print $2; exit}' | tr -d ,)
  cat "$trace" >/dev/null
}
