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
