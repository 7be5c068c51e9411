# CLI tests of `sim record` and `sim microbench` (cpu440 + workloads).
sim_cli_test(record_list 0 "~boot .*\\[--pv\\]" record --list)
sim_cli_test(record_unknown_workload 2 "~unknown workload 'nosuch'" record nosuch -o x.bin)
sim_cli_test(record_needs_output 2 "~-o TRACE is required" record boot)
sim_cli_test(record_seconds_and_exits 2 "~not both" record boot --seconds 1 --exits 5 -o x.bin)
sim_cli_test(record_no_pv_flavour 2 "~has no PV flavour" record microbench --pv -o x.bin)
sim_cli_test(record_exits_limit 0 "~limit reached. 1000 exits" record boot --exits 1000 -o rec1000.bin)
sim_cli_test(microbench_lines 0 "~mfmsr +[0-9]+ cycles/iteration" microbench)
sim_cli_test(microbench_one_trap 0 "~^tlbwe +[0-9]+ cycles/iteration" microbench --trap tlbwe)
sim_cli_test(microbench_unknown_trap 2 "~unknown trap 'nosuch'" microbench --trap nosuch)
sim_cli_test(record_model 0 "~ticks: cycle model" record boot --model --exits 2000 -o recm.bin)
sim_cli_test(record_params_need_model 2 "~--set cpi: without --model only host_tick_hz" record boot --set cpi=2 -o x.bin)
sim_cli_test(record_bad_rate 2 "~--extint-hz: expected arrivals" record boot --extint-hz -1 -o x.bin)
# linux-boot reads its image from the build tree at run time: a missing or
# foreign file is a clear error (exit 2), never a crash.
sim_cli_test(record_linux_missing_image 2 "~nosuchdir/vmlinux: No such file.*linux-image" record linux-boot --linux-dir nosuchdir -o lx.bin)
sim_cli_test(record_linux_not_elf 2 "~vmlinux: not an ELF file" record linux-boot --linux-dir @linux-notelf -o lx.bin)
sim_cli_test(record_bad_time 2 "~--time: expected kvm or icount" record boot --time fast -o x.bin)
sim_cli_test(record_bad_shadow_perms 2 "~--shadow-perms: expected kvm or union" record boot --shadow-perms all -o x.bin)
sim_cli_test(record_linux_listed 0 "~linux-boot .*\\[--pv\\]" record --list)
# record and the SystemC platform: one set of host rates, from the
# parameters; record and the cycle model: one set of host pages
add_test(NAME cli_host_rates_record_platform
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/host_rates_same.sh $<TARGET_FILE:sim>
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_host_rates_record_platform PROPERTIES TIMEOUT 300)
# an absurd limit is refused with the allowed maximum
sim_cli_test(record_seconds_states_max 2
  "~--seconds: expected simulated seconds, more than 0 and at most 1000000, got '1e7'"
  record boot --seconds 1e7 -o x.bin)
sim_cli_test(record_help_cites_docs 0 "~SPR/MSR accesses, docs/kvm440.md §5" record --help)
# the UTLB's geometry is the parameters' (utlb_entries, utlb_pinned), with
# or without --model: a what-if core's larger UTLB is recorded as such
sim_cli_test(record_utlb_entries 0 "~# UTLB: 96 entries, 1 pinned, 95 round-robin slots" record boot --set utlb_entries=96 --exits 3000 -o recu96.bin)
sim_cli_test(record_utlb_out_of_range 2 "~utlb_entries = 200 entries is out of range .8, 128." record boot --set utlb_entries=200 -o x.bin)
sim_cli_test(record_utlb_pinned_too_many 2 "~UTLB 8, pinned 7 out of range" record boot --set utlb_entries=8 --set utlb_pinned=7 -o x.bin)
sim_cli_test(record_help_utlb 0 "~utlb_entries, utlb_pinned: the UTLB's slots" record --help)
# the kernel's what-if policies recorded (docs/cpu440.md): MMIO in the
# kernel (cpu440 and the model), no iccci (the model's: needs --model)
sim_cli_test(record_mmio_kernel 0 "~# kernel: MMIO served by in-kernel devices, light exits" record boot --mmio kernel --exits 3000 -o recmk.bin)
sim_cli_test(record_mmio_bad 2 "~--mmio: expected qemu or kernel, got 'fast'" record boot --mmio fast -o x.bin)
sim_cli_test(record_iccci_needs_model 2 "~--iccci off: the I-cache and its invalidate are the cycle model's .add --model." record boot --iccci off -o x.bin)
sim_cli_test(record_iccci_off 0 "~no I-cache invalidate on guest entry .--iccci off." record boot --model --iccci off --exits 3000 -o recni.bin)
add_test(NAME cli_record_policies_priced
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/record_policies.sh $<TARGET_FILE:sim>
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_record_policies_priced PROPERTIES TIMEOUT 300)
