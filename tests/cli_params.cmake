# CLI tests of `sim params` (tools/cli_params.c, model/params.c).
# The committed docs/parameters.md must equal what `sim params doc` generates.
sim_cli_test(params_doc_is_committed 0 ../../docs/parameters.md params doc)
sim_cli_test(params_show_names_the_file 0 "~core_hz +533000000 Hz +file .*ok.ini"
  params show --params @params/ok.ini --set cpi=2)
sim_cli_test(params_show_names_set 0 "~cpi +2 cycles/insn +--set"
  params show --params @params/ok.ini --set cpi=2)
sim_cli_test(params_unknown_key_names_line_and_nearest 2
  "~bad_key.ini:3: unknown parameter 'icahe_miss_cycles' \\(did you mean 'icache_miss_cycles'"
  params show --params @params/bad_key.ini)
sim_cli_test(params_out_of_range_names_line 2
  "~out_of_range.ini:3: utlb_pinned = 99 entries is out of range"
  params show --params @params/out_of_range.ini)
sim_cli_test(params_set_absurd_value 2 "~--set: cpi = -1 .*out of range"
  params show --set cpi=-1)
sim_cli_test(params_missing_file 2 "~no-such.ini: cannot open"
  params show --params no-such.ini)

# a default names where it comes from (as `params doc`), not just "default"
sim_cli_test(params_show_default_source 0
  "~cpi +1.2 cycles/insn +default: assumption, to calibrate" params show)
# did-you-mean ignores case; cache sizes are whole lines
sim_cli_test(params_set_nearest_ignores_case 2
  "~unknown parameter 'ICACHE_BYTES' \\(did you mean 'icache_bytes'"
  params show --set ICACHE_BYTES=8192)
sim_cli_test(params_cache_whole_lines 2
  "~--set: icache_bytes = 8193 bytes is not a whole number of cache lines"
  params show --set icache_bytes=8193)
# `#` starts an inline comment, as docs/parameters.md says
sim_cli_test(params_inline_hash_comment 0 "~cpi +2 cycles/insn +file"
  params show --params @params/inline_comment.ini)
# a parameter given twice in one file is refused, not overwritten
sim_cli_test(params_twice 2 "~twice.ini:4: qemu_mmio_usec given twice"
  params show --params @params/twice.ini)
# --params twice: the second file silently replaced the first (cpi = 2
# from inline_comment.ini was lost); refused, naming both
sim_cli_test(params_file_given_twice 2
  "~--params given twice \\('.*inline_comment.ini' and '.*ok.ini'\\)"
  params show --params @params/inline_comment.ini --params @params/ok.ini)
# a missing value is named as such (it said "unknown option '--params'")
sim_cli_test(params_missing_value 2 "~option '--params' needs a value"
  params show --params)
# a NUL byte ended inih's line: 'cpi = 1.5<NUL>garbage' read as cpi = 1.5
sim_cli_test(params_nul_byte 2 "~nul_byte.ini:2: a NUL byte"
  params show --params @params/nul_byte.ini)
# the refused value is printed as given: 533000000.5 read '5.33e+08: must be
# a whole number', a whole-looking number
sim_cli_test(params_whole_shows_value 2
  "~core_hz = 533000000.5: must be a whole number of Hz"
  params show --set core_hz=533000000.5)
# a size in bytes takes binary suffixes: icache_bytes = 32K is the 440's
# 32768 (it was 32000, a cache of 1000 lines); core_hz = 533M stays decimal
sim_cli_test(params_bytes_binary_suffix 0 "~icache_bytes +32768 bytes +--set"
  params show --set icache_bytes=32K)
sim_cli_test(params_hz_decimal_suffix 0 "~core_hz +533000000 Hz +--set"
  params show --set core_hz=533M)
# --set of one parameter twice: refused as a file's repeated key is (the
# last one silently won)
sim_cli_test(params_set_twice 2
  "~--set cpi given twice \\('cpi=2', then 'cpi=3'\\)"
  params show --set cpi=2 --set cpi=3)
sim_cli_test(replay_set_twice 2 "~--set dispatch_insns given twice"
  replay @cost_mix.bin --model --set dispatch_insns=100 --set dispatch_insns=200)
# a core clock other than the trace's own: refused (the trace header's
# clock was used and the --set silently ignored)
sim_cli_test(replay_core_hz_not_the_traces 2
  "~core_hz = 533000000: the trace was made at its own core clock, 667000000 Hz"
  replay @cost_mix.bin --model --set core_hz=533e6)
