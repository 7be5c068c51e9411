# One error-prefix convention: every error of a command starts with
# "sim <command> [<subcommand>]: ", usage errors and input errors alike
# (tools/sim.c cli_report / cli_usage_error).
sim_cli_test(prefix_replay_input 2 "~^sim replay: no-such.bin: cannot open"
  replay no-such.bin)
sim_cli_test(prefix_replay_usage 2 "~^sim replay: unknown option '--bogus'"
  replay --bogus x.bin)
sim_cli_test(prefix_trace_info_input 2 "~^sim trace info: no-such.bin: cannot open"
  trace info no-such.bin)
sim_cli_test(prefix_table_show_input 2 "~^sim table show: no-such.txt: "
  table show no-such.txt)
sim_cli_test(prefix_params_input 2 "~^sim params: --set: cpi = -1 "
  params show --set cpi=-1)
sim_cli_test(prefix_trace_synth_output 2 "~^sim trace synth: nodir/x.bin: cannot write"
  trace synth --exits 10 -o nodir/x.bin)
# A message that already names the command is not prefixed twice
# ("sim validate: validate: no case ...").
sim_cli_test(prefix_not_doubled 2 "~^sim validate: no case 'no-such'"
  validate no-such --cases ${CMAKE_SOURCE_DIR}/validation/cases)
