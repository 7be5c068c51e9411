# CLI tests of `sim replay` on measured ticks (tools/cli_replay.c,
# model/replay.c, model/stats.c) and of `sim trace synth` (tools/cli_synth.c,
# model/synth.c). Predicted-tick replays are in cli_cost.cmake.

# goldens: the exit-timing table of a committed 500-exit synthetic trace
sim_cli_test(replay_kvm 0 replay_synth500_kvm.txt replay @synth500.bin)
sim_cli_test(replay_kvm_folded 0 replay_synth500_kvm_folded.txt
  replay @synth500.bin --fold-emul --title "synthetic 500")
sim_cli_test(replay_debugfs_ticks 0 replay_synth500_debugfs_ticks.txt
  replay @synth500.bin --format debugfs --accounting 3.1)
sim_cli_test(replay_csv 0 replay_synth500_csv.txt replay @synth500.bin --format csv)
sim_cli_test(replay_help 0 "~usage: sim replay TRACE" replay --help)

# the accounting invariants: a trace whose time goes back fails them (exit 1)
sim_cli_test(replay_backwards_fails_checks 1
  "~check events in time order +FAIL \\(1 out of order, first at exit 2\\)"
  replay @replay_backwards.bin)

# bad input and usage: exit 2 with the file and byte offset
sim_cli_test(replay_truncated 2
  "~trace_truncated.bin: truncated at byte 300" replay @trace_truncated.bin)
sim_cli_test(replay_bad_magic 2 "~trace_badmagic.bin: not a sim440 trace"
  replay @trace_badmagic.bin)
sim_cli_test(replay_corrupt 2 "~trace_corrupt.bin: .*(CRC|corrupt)"
  replay @trace_corrupt.bin)
sim_cli_test(replay_missing_file 2 "~no-such.bin" replay no-such.bin)
sim_cli_test(replay_no_trace 2 "~missing TRACE" replay)
sim_cli_test(replay_bad_format 2 "~unknown format 'xml'" replay @synth500.bin --format xml)
sim_cli_test(replay_bad_unit 2 "~unknown unit 'ms'" replay @synth500.bin --unit ms)
# --accounting chooses how samples add up; the unit stays usec and says so
sim_cli_test(replay_bad_accounting 2 "~--accounting: expected 2.6.29 .* or 3.1 .*got 'ticks'"
  replay @synth500.bin --accounting ticks)
sim_cli_test(replay_accounting_kvm_header 0 "~accounting 3.1 \\(ticks added, divided to usec when printed\\). unit usec"
  replay @synth500.bin --accounting 3.1)
sim_cli_test(replay_accounting_json 0 "~\"accounting\": \"3.1\""
  replay @synth500.bin --accounting 3.1 --format json)
# the old name still works, with a word on stderr
sim_cli_test(replay_unit_deprecated 0 "~--unit is deprecated.*use --accounting 3.1"
  replay @synth500.bin --unit ticks --format csv)

# synth: same seed, same bytes; bad options are usage errors
sim_cli_test(synth_a 0 - trace synth --exits 5000 --seed 9 -o synth_a.bin)
sim_cli_test(synth_b 0 - trace synth --exits 5000 --seed 9 -o synth_b.bin)
add_test(NAME cli_synth_same_seed_same_bytes
  COMMAND ${CMAKE_COMMAND} -E compare_files synth_a.bin synth_b.bin
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_synth_a cli_synth_b PROPERTIES FIXTURES_SETUP synth_ab)
set_tests_properties(cli_synth_same_seed_same_bytes PROPERTIES
  FIXTURES_REQUIRED synth_ab TIMEOUT 30)
sim_cli_test(synth_profile_pv 0 "~wrote 2000 exits .*profile ppc440-ubuntu-boot-pv.txt"
  trace synth --exits 2000 --profile ${CMAKE_SOURCE_DIR}/validation/hw/ppc440-ubuntu-boot-pv.txt
  -o synth_pv.bin)
sim_cli_test(synth_zero_exits 2 "~--exits: expected a count" trace synth --exits 0 -o x.bin)
sim_cli_test(synth_no_output 2 "~-o FILE is required" trace synth --exits 10)
sim_cli_test(synth_bad_profile 2 "~table_malformed.txt:[0-9]+:"
  trace synth --exits 10 --profile @table_malformed.txt -o x.bin)
sim_cli_test(synth_missing_profile 2 "~no-such-profile.txt"
  trace synth --exits 10 --profile no-such-profile.txt -o x.bin)

# `sim replay` on a cpu440 trace reproduces the table `sim record` printed
# (with the cycle model's ticks, and with the flat defaults), with both
# accountings
foreach(v model flat)
  foreach(a 2.6.29 3.1)
    if(v STREQUAL model)
      set(extra --model)
    else()
      set(extra "")
    endif()
    string(REPLACE "." "" an ${a})
    add_test(NAME cli_record_replay_same_${v}_${an}
      COMMAND sh ${CMAKE_SOURCE_DIR}/tests/record_replay_same.sh $<TARGET_FILE:sim>
              boot ${extra} --exits 30000 --accounting ${a} --fold-emul -- --accounting ${a} --fold-emul
      WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
    set_tests_properties(cli_record_replay_same_${v}_${an} PROPERTIES TIMEOUT 300)
  endforeach()
endforeach()

# a trace from a pipe is read(), not mapped: the same table (but for the
# first line, which names the trace)
add_test(NAME cli_replay_from_pipe
  COMMAND sh -c "cat \"$1\" | \"$0\" replay /dev/stdin | tail -n +2 >pipe.txt && tail -n +2 \"$2\" | diff - pipe.txt"
          $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/synth500.bin
          ${CMAKE_SOURCE_DIR}/tests/golden/replay_synth500_kvm.txt
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_replay_from_pipe PROPERTIES TIMEOUT 60)

# a trace of 8 MiB or more is mapped ahead of the reader by a second thread
# (model/trace.c, PREFAULT_MIN): the same tables, measured and modelled, as
# from a pipe (read, no thread)
add_test(NAME cli_replay_mapped_ahead_same
  COMMAND sh -c "set -e; \"$0\" trace synth --exits 300000 --seed 3 -o ahead.bin 2>/dev/null
    \"$0\" replay ahead.bin | tail -n +2 >ahead_map.txt
    cat ahead.bin | \"$0\" replay /dev/stdin | tail -n +2 | diff - ahead_map.txt
    \"$0\" replay ahead.bin --model | tail -n +2 >ahead_mapm.txt
    cat ahead.bin | \"$0\" replay /dev/stdin --model | tail -n +2 | diff - ahead_mapm.txt
    rm -f ahead.bin ahead_map.txt ahead_mapm.txt"
          $<TARGET_FILE:sim>
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_replay_mapped_ahead_same PROPERTIES TIMEOUT 120)
# -o /dev/stdout is stdout: a csv there stays one document (the accounting
# checks were appended to it, as for a file)
add_test(NAME cli_replay_csv_on_dev_stdout
  COMMAND sh -c "\"$1\" replay \"$2\" --format csv -o /dev/stdout 2>/dev/null | tail -1 | grep -q '^[A-Z_]*,[0-9]'"
          sh $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/synth500.bin
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_replay_csv_on_dev_stdout PROPERTIES TIMEOUT 60)
# a trace whose records carry ticks is replayed as measured: --set,
# --params and --guest-time would be ignored without a word (calibrate ->
# replay --params printed the measured table as if it were the fit's)
sim_cli_test(replay_params_need_model 2
  "~synth500.bin: --set: its records carry their ticks.*add --model"
  replay @synth500.bin --set cpi=5)
sim_cli_test(replay_params_with_model 0 "~^EMULINST "
  replay @synth500.bin --model --set cpi=5)
# core_hz given at the default's value (667M) on a trace made at another
# clock is refused like any other value (it passed as if not given, and the
# trace's 533 MHz priced the run).
add_test(NAME cli_replay_core_hz_default_value_given
  COMMAND sh -c "\"$0\" trace synth --like \"$1\" --exits 200 --tb-hz 533M -o hz533.bin >/dev/null && \"$0\" replay hz533.bin --model --set core_hz=533M >/dev/null && ! \"$0\" replay hz533.bin --model --set core_hz=667M >/dev/null 2> hz533.err && grep -q 'core_hz = 667000000: the trace was made at its own core clock, 533000000 Hz' hz533.err"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/validation/hw/ppc440-ubuntu-boot-nopv.txt
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_replay_core_hz_default_value_given PROPERTIES TIMEOUT 60)
# --by-insn (docs/tables.md "By instruction"): the emulation exits by
# instruction word, with what whatif pv does with each ...
sim_cli_test(replay_by_insn_lines 0
  "~# mfmsr +5 +19\\.23 +52 +18\\.98 +10\\.40  lwz of the page \\(removed\\)"
  replay @cost_mix.bin --by-insn)
sim_cli_test(replay_by_insn_text_only 2
  "~--by-insn prints '#' lines after a kvm or perf table, not with --format csv"
  replay @cost_mix.bin --by-insn --format csv)
# ... whose exits and handler time are exactly the table's emulation rows,
# in either accounting, on a trace with measured ticks
add_test(NAME cli_replay_by_insn_adds_up_to_the_table
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/by_insn_check.sh $<TARGET_FILE:sim>
          ${CMAKE_SOURCE_DIR}/validation/hw/ppc440-ubuntu-boot-nopv.txt
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_replay_by_insn_adds_up_to_the_table PROPERTIES TIMEOUT 60)
