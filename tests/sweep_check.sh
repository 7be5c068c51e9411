#!/bin/sh
# sweep_check.sh SIM TMPDIR CASE: CLI checks of `sim sweep` (tests/cli_sweep.cmake).
#   replay    every row's total and per-row sums equal `sim replay --model
#             --accounting 3.1 --set ...` of the same point (the seed-profile
#             trace, two emulation costs, default parameters: auto replays)
#   linear    the same with host interrupts off: the points come from one
#             replay's statistics and still equal the replays
#   formats   CSV and JSON carry the same numbers; one header line
#   interrupt SIGINT during a long sweep: exit 130, a complete CSV of the
#             points done
#   mpi       mpirun -np 2: the file is byte-identical to one process
#   transform --transform pv: each row's per-row sums equal `sim whatif
#             --transform pv --accounting 3.1 --set ...` of the point
#   plot      --plot: a PNG line, an SVG heat map, a PNG tornado (gnuplot)
#   sens      sim sensitivity (host interrupts off): "10% cheaper X saves Y%"
#             equals two replays, and the --target value reaches the target
#             by replay while one unit less far does not
set -eu
sim=$1; tmp=$2; case=$3
mkdir -p "$tmp"; cd "$tmp"
tr=sweep_seed.bin
[ -f $tr ] || "$sim" trace synth --exits 20k --seed 5 -o $tr >/dev/null 2>&1

# Compares each CSV row of $1 (params in columns 1-2) with sim replay.
check_rows() {
  out=$1; shift
  n=0
  hdr=$(head -1 "$out")
  tail -n +2 "$out" > rows.txt
  while IFS=, read -r a b exact ticks rest; do
    rep=$("$sim" replay $tr --model --accounting 3.1 --format csv "$@" \
          --set emul_spr_gen_insns="$a" --set emul_mtmsr_insns="$b" 2>&1)
    want=$(printf '%s\n' "$rep" | sed -n 's/.*sum of rows = traced duration.*(\([0-9]*\) of.*/\1/p')
    [ "$want" = "$ticks" ] || { echo "point $a,$b: sweep total $ticks, replay $want"; exit 1; }
    # per-row sums (usec, 3 decimals) as the replay's table prints them
    for row in EMULINST ITLBVIRT DTLBVIRT EXTINT TIMEINGUEST; do
      col=$(printf '%s\n' "$hdr" | tr , '\n' | grep -n "^${row}_sum_usec\$" | cut -d: -f1)
      got=$(printf '%s,%s,%s,%s,%s\n' "$a" "$b" "$exact" "$ticks" "$rest" | cut -d, -f"$col")
      exp=$(printf '%s\n' "$rep" | grep "^$row," | cut -d, -f5)
      [ "$got" = "$exp" ] || { echo "point $a,$b row $row: sweep $got, replay $exp"; exit 1; }
    done
    n=$((n + 1))
  done < rows.txt
  [ "$n" -gt 0 ] || { echo "no rows"; exit 1; }
  echo "$n rows equal sim replay"
}

case $case in
replay)
  "$sim" sweep $tr --param emul_spr_gen_insns=10:20:5 --param emul_mtmsr_insns=40,50 \
    -o s1.csv 2> s1.err
  cat s1.err
  [ "$(tail -n +2 s1.csv | wc -l)" = 6 ] || { echo "expected 6 rows"; exit 1; }
  check_rows s1.csv
  ;;
linear)
  "$sim" sweep $tr --param emul_spr_gen_insns=10:20:5 --param emul_mtmsr_insns=40,50 \
    --set host_tick_hz=0 --set host_irq_hz=0 -o s2.csv 2> s2.err
  cat s2.err
  grep -q "(0 replayed, 6 from one replay's statistics; 6 equal a replay)" s2.err
  check_rows s2.csv --set host_tick_hz=0 --set host_irq_hz=0
  ;;
formats)
  "$sim" sweep $tr --param cpi=1:1.4:0.2 --method linear -o f.csv 2>/dev/null
  "$sim" sweep $tr --param cpi=1:1.4:0.2 --method linear -o f.json 2>/dev/null
  [ "$(grep -c '^cpi,exact,total_ticks,total_usec,' f.csv)" = 1 ]
  for t in $(tail -n +2 f.csv | cut -d, -f3); do
    grep -q "\"total_ticks\": $t," f.json || { echo "total $t not in JSON"; exit 1; }
  done
  python3 -c "import json,sys; d=json.load(open('f.json')); assert len(d['points'])==3" 2>/dev/null \
    || grep -c '"total_ticks"' f.json | grep -qx 3
  echo "CSV and JSON agree"
  ;;
interrupt)
  [ -f big.bin ] || "$sim" trace synth --exits 300k --seed 2 -o big.bin >/dev/null 2>&1
  # stop SIG OUT RC WORD: a replay sweep stopped by SIG after 1 s exits RC,
  # says WORD, and OUT holds the finished points as a complete CSV
  stop() {
    rm -f "$2"
    "$sim" sweep big.bin --param decode_insns=0:399:1 --method replay --threads 1 \
      -o "$2" 2> "$2.err" &
    pid=$!
    sleep 1
    kill -"$1" $pid
    rc=0; wait $pid || rc=$?
    cat "$2.err"
    [ "$rc" = "$3" ] || { echo "SIG$1: exit code $rc, expected $3"; exit 1; }
    grep -q "sim sweep: $4" "$2.err" || { echo "SIG$1: no '$4'"; exit 1; }
    rows=$(tail -n +2 "$2" | wc -l)
    [ "$rows" -ge 1 ] && [ "$rows" -lt 400 ] || { echo "SIG$1: $rows rows"; exit 1; }
    cols=$(head -1 "$2" | tr , '\n' | wc -l)
    bad=$(awk -F, -v c="$cols" 'NF != c' "$2" | wc -l)
    [ "$bad" = 0 ] || { echo "SIG$1: ragged CSV"; exit 1; }
    ls "$2".tmp* 2>/dev/null && { echo "SIG$1: temporary file left"; exit 1; }
    echo "SIG$1: $rows complete rows"
  }
  stop INT int.csv 130 interrupted
  # SIGTERM (a batch scheduler's time limit) keeps the finished points too
  stop TERM term.csv 143 terminated
  # SIGHUP (the terminal closed) too
  stop HUP hup.csv 129 "hung up"
  ;;
mpi)
  # SWEEP_MPIRUN: the mpirun of the MPI CMake found
  args="$tr --param utlb_pinned=1,2 --param emul_spr_gen_insns=10:20:5 --threads 1"
  "$sim" sweep $args -o one.csv 2>/dev/null
  flags=""
  [ "$(id -u)" = 0 ] && flags="--allow-run-as-root"
  "$SWEEP_MPIRUN" $flags --oversubscribe -np 2 "$sim" sweep $args -o two.csv 2> two.err \
    || { cat two.err; exit 1; }
  grep -q "split over 2 MPI ranks" two.err || { cat two.err; echo "not 2 ranks"; exit 1; }
  cmp one.csv two.csv || { echo "2 ranks differ from 1 process"; exit 1; }
  [ "$(tail -n +2 two.csv | wc -l)" = 6 ]
  echo "2 ranks: byte-identical to one process"
  ;;
plot)
  "$sim" sweep $tr --param cpi=1:1.4:0.1 --method linear --plot line.png -o p1.csv 2>/dev/null
  "$sim" sweep $tr --param cpi=1:1.4:0.1 --param icache_miss_cycles=30,50,70 \
    --method linear --plot heat.svg -o p2.csv 2>/dev/null
  "$sim" sensitivity $tr --top 5 --plot tornado.png > /dev/null
  for f in line.png tornado.png; do
    [ "$(head -c 4 $f | od -An -tx1 | tr -d ' ')" = 89504e47 ] || { echo "$f is not a PNG"; exit 1; }
  done
  grep -q "<svg" heat.svg || { echo "heat.svg is not an SVG"; exit 1; }
  grep -q "icache_miss_cycles" heat.svg || { echo "heat.svg lacks its axis label"; exit 1; }
  "$sim" sweep $tr --param cpi=1:1.4:0.1 --param decode_insns=1,2 --param tlbwe_cycles=1,2 \
    --method linear --plot three.png -o p3.csv 2>err.txt && { echo "3 axes plotted"; exit 1; }
  grep -q "a plot shows one" err.txt
  # a picture name gnuplot cannot draw is refused before the work: no
  # output, no ranking printed
  rm -f bad.csv
  "$sim" sweep $tr --param cpi=1:1.4:0.1 --method linear --plot bad.pdf -o bad.csv 2>err.txt && { echo "bad.pdf accepted"; exit 1; }
  grep -q "bad.pdf: expected a .png or .svg name" err.txt || { cat err.txt; exit 1; }
  [ ! -e bad.csv ] || { echo "sweep wrote bad.csv and then failed on its plot"; exit 1; }
  "$sim" sensitivity $tr --top 5 --plot bad.pdf -o bad.csv > sens.txt 2>err.txt && { echo "bad.pdf accepted"; exit 1; }
  grep -q "bad.pdf: expected a .png or .svg name" err.txt || { cat err.txt; exit 1; }
  [ ! -s sens.txt ] && [ ! -e bad.csv ] || { echo "sensitivity worked before refusing its plot name"; exit 1; }
  echo "plots written"
  ;;
transform)
  "$sim" sweep $tr --param emul_spr_gen_insns=10,20 --transform pv -o t.csv 2>/dev/null
  hdr=$(head -1 t.csv)
  tail -n +2 t.csv | while IFS= read -r line; do
    v=$(echo "$line" | cut -d, -f1)
    "$sim" whatif $tr --transform pv --accounting 3.1 --format csv \
      --set emul_spr_gen_insns="$v" > w.csv 2>/dev/null
    for row in EMULINST ITLBVIRT DTLBVIRT TIMEINGUEST; do
      col=$(printf '%s\n' "$hdr" | tr , '\n' | grep -n "^${row}_sum_usec\$" | cut -d: -f1)
      got=$(echo "$line" | cut -d, -f"$col")
      exp=$(grep "^$row," w.csv | cut -d, -f5)
      [ "$got" = "$exp" ] || { echo "$v $row: sweep $got, whatif $exp"; exit 1; }
    done
    echo "emul_spr_gen_insns=$v: rows equal sim whatif"
  done
  ;;
sens)
  q="--set host_tick_hz=0 --set host_irq_hz=0"
  "$sim" sensitivity $tr $q --target -10% -o sens.csv > sens.txt
  cat sens.txt
  total() { "$sim" replay $tr --model --accounting 3.1 $q "$@" 2>&1 |
            sed -n 's/.*sum of rows = traced duration.*(\([0-9]*\) of.*/\1/p'; }
  t0=$(total)
  for p in icache_miss_cycles dispatch_insns cpi; do
    line=$(grep "^$p," sens.csv)
    lo=$(echo "$line" | cut -d, -f4); pct=$(echo "$line" | cut -d, -f6)
    t1=$(total --set $p=$lo)
    awk -v a="$t0" -v b="$t1" -v p="$pct" -v n="$p" 'BEGIN {
      r = 100 * (b - a) / a; d = r - p; if (d < 0) d = -d;
      if (d > 1e-6) { printf "%s: sensitivity %f%%, replays %f%%\n", n, p, r; exit 1 }
      printf "%s lower: %f%% = replays\n", n, r }'
  done
  # the target: a whole parameter whose value is found in range
  line=$(grep "^icache_miss_cycles," sens.csv)
  [ "$(echo "$line" | cut -d, -f10)" = found ] || { echo "no target for icache_miss_cycles"; exit 1; }
  v=$(echo "$line" | cut -d, -f11)
  t1=$(total --set icache_miss_cycles=$v); t2=$(total --set icache_miss_cycles=$((v + 1)))
  awk -v a="$t0" -v b="$t1" -v c="$t2" -v v="$v" 'BEGIN {
    r1 = 100 * (b - a) / a; r2 = 100 * (c - a) / a;
    if (r1 > -10 || r2 <= -10) { printf "target %d: %f%%, %d: %f%%\n", v, r1, v + 1, r2; exit 1 }
    printf "icache_miss_cycles %d reaches -10%% (%f%%), %d does not (%f%%)\n", v, r1, v + 1, r2 }'
  grep -q "no value in its range" sens.txt
  ;;
*) echo "unknown case $case"; exit 2 ;;
esac
