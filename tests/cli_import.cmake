# CLI tests of `sim import ftrace` and `sim trace dump --ftrace`
# (tools/cli_import.c, model/ftrace.c, model/ftimport.c, model/ftexport.c) on
# the committed samples tests/data/ftrace_*.txt, written from the kernel's
# TP_printk formats: goldens of the import report and of the imported trace.

sim_cli_test(import_help 0 "~usage: sim import ftrace FILE -o TRACE" import --help)
sim_cli_test(import_ftrace_help 0 "~--vcpu PID +write the thread with this task pid"
  import ftrace --help)

# each sample: the report (stdout with --report -), then the trace it wrote
foreach(s trace6 tgid9 report malformed)
  sim_cli_test(import_${s} 0 import_ftrace_${s}.txt
    import ftrace @ftrace_${s}.txt -o ftrace_${s}.bin --report -)
  sim_cli_test(import_${s}_dump 0 import_ftrace_${s}_dump.txt
    trace dump ftrace_${s}.bin)
  set_tests_properties(cli_import_${s} PROPERTIES FIXTURES_SETUP ftrace_${s})
  set_tests_properties(cli_import_${s}_dump PROPERTIES FIXTURES_REQUIRED ftrace_${s})
endforeach()
# a signal overrides an exit taken as EMUL_WAIT: the report's EMUL_WAIT
# guesses are the trace's EMUL_WAIT exits (1, not 2)
sim_cli_test(import_wait_signal 0 import_ftrace_wait_signal.txt
  import ftrace @ftrace_wait_signal.txt -o ftrace_wait_signal.bin --report -)
# the other thread of the two-vCPU sample
sim_cli_test(import_report_vcpu 0 import_ftrace_report_vcpu2046.txt
  import ftrace @ftrace_report.txt --vcpu 2046 -o ftrace_report_2046.bin --report -)
# malformed lines go to stderr by default, with their line numbers
sim_cli_test(import_malformed_stderr 0
  "~ftrace_malformed.txt:4: kvm_exit: expected a BookE interrupt name"
  import ftrace @ftrace_malformed.txt -o ftrace_malformed2.bin)

# export: the committed small trace as tracepoint text, 6 and 9 decimals
sim_cli_test(trace_dump_ftrace_small 0 trace_dump_ftrace_small.txt
  trace dump --ftrace @trace_small.bin)
sim_cli_test(trace_dump_ftrace_small_ns 0 "~kvm_exit: exit=ITLB_MISS \\| pc=0x10000540"
  trace dump --ftrace --ns @trace_small.bin)
# the round trip of a packed trace with guest TLB writes, through the CLI
sim_cli_test(import_roundtrip_pack 0 - trace pack @ftrace_roundtrip.txt -o ftrace_rt.bin)
sim_cli_test(import_roundtrip_export 0 - trace dump --ftrace ftrace_rt.bin -o ftrace_rt.txt)
sim_cli_test(import_roundtrip_import 0 import_ftrace_roundtrip.txt
  import ftrace ftrace_rt.txt -o ftrace_rt_back.bin --report -)
set_tests_properties(cli_import_roundtrip_pack PROPERTIES FIXTURES_SETUP ftrace_rt_bin)
set_tests_properties(cli_import_roundtrip_export PROPERTIES
  FIXTURES_REQUIRED ftrace_rt_bin FIXTURES_SETUP ftrace_rt_txt)
set_tests_properties(cli_import_roundtrip_import PROPERTIES FIXTURES_REQUIRED ftrace_rt_txt)

# a cpu440 recording exported and imported again: the same per-type counts
add_test(NAME cli_import_roundtrip_cpu440
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/ftrace_roundtrip.sh $<TARGET_FILE:sim>
          rt_boot boot --exits 20000
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
add_test(NAME cli_import_roundtrip_cpu440_pv
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/ftrace_roundtrip.sh $<TARGET_FILE:sim>
          rt_boot_pv boot --pv --exits 20000
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_import_roundtrip_cpu440 cli_import_roundtrip_cpu440_pv
  PROPERTIES TIMEOUT 300)

# bad input and usage: exit code 2 and a message
sim_cli_test(import_no_exit 2 "~ftrace_noexit.txt: no kvm_exit event: nothing to import"
  import ftrace @ftrace_noexit.txt -o ftrace_noexit.bin)
sim_cli_test(import_missing_file 2 "~no-such.txt: cannot open" import ftrace no-such.txt -o x.bin)
sim_cli_test(import_needs_output 2 "~-o TRACE is required" import ftrace @ftrace_trace6.txt)
sim_cli_test(import_unknown_format 2 "~unknown format 'perf'" import perf x.txt)
sim_cli_test(import_bad_tb_hz 2 "~--tb-hz 'zero'" import ftrace @ftrace_trace6.txt --tb-hz zero -o x.bin)
sim_cli_test(trace_dump_ns_needs_ftrace 2 "~--ns goes with --ftrace" trace dump --ns @trace_small.bin)
# errors give the input as typed, not its base name
sim_cli_test(import_error_names_path_as_typed 2
  "~^sim import ftrace: /dev/null: no kvm_exit event: nothing to import"
  import ftrace /dev/null -o devnull.bin)
# Evidence before guesses (issue 11): with kvm_userspace_exit events in the
# trace, a data miss the guest TLB maps above --guest-ram and not followed by
# KVM_EXIT_MMIO is a TLB miss, not MMIO; without them the guess decides.
# The report counts the exits each rule decided.
sim_cli_test(import_above_ram_evidence 0
  "~above RAM +data misses the guest TLB maps above --guest-ram: 0 MMIO by a following KVM_EXIT_MMIO, 3 not MMIO"
  import ftrace @ftrace_bigram.txt -o bigram.bin --report -)
sim_cli_test(import_above_ram_guess 0
  "~0 not MMIO \\(user-space exits traced, none followed\\), 3 MMIO by the --guest-ram guess \\(the trace silent\\)"
  import ftrace @ftrace_bigram_silent.txt -o bigram_silent.bin --report -)
sim_cli_test(import_above_ram_more_ram 0
  "~0 not MMIO \\(user-space exits traced, none followed\\), 0 MMIO by the --guest-ram guess"
  import ftrace @ftrace_bigram_silent.txt --guest-ram 1G -o bigram_1g.bin --report -)
# ... and the evidence decides the exits' rows (3 DTLBVIRT, 1 MMIO)
add_test(NAME cli_import_above_ram_rows
  COMMAND sh -c "\"$0\" import ftrace \"$1\" -o bigram_rows.bin --report - >rep.txt && grep -Eq '^ +DTLBVIRT +3 ' rep.txt && grep -Eq '^ +MMIO +1 ' rep.txt && \"$0\" import ftrace \"$2\" -o bigram_rows2.bin --report - >rep2.txt && grep -Eq '^ +MMIO +3 ' rep2.txt"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/ftrace_bigram.txt ${CMAKE_SOURCE_DIR}/tests/data/ftrace_bigram_silent.txt
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# --tb-hz is the header's core clock too: 1 kHz was accepted, and replay
# then priced every exit at one cycle per millisecond
sim_cli_test(import_tb_hz_not_a_core_clock 2
  "~--tb-hz '1000': expected 1000000 .. 4000000000"
  import ftrace @ftrace_trace6.txt -o imp_tb1k.bin --tb-hz 1000)
# -o - is refused before the input is read (it failed at the first record,
# after a report of 10 lines read and "threads 0 with kvm events")
sim_cli_test(import_output_stdout 2
  "~^sim import ftrace: -o -: a binary trace cannot be written to stdout"
  import ftrace @ftrace_trace6.txt -o -)
# --guest-ram 256M is 256 MiB, the default it names: read as 256,000,000 it
# took the misses at real 0x0F801000.. (below 256 MiB) for MMIO
sim_cli_test(import_guest_ram_binary_suffix 0
  "~0 not MMIO \\(user-space exits traced, none followed\\), 0 MMIO by the --guest-ram guess"
  import ftrace @ftrace_ram_248m.txt --guest-ram 256M -o ram248.bin --report -)
