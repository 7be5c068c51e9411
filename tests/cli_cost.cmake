# (--format perf/csv: the kvm form's first line names the trace's path.)
# CLI tests of the cycle model through `sim replay` (model/cost.c,
# tools/cli_replay.c). Goldens pin the predicted table, so any change of a
# default or of a stage shows up here (regenerate them on purpose).
sim_cli_test(replay_model_cost_mix 0 replay_model_cost_mix.txt
  replay @cost_mix.bin --fold-emul --format perf)
sim_cli_test(replay_model_stages 0 replay_model_stages.txt
  replay @cost_mix.bin --stages --accounting 3.1 --format csv)
sim_cli_test(replay_model_forced_on_ticks 0 "~ticks predicted \\(cycle model\\)"
  replay @synth500.bin --model)
sim_cli_test(replay_measured_by_default 0 "~ticks synth \\(drawn from profile\\)"
  replay @synth500.bin)
sim_cli_test(replay_compare 0 replay_compare_synth500.txt
  replay @synth500.bin --compare --fold-emul --format perf)
# The host-rate line states the in-exit device-interrupt rate the model
# uses: host_irq_hz times host_irq_exit_share when that is not 1.
sim_cli_test(replay_host_rate_with_exit_share 0 "~111 device interrupts/s serviced inside exits \\(host_tick_hz, host_irq_hz 222 x host_irq_exit_share 0\\.5\\)"
  replay @synth500.bin --model --set host_irq_exit_share=0.5)
sim_cli_test(replay_compare_needs_ticks 2 "~cost_mix.bin: record .*no measured"
  replay @cost_mix.bin --compare)
sim_cli_test(replay_set_changes_prediction 0 "~EMULINST +26 +2[0-9] "
  replay @cost_mix.bin --fold-emul --set icache_miss_cycles=150)
sim_cli_test(replay_set_unknown_name 2 "~unknown parameter 'icache_mis' \\(did you mean 'icache_miss_cycles'"
  replay @cost_mix.bin --set icache_mis=3)
sim_cli_test(replay_params_bad_file 2 "~bad_key.ini:3: unknown parameter"
  replay @cost_mix.bin --params @params/bad_key.ini)
sim_cli_test(replay_unknown_platform 2 "~unknown platform 'qemu'"
  replay @cost_mix.bin --platform qemu)
# The SystemC timed platform: same trace, time-driven exits made by the
# platform; deterministic, so a golden pins it.
sim_cli_test(replay_platform_systemc 0 replay_platform_cost_mix.txt
  replay @cost_mix.bin --platform systemc --fold-emul --format perf)
# Issue 10: a predicted replay keeps the guest time the trace measured (the
# TIMEINGUEST row equals the measured one) and says so; --guest-time model
# models it (and says so).
sim_cli_test(replay_model_keeps_guest_ticks 0
  "~TIMEINGUEST +499 +822 +822 +\\+0\\.0% +1\\.6473 +1\\.6473 +\\+0\\.0%"
  replay @synth500.bin --compare)
sim_cli_test(replay_model_says_guest_measured 0
  "~guest time \\(TIMEINGUEST\\): measured, from the trace \\(500 exits"
  replay @synth500.bin --model)
sim_cli_test(replay_guest_time_model 0
  "~guest time \\(TIMEINGUEST\\): modelled \\(0 exits from the trace's guest ticks, 500 modelled"
  replay @synth500.bin --model --guest-time model)
sim_cli_test(replay_guest_time_bad 2 "~unknown --guest-time 'x'"
  replay @synth500.bin --model --guest-time x)
