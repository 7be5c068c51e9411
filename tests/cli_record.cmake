# CLI tests of `sim record` and `sim microbench` (cpu440 + workloads).
sim_cli_test(record_list 0 "~boot .*\\[--pv\\]" record --list)
sim_cli_test(record_unknown_workload 2 "~unknown workload 'nosuch'" record nosuch -o x.bin)
sim_cli_test(record_needs_output 2 "~-o TRACE is required" record boot)
sim_cli_test(record_seconds_and_exits 2 "~not both" record boot --seconds 1 --exits 5 -o x.bin)
sim_cli_test(record_no_pv_flavour 2 "~has no PV flavour" record microbench --pv -o x.bin)
sim_cli_test(record_exits_limit 0 "~limit reached. 1000 exits" record boot --exits 1000 -o rec1000.bin)
sim_cli_test(microbench_lines 0 "~mfmsr +[0-9]+ cycles/iteration" microbench)
