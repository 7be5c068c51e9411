# Option values every command parses the same way (tools/sim.c helpers):
# numbers, options that take one value, missing values.

# numbers are decimal or 0x hex: 010 was read as octal 8 (strtoull base 0),
# '+10' and ' 10' passed
sim_cli_test(options_exits_leading_zero_decimal 0 "~wrote 10 exits"
  trace synth --exits 010 -o opt_leading_zero.bin)
sim_cli_test(options_exits_hex 0 "~wrote 16 exits"
  trace synth --exits 0x10 -o opt_hex.bin)
sim_cli_test(options_exits_plus_refused 2
  "~--exits: expected a count from 1 to 2\\^40, got '\\+10'"
  trace synth --exits +10 -o opt_plus.bin)
sim_cli_test(options_seed_blank_refused 2
  "~--seed: expected an unsigned number, got ' -1'"
  trace synth --exits 10 --seed " -1" -o opt_blank.bin)

# an option that takes one value given twice: the first was dropped
# silently (a second --transform replaced the first instead of composing)
sim_cli_test(options_transform_twice 2
  "~--transform given twice \\('pv' and 'no-iccci'\\)"
  whatif @synth500.bin --transform pv --transform no-iccci)
sim_cli_test(options_table_twice 2
  "~--table given twice"
  calibrate --trace @synth500.bin --table @table_emul.txt
            --table @table_emul_debugfs.txt -o opt_twice.ini)
sim_cli_test(options_output_twice 2 "~-o given twice \\('a.txt' and 'b.txt'\\)"
  replay @synth500.bin -o a.txt -o b.txt)
sim_cli_test(options_like_twice 2 "~--like given twice"
  trace synth --like @table_emul.txt --like @table_emul.txt -o opt_like.bin)

# a missing value is named as such (they said "unknown option")
foreach(c "calibrate;--trace" "replay;--params" "sweep;--param"
          "sensitivity;--step" "measurable;--traps" "import;ftrace;--tb-hz"
          "trace;synth;--like" "trace;profile;--name" "record;--exits")
  list(GET c -1 opt)
  string(REPLACE ";" "_" tname "${c}")
  string(REPLACE "-" "" tname "${tname}")
  sim_cli_test(options_missing_value_${tname} 2
    "~option '${opt}' needs a value" ${c})
endforeach()
sim_cli_test(options_missing_value_short_o 2 "~option '-o' needs a value"
  trace synth --exits 10 -o)

# text written as one line of an output: a newline in replay's --title
# broke the kvm table (its next line read 'unit is cycles'), longer
# titles and workload names were cut silently, a control character in the
# workload became '_'
sim_cli_test(options_replay_title_newline 2
  "~--title: one line of printable text \\(character 2 is not\\)"
  replay @synth500.bin --title "a\nunit is cycles")
sim_cli_test(options_import_workload_long 2
  "~--workload: at most 31 characters, not 40"
  import ftrace @ftrace_trace6.txt -o opt_wl.bin
  --workload 0123456789012345678901234567890123456789)
sim_cli_test(options_dump_output_twice 2
  "~-o given twice \\('opt_a.txt' and 'opt_b.txt'\\)"
  trace dump @synth500.bin -o opt_a.txt -o opt_b.txt)
sim_cli_test(options_table_output_twice 2
  "~-o given twice \\('opt_a.json' and 'opt_b.json'\\)"
  table convert @table_emul.txt --to json -o opt_a.json -o opt_b.json)
# synth's --tb-hz is the trace's core clock too: 100 GHz was accepted
sim_cli_test(options_synth_tb_hz_not_a_core_clock 2
  "~--tb-hz '100000000000': expected 1000000 .. 4000000000"
  trace synth --exits 10 --tb-hz 100000000000 -o opt_tb.bin)
