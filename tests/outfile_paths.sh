#!/bin/sh
# outfile_paths.sh CASE SIM : what `-o PATH` does to what is at PATH
# (model/outfile.c). Each case works in its own fresh directory and never
# touches the system's /dev: device nodes are made here with mknod (root
# only, else the case is skipped with exit code 77 and says so).
# Exit 0 pass, 1 fail, 77 skipped.
set -u
case_=$1; sim=$2
dir="outfile_$case_"
rm -rf "$dir" && mkdir "$dir" && cd "$dir" || exit 1

fail() { echo "FAIL ($case_): $*"; exit 1; }
# the reference bytes: a small synthetic trace written to a new file
ref() { "$sim" trace synth --exits 3000 --seed 5 -o ref.bin 2>/dev/null || fail "synth to a new file"; }
synth() { "$sim" trace synth --exits 3000 --seed 5 -o "$@"; }
no_temp() {
  left=$(find . -name '*.tmp.*' | head -3)
  [ -z "$left" ] || fail "temporary files left behind: $left"
}

# synth -o link.bin: the link stays, the trace lands at its target $1
through_link() {
  ref
  synth link.bin 2>/dev/null || fail "synth -o link.bin failed"
  [ -L link.bin ] || fail "the symlink was replaced by a $(stat -c %F link.bin)"
  cmp -s ref.bin "$1" || fail "the link's target $1 does not hold the trace"
  no_temp
}

case $case_ in
fifo)
  ref
  mkfifo pipe || fail "mkfifo"
  timeout 20 cat pipe >got.bin &
  synth pipe 2>err.txt || { cat err.txt; fail "synth -o FIFO failed"; }
  wait
  [ -p pipe ] || fail "the FIFO was replaced by a $(stat -c %F pipe)"
  cmp -s ref.bin got.bin || fail "the reader of the FIFO did not get the trace"
  no_temp ;;
symlink)
  echo old >target.bin && ln -s target.bin link.bin
  through_link target.bin ;;
dangling)
  mkdir sub && ln -s sub/new.bin link.bin
  through_link sub/new.bin ;;
absolute)
  ln -s "$PWD/abs.bin" link.bin
  through_link abs.bin ;;
stdout)
  # a link to this process's stdout (as /dev/stdout is), stdout a pipe and
  # then a regular file: written through the stream, the link left alone
  ref
  ln -s /proc/self/fd/1 out.bin
  synth out.bin 2>/dev/null | cat >piped.bin
  cmp -s ref.bin piped.bin || fail "-o link-to-stdout (a pipe) did not write the trace"
  synth out.bin >redir.bin 2>/dev/null || fail "-o link-to-stdout (a file) failed"
  cmp -s ref.bin redir.bin || fail "-o link-to-stdout (a file) did not write the trace"
  [ -L out.bin ] || fail "the link to stdout was replaced"
  no_temp ;;
directory)
  # refused before any work: the input is corrupt, but the directory is
  # what is reported (the work would have found the corruption first)
  mkdir d
  printf 'not a trace' >bad.bin
  out=$("$sim" replay bad.bin -o d 2>&1); rc=$?
  [ $rc = 2 ] || fail "replay -o DIR: exit code $rc, expected 2"
  echo "$out" | grep -q "d: is a directory" || fail "replay -o DIR said: $out"
  out=$("$sim" record linux-boot --linux-dir nowhere -o d 2>&1); rc=$?
  [ $rc = 2 ] || fail "record -o DIR: exit code $rc, expected 2"
  echo "$out" | grep -q "d: is a directory" || fail "record -o DIR said: $out"
  for cmd in "trace synth --exits 10 -o d" "trace pack bad.bin -o d" \
             "table convert bad.bin --to csv -o d" "import ftrace bad.bin -o d"; do
    out=$("$sim" $cmd 2>&1); rc=$?
    [ $rc = 2 ] || fail "sim $cmd: exit code $rc, expected 2"
    echo "$out" | grep -q "d: is a directory" || fail "sim $cmd said: $out"
  done
  [ -d d ] || fail "the directory is gone"
  no_temp ;;
missing-dir)
  out=$("$sim" trace synth --exits 10 -o nodir/x.bin 2>&1); rc=$?
  [ $rc = 2 ] || fail "exit code $rc, expected 2"
  echo "$out" | grep -q "nodir/x.bin: cannot write: directory nodir does not exist" ||
    fail "said: $out" ;;
report)
  # an unwritable --report is found before the import: no trace appears
  # (a valid input: the import itself would succeed)
  "$sim" import ftrace "$SIM_TEST_DATA/ftrace_report.txt" -o ok.bin \
    >/dev/null 2>&1 || fail "the import of a valid input failed"
  out=$("$sim" import ftrace "$SIM_TEST_DATA/ftrace_report.txt" -o i.bin --report /nonexistent-dir/r.txt 2>&1); rc=$?
  [ $rc = 2 ] || fail "exit code $rc, expected 2"
  echo "$out" | grep -q "directory /nonexistent-dir does not exist" || fail "said: $out"
  [ ! -e i.bin ] || fail "i.bin was written although the command failed"
  no_temp ;;
output-is-input)
  # -o naming the input (or a link to it) would replace what is read: refused
  # before the work, the input untouched; a different name is fine
  ref
  cp ref.bin t.bin && ln -s t.bin alias.bin
  for cmd in "replay t.bin -o t.bin" "trace dump t.bin -o alias.bin" \
             "sweep t.bin --param cpi=1,2 -o t.bin" "sensitivity t.bin -o t.bin" \
             "whatif t.bin --transform no-iccci -o alias.bin"; do
    out=$($sim $cmd 2>&1); rc=$?
    [ $rc = 2 ] || fail "sim $cmd: exit code $rc, expected 2"
    echo "$out" | grep -q "is also the input (t.bin)" || fail "sim $cmd said: $out"
    cmp -s ref.bin t.bin || fail "sim $cmd changed its input"
  done
  "$sim" replay t.bin -o other.txt >/dev/null 2>&1 || fail "replay to another name"
  no_temp ;;
other-input)
  # -o naming any other input (the hardware table, the starting parameters,
  # the --like table, a parameter file) is refused too, before the work
  ref
  "$sim" table convert "$SIM_TEST_DATA/table_emul.txt" --to csv -o hw.csv ||
    fail "table convert"
  printf 'cpi = 1.5\n' >p.ini
  cp hw.csv hw0.csv; cp p.ini p0.ini
  for cmd in "calibrate --trace ref.bin --table hw.csv --fit cpi --max-iter 1 -o hw.csv" \
             "calibrate --trace ref.bin --table hw.csv --fit cpi --max-iter 1 --params p.ini -o p.ini" \
             "calibrate --trace ref.bin --table hw.csv --fit cpi --max-iter 1 -o ref.bin" \
             "trace synth --like hw.csv --exits 100 -o hw.csv" \
             "trace synth --profile hw.csv --exits 100 -o ./hw.csv" \
             "trace profile ref.bin --name x -o ref.bin" \
             "replay ref.bin --params p.ini -o p.ini"; do
    out=$($sim $cmd 2>&1); rc=$?
    [ $rc = 2 ] || fail "sim $cmd: exit code $rc, expected 2"
    echo "$out" | grep -q "is also the input" || fail "sim $cmd said: $out"
    cmp -s hw0.csv hw.csv && cmp -s p0.ini p.ini || fail "sim $cmd changed an input"
    [ -s ref.bin ] && "$sim" trace info ref.bin >/dev/null 2>&1 ||
      fail "sim $cmd changed the trace"
  done
  no_temp ;;
plot-over-input)
  # Audit: whatif --plot BASE writes BASE.png and BASE.svg; neither was
  # checked against the trace, --params or -o (a trace named t.png was
  # replaced by the picture), and no -o against pv:sites=FILE (whatif,
  # sweep, sensitivity replaced the kernel's sites with their output)
  ref
  cp ref.bin ref.png; cp ref.bin ref0.bin
  printf 'cpi = 1.5\n' >p.svg; cp p.svg p0.svg
  printf '0xc0001000 mtmsr\n' >sites.txt; cp sites.txt sites0.txt
  pv=pv:template-bytes=65536:sites=sites.txt
  for cmd in "whatif ref.png --transform no-iccci --plot ref" \
             "whatif ref.bin --params p.svg --transform no-iccci --plot p" \
             "whatif ref.bin --transform no-iccci --plot q -o q.png" \
             "whatif ref.bin --transform $pv -o sites.txt" \
             "whatif ref.bin --transform $pv --plot sites -o ./sites.png" \
             "sweep ref.bin --transform $pv --param cpi=1,2 -o sites.txt" \
             "sensitivity ref.bin --transform $pv -o sites.txt"; do
    out=$($sim $cmd 2>&1); rc=$?
    [ $rc = 2 ] || fail "sim $cmd: exit code $rc, expected 2"
    echo "$out" | grep -Eq "is also the input|are the same file" ||
      fail "sim $cmd said: $out"
    cmp -s ref0.bin ref.png && cmp -s p0.svg p.svg &&
      cmp -s sites0.txt sites.txt || fail "sim $cmd changed an input"
    [ ! -e q.png ] && [ ! -e q.svg ] || fail "sim $cmd wrote an output"
  done
  no_temp ;;
plot-fails)
  # Audit: a --plot that failed (here: no gnuplot on PATH) after -o was
  # committed left OUT written, an old one replaced, under exit code 2
  "$sim" trace synth --exits 2000 -o t.bin 2>/dev/null || fail "synth"
  for cmd in "sweep t.bin --param cpi=1,2 -o old.csv --plot x.png" \
             "sensitivity t.bin -o old.csv --plot x.png" \
             "whatif t.bin --transform no-iccci -o old.csv --plot x"; do
    echo old >old.csv
    out=$(PATH=/nonexistent $sim $cmd 2>&1 >/dev/null); rc=$?
    [ $rc = 2 ] || fail "sim $cmd without gnuplot: exit code $rc, expected 2"
    echo "$out" | grep -q "gnuplot" || fail "sim $cmd said: $out"
    [ "$(cat old.csv)" = old ] || fail "sim $cmd replaced -o although its plot failed"
  done
  no_temp ;;
long-name)
  # Audit: a 250-byte file name (a file name takes 255) could not be
  # written: its temporary name, + ".tmp.XXXXXX", was too long
  ref
  long=$(printf 'n%.0s' $(seq 250))
  synth "$long" 2>err.txt || { cat err.txt; fail "synth -o a 250-byte name failed"; }
  cmp -s ref.bin "$long" || fail "the 250-byte name does not hold the trace"
  no_temp ;;
two-outputs)
  # two outputs of one command under one name: one would replace the other
  ref
  "$sim" trace dump ref.bin --ftrace -o ft.txt || fail "trace dump --ftrace"
  for cmd in "import ftrace ft.txt -o same.out --report ./same.out" \
             "sweep ref.bin --param cpi=1,2 -o same.png --plot same.png" \
             "sensitivity ref.bin --top 1 -o same.png --plot ../$dir/same.png"; do
    out=$($sim $cmd 2>&1); rc=$?
    [ $rc = 2 ] || fail "sim $cmd: exit code $rc, expected 2"
    echo "$out" | grep -q "are the same file" || fail "sim $cmd said: $out"
    [ ! -e same.out ] && [ ! -e same.png ] || fail "sim $cmd wrote its output"
  done
  no_temp ;;
stdout-full)
  # a report printed to a full device reached no one: exit code 2 with the
  # reason, for every command (params show, measurable, trace info and
  # synth --mix list exited 0; trace info 2 without a word)
  if ! mknod full c 1 7 2>/dev/null; then
    echo "SKIPPED: cannot make device nodes here (mknod needs root); not tested"
    exit 77
  fi
  ref
  printf 'kernel a wall 1 2 3\nkernel b wall 1 2 3.5\ntraps a X 10\ntraps b X 20\n' >m.txt
  for cmd in "params show" "measurable m.txt" "trace info ref.bin" \
             "trace synth --mix list" "replay ref.bin"; do
    $sim $cmd >full 2>err.txt; rc=$?
    [ $rc = 2 ] || fail "sim $cmd >full: exit code $rc, expected 2"
    grep -q "stdout: write failed" err.txt || fail "sim $cmd >full said: $(cat err.txt)"
  done ;;
params-dir)
  mkdir p
  out=$("$sim" params show --params p 2>&1); rc=$?
  [ $rc = 2 ] || fail "exit code $rc, expected 2"
  echo "$out" | grep -q "p: is a directory" || fail "said: $out" ;;
device)
  if ! mknod null c 1 3 2>/dev/null || ! mknod full c 1 7 2>/dev/null; then
    echo "SKIPPED: cannot make device nodes here (mknod needs root); not tested"
    exit 77
  fi
  ref
  synth null 2>/dev/null || fail "synth -o null-device failed"
  [ -c null ] || fail "the null device was replaced by a $(stat -c %F null)"
  "$sim" replay ref.bin -o null >/dev/null 2>&1 ||
    fail "replay -o null-device failed"
  [ -c null ] || fail "replay replaced the null device"
  out=$(synth full 2>&1); rc=$?
  [ $rc = 2 ] || fail "synth -o full-device: exit code $rc, expected 2"
  echo "$out" | grep -q "full: write failed.*No space left on device" || fail "said: $out"
  out=$("$sim" replay ref.bin -o full 2>&1); rc=$?
  [ $rc = 2 ] || fail "replay -o full-device: exit code $rc, expected 2"
  echo "$out" | grep -q "full: write failed: No space left on device" || fail "said: $out"
  [ -c full ] || fail "the full device was replaced"
  no_temp ;;
signal-*|dump-signal)
  # a long run killed by a signal: the temporary file goes, the process
  # ends by the signal. Started from python3, as a shell starts background
  # jobs with SIGINT ignored.
  if [ "$case_" = dump-signal ]; then
    # trace dump: the text of a 1M-exit trace takes seconds
    "$sim" trace synth --exits 1M -o t.bin 2>/dev/null || fail "synth"
    sig=INT; out=t.txt; set -- "$sim" trace dump t.bin -o t.txt
  else
    sig=${case_#signal-}; out=big.bin
    set -- "$sim" trace synth --exits 50M -o big.bin
  fi
  python3 - "$sig" "$out" "$@" <<'PY' || fail "see above"
import glob, os, signal, subprocess, sys, time
sig = getattr(signal, "SIG" + sys.argv[1]); out = sys.argv[2]
p = subprocess.Popen(sys.argv[3:], stderr=subprocess.DEVNULL)
t0 = time.time()
while not glob.glob(out + ".tmp.*"):
    if time.time() - t0 > 10 or p.poll() is not None:
        p.kill(); print("no temporary file appeared"); sys.exit(1)
    time.sleep(0.02)
time.sleep(0.1)
p.send_signal(sig)
rc = p.wait()
if rc != -sig:
    print("exit status %d, expected death by signal %d" % (rc, sig)); sys.exit(1)
PY
  [ ! -e "$out" ] || fail "$out appeared although the run was killed"
  no_temp ;;
plot)
  # sweep --plot into a missing directory: refused before the work, so
  # not even the sweep's own -o appears; a good --plot leaves no temporary
  "$sim" trace synth --exits 2000 -o t.bin 2>/dev/null || fail "synth"
  out=$("$sim" sweep t.bin --param cpi=1:2:0.5 -o sw.csv --plot nodir/x.png 2>&1); rc=$?
  [ $rc = 2 ] || fail "exit code $rc, expected 2"
  echo "$out" | grep -q "nodir/x.png: cannot write: directory nodir does not exist" || fail "said: $out"
  [ ! -e sw.csv ] || fail "the sweep ran although --plot could not be written"
  if command -v gnuplot >/dev/null 2>&1; then
    TMPDIR=$PWD "$sim" sweep t.bin --param cpi=1:2:0.5 -o sw.csv --plot sw.png \
      >/dev/null 2>&1 || fail "sweep --plot failed"
    [ -s sw.png ] || fail "no plot"
    [ -z "$(find . -name 'sim-plot-*')" ] || fail "the plot's data file was left behind"
  else
    echo "gnuplot not installed: the plot itself not drawn (the refusal was tested)"
  fi
  no_temp ;;
record-int)
  # sim record's contract: Ctrl-C stops the guest and still leaves a
  # complete trace (its own SIGINT handler is kept)
  python3 - "$sim" <<'PY' || fail "see above"
import glob, signal, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "record", "compute", "-o", "r.bin"],
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
t0 = time.time()
while not glob.glob("r.bin.tmp.*"):
    if time.time() - t0 > 10 or p.poll() is not None:
        p.kill(); print("no temporary file appeared"); sys.exit(1)
    time.sleep(0.02)
time.sleep(0.02)  # a Release build records compute in well under a second
p.send_signal(signal.SIGINT)
out = p.communicate()[0].decode()
if p.returncode not in (0, 1) or "interrupted (Ctrl-C)" not in out:
    print("exit status %d; output: %s" % (p.returncode, out[:300])); sys.exit(1)
PY
  "$sim" trace info --verify r.bin >/dev/null || fail "the interrupted trace is not complete"
  no_temp ;;
*) echo "unknown case $case_"; exit 1 ;;
esac
echo "ok ($case_)"
exit 0
