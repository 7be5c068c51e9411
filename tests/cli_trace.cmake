# CLI tests of `sim trace` (tools/cli_trace.c, model/trace.c, model/tracetext.c)
# on the committed tests/data/trace_small.{txt,bin} and tiny broken files.

# --help tells the subcommands, synth included
sim_cli_test(trace_help 0 "~synth --exits N \\[--seed S\\] \\[--profile TABLE\\] -o FILE +synthetic trace with measured ticks"
  trace --help)
sim_cli_test(trace_info_help 0 "~usage: sim trace info FILE \\[--verify\\]" trace info --help)
sim_cli_test(trace_dump_help 0 "~usage: sim trace dump FILE \\[-o OUT\\]" trace dump --help)
sim_cli_test(trace_pack_help 0 "~usage: sim trace pack TEXT -o FILE" trace pack --help)

# golden output on the committed small trace; its dump is its committed text
sim_cli_test(trace_dump_small 0 trace_dump_small.txt trace dump @trace_small.bin)
sim_cli_test(trace_dump_is_committed_text 0 ../data/trace_small.txt trace dump @trace_small.bin)
sim_cli_test(trace_info_small 0 trace_info_small.txt trace info @trace_small.bin)
sim_cli_test(trace_info_verify_small 0 trace_info_verify_small.txt
  trace info --verify @trace_small.bin)

# pack of the committed text gives the committed bytes
sim_cli_test(trace_pack_small 0 - trace pack @trace_small.txt -o trace_small_packed.bin)
add_test(NAME cli_trace_pack_small_same_bytes
  COMMAND ${CMAKE_COMMAND} -E compare_files trace_small_packed.bin
          ${CMAKE_SOURCE_DIR}/tests/data/trace_small.bin
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_trace_pack_small PROPERTIES FIXTURES_SETUP trace_packed)
set_tests_properties(cli_trace_pack_small_same_bytes PROPERTIES
  FIXTURES_REQUIRED trace_packed TIMEOUT 30)

# bad input: exit code 2 and a message naming the byte / line
sim_cli_test(trace_info_truncated 2
  "~trace_truncated.bin: truncated at byte 300: a trace has at least 776 bytes"
  trace info @trace_truncated.bin)
sim_cli_test(trace_dump_truncated 2
  "~trace_truncated.bin: truncated at byte 300: expected 704 bytes of chunk 0, found 156"
  trace dump @trace_truncated.bin)
sim_cli_test(trace_info_bad_magic 2
  "~trace_badmagic.bin: not a sim440 trace \\(bad magic at byte 0"
  trace info @trace_badmagic.bin)
sim_cli_test(trace_dump_bad_magic 2 "~not a sim440 trace \\(bad magic"
  trace dump @trace_badmagic.bin)
sim_cli_test(trace_info_text_given 2 "~this is the text form, `sim trace pack`"
  trace info @trace_small.txt)
sim_cli_test(trace_info_newer_version 2
  "~trace_newer.bin: byte 8: trace version 7 is newer than this sim440 \\(reads version 1\\): upgrade sim440"
  trace info @trace_newer.bin)
sim_cli_test(trace_verify_corrupt 2
  "~trace_corrupt.bin: chunk 0 at byte 128: CRC mismatch, the file is corrupt"
  trace info --verify @trace_corrupt.bin)
sim_cli_test(trace_dump_corrupt 2 "~chunk 0 at byte 128: CRC mismatch"
  trace dump @trace_corrupt.bin -o trace_corrupt_dump.txt)
sim_cli_test(trace_pack_bad_text 2
  "~trace_bad.txt:4:6: unknown exit type 'EMULINS' \\(did you mean EMULINST\\?\\)"
  trace pack @trace_bad.txt -o trace_bad_packed.bin)
sim_cli_test(trace_info_missing_file 2 "~no-such.bin: cannot open" trace info no-such.bin)

# bad usage
sim_cli_test(trace_no_subcommand 2 "~usage: sim trace" trace)
sim_cli_test(trace_unknown_subcommand 2 "~unknown subcommand 'bogus'" trace bogus)
sim_cli_test(trace_pack_needs_output 2 "~-o FILE is required" trace pack @trace_small.txt)
sim_cli_test(trace_dump_unknown_option 2 "~unknown option '--fast'"
  trace dump --fast @trace_small.bin)

# `sim trace synth` is dispatched to cli_trace_synth (tools/cli_synth.c)
sim_cli_test(trace_synth_dispatch 0 "~sim trace synth" trace synth --help)

# lossless both ways on a trace of more than one chunk:
# synth -> dump -> pack gives the same bytes
sim_cli_test(trace_rt_synth 0 - trace synth --exits 70000 --seed 7 -o trace_rt.bin)
sim_cli_test(trace_rt_dump 0 - trace dump trace_rt.bin -o trace_rt.txt)
sim_cli_test(trace_rt_pack 0 - trace pack trace_rt.txt -o trace_rt2.bin)
add_test(NAME cli_trace_rt_same_bytes
  COMMAND ${CMAKE_COMMAND} -E compare_files trace_rt.bin trace_rt2.bin
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_trace_rt_synth PROPERTIES FIXTURES_SETUP trace_rt1)
set_tests_properties(cli_trace_rt_dump PROPERTIES
  FIXTURES_REQUIRED trace_rt1 FIXTURES_SETUP trace_rt2)
set_tests_properties(cli_trace_rt_pack PROPERTIES
  FIXTURES_REQUIRED trace_rt2 FIXTURES_SETUP trace_rt3)
set_tests_properties(cli_trace_rt_same_bytes PROPERTIES
  FIXTURES_REQUIRED trace_rt3 TIMEOUT 30)

# progress lines on a terminal for the long conversions (tests/progress_tty.sh)
add_test(NAME cli_progress_on_tty
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/progress_tty.sh $<TARGET_FILE:sim>
          ${CMAKE_SOURCE_DIR}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_progress_on_tty PROPERTIES TIMEOUT 120)

# --source/--assumes are one line each of the profile: a newline wrote a
# line of its own (here a second 'exits' the reader would take), and
# more than 199 characters were cut silently
sim_cli_test(trace_profile_source_newline 2
  "~--source: one line of printable text \\(character 2 is not\\)"
  trace profile @synth500.bin --name x --source "a\nexits 5" -o prof_nl.txt)
# Audit: --name had no such check: "x\ny" wrote a profile whose
# reader refused it (or took the second line as a keyword)
sim_cli_test(trace_profile_name_newline 2
  "~--name: one line of printable text \\(character 2 is not\\)"
  trace profile @synth500.bin --name "x\ny" -o prof_nl.txt)
# Audit: one recording given twice as --wall counted as two runs of the
# wall-time fit (its three runs and its t-test's degrees of freedom)
sim_cli_test(trace_profile_wall_same_recording 2
  "~--wall .*synth500.bin and --wall .*synth500.bin are the same recording"
  trace profile @synth500.bin --name x --wall @synth500.bin
  --wall @../data/synth500.bin --wall @cost_mix.bin -o prof_w.txt)
sim_cli_test(trace_profile_assumes_long 2
  "~--assumes: at most 199 characters, not 220"
  trace profile @synth500.bin --name x -o prof_long.txt --assumes
  "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789")
# Audit: a trace without records printed "first tb: 0", "last tb: 0" and
# "duration: 0 ticks", timestamps of nothing
add_test(NAME cli_trace_info_no_records
  COMMAND sh -c "\"$0\" trace pack \"$1\" -o empty.bin && \"$0\" trace info empty.bin >empty_info.txt && grep -q '^first tb: *- (no records)$' empty_info.txt && grep -q '^duration: *-$' empty_info.txt"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/trace_empty.txt
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_trace_info_no_records PROPERTIES TIMEOUT 60)
