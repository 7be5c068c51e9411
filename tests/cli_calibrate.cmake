# CLI tests of `sim calibrate` (tools/cli_calibrate.c, model/calib.c): bad
# inputs each with a clear message and exit code 2 (nothing written), a fit
# stopped before convergence exits 1 and labels the best point, the same
# inputs give the same bytes.
set(NOPV ${CMAKE_SOURCE_DIR}/validation/hw/ppc440-ubuntu-boot-nopv.txt)
sim_cli_test(calibrate_help 0 "~usage: sim calibrate --trace T --table HW" calibrate --help)
sim_cli_test(calibrate_needs_args 2 "~--trace, --table and -o are required"
  calibrate --trace @synth500.bin)
sim_cli_test(calibrate_unknown_fit 2
  "~--fit: unknown parameter 'icache_mis' \\(did you mean 'icache_miss_cycles'"
  calibrate --trace @synth500.bin --table ${NOPV} --fit icache_mis -o cal_x.ini)
sim_cli_test(calibrate_unknown_fix 2
  "~--fix: unknown parameter 'cpu' \\(did you mean 'cpi'"
  calibrate --trace @synth500.bin --table ${NOPV} --fix cpu -o cal_x.ini)
sim_cli_test(calibrate_range_excludes_default 2
  "~cpi: range \\[2, 3\\] excludes its start value 1.2"
  calibrate --trace @synth500.bin --table ${NOPV} --fit cpi --range cpi=2:3 -o cal_x.ini)
sim_cli_test(calibrate_no_row_in_common 2 "~no exit row in common"
  calibrate --trace @synth500.bin --table @calib_hcall_table.txt -o cal_x.ini)
sim_cli_test(calibrate_missing_trace 2 "~no-such.bin"
  calibrate --trace no-such.bin --table ${NOPV} -o cal_x.ini)
sim_cli_test(calibrate_bad_table 2 "~table_malformed.txt:"
  calibrate --trace @synth500.bin --table @table_malformed.txt -o cal_x.ini)
sim_cli_test(calibrate_output_dir_missing 2 "~no-such-dir"
  calibrate --trace @synth500.bin --table ${NOPV} --fit cpi -o no-such-dir/p.ini)
add_test(NAME cli_calibrate_trace_without_exits
  COMMAND sh -c "\"$0\" trace pack \"$1\" -o cal_noexit.bin && ! \"$0\" calibrate --trace cal_noexit.bin --table \"$2\" -o cal_ne.ini 2>err.txt; rc=$?; grep -q 'the trace has no exits' err.txt && test ! -e cal_ne.ini"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/calib_noexit.txt ${NOPV}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# One iteration cannot converge: exit 1, params.ini written and labelled.
add_test(NAME cli_calibrate_not_converged
  COMMAND sh -c "rm -f cal_nc.ini; \"$0\" calibrate --trace \"$1\" --table \"$2\" --fit cpi,icache_miss_cycles,qemu_mmio_usec --max-iter 1 -o cal_nc.ini >out.txt; rc=$?; test $rc = 1 && grep -q 'NOT CONVERGED' cal_nc.ini && grep -q 'NOT CONVERGED' out.txt && grep -q '^icache_miss_cycles = ' cal_nc.ini"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/synth500.bin ${NOPV}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# Same inputs, same bytes (the fit with 1 and 2 threads).
add_test(NAME cli_calibrate_same_bytes
  COMMAND sh -c "\"$0\" calibrate --trace \"$1\" --table \"$2\" --fit cpi,qemu_mmio_usec,guest_cpi --threads 1 -o cal_a.ini >a.txt && \"$0\" calibrate --trace \"$1\" --table \"$2\" --fit cpi,qemu_mmio_usec,guest_cpi --threads 2 -o cal_b.ini >b.txt && cmp cal_a.ini cal_b.ini && sed 1d a.txt | sed '$d' >a2.txt && sed 1d b.txt | sed '$d' >b2.txt && cmp a2.txt b2.txt && grep -q 'guest_cpi .*held: no effect' a.txt && \"$0\" replay \"$1\" --model --params cal_a.ini --format csv >/dev/null"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/synth500.bin ${NOPV}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_calibrate_trace_without_exits cli_calibrate_not_converged
  cli_calibrate_same_bytes PROPERTIES TIMEOUT 120)
# Every candidate (a long list of held ones): params.ini still reads back
# (the INI reader takes lines of at most 200 characters).
add_test(NAME cli_calibrate_ini_reads_back
  COMMAND sh -c "\"$0\" calibrate --trace \"$1\" --table \"$2\" --max-iter 2 -o cal_all.ini >/dev/null; rc=$?; test $rc = 0 -o $rc = 1 && grep -q '^; held at their start values' cal_all.ini && \"$0\" params show --params cal_all.ini | grep -q ' file '"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/synth500.bin ${NOPV}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_calibrate_ini_reads_back PROPERTIES TIMEOUT 120)
# The chain on ftrace text of a no-PV run and its table: import ->
# calibrate -> replay --params (csv) reproduces the table.
add_test(NAME cli_calibrate_chain_ftrace
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/calibrate_chain.sh $<TARGET_FILE:sim>
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_calibrate_chain_ftrace PROPERTIES TIMEOUT 300)
# The microbench prices traps with the model at given parameters (issue 11):
# a dearer cpi makes one mtspr exit dearer (host interrupts off: a short
# run's few host-work draws, which land where they will, would decide the
# comparison); a params file is named.
add_test(NAME cli_microbench_params
  COMMAND sh -c "a=$(\"$0\" microbench --trap mtspr-sprg0 --set cpi=1 --set host_irq_hz=0 --set host_tick_hz=0 | awk '/^mtspr-sprg0/ {print $2}') && b=$(\"$0\" microbench --trap mtspr-sprg0 --set cpi=3 --set host_irq_hz=0 --set host_tick_hz=0 | awk '/^mtspr-sprg0/ {print $2}') && test -n \"$a\" && test \"$b\" -gt \"$a\" && printf 'cpi = 2\\n' >mb.ini && \"$0\" microbench --trap mtspr-sprg0 --params mb.ini | grep -q 'priced by the cycle model (parameters mb.ini)' && ! \"$0\" microbench --params no-such.ini 2>/dev/null"
    $<TARGET_FILE:sim>
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_microbench_params PROPERTIES TIMEOUT 120)
# A subsample smaller than the trace: 64 blocks, and the whole trace checked
# at the result; a subsample below the block count still works.
sim_cli_test(calibrate_subsample 0 "~subsample bias"
  calibrate --trace @synth500.bin --table ${NOPV} --fit cpi,qemu_mmio_usec --subsample 200 -o cal_sub.ini)
sim_cli_test(calibrate_subsample_tiny 0 "~refined: the subsample stage \\(64 exits per replay\\)"
  calibrate --trace @synth500.bin --table ${NOPV} --fit cpi,qemu_mmio_usec --subsample 10 -o cal_sub2.ini)
# After the subsample the fit goes on on the whole trace; --refine-iter 0
# keeps the subsample's result and checks it on the whole trace.
sim_cli_test(calibrate_refined_on_whole_trace 0 "~# fit: 500 of the trace's 500 exits per replay;"
  calibrate --trace @synth500.bin --table ${NOPV} --fit cpi,qemu_mmio_usec --subsample 100 -o cal_sub3.ini)
sim_cli_test(calibrate_refine_off 0 "~the whole trace at the fitted point .*subsample bias"
  calibrate --trace @synth500.bin --table ${NOPV} --fit cpi,qemu_mmio_usec --subsample 100 --refine-iter 0 -o cal_sub4.ini)
sim_cli_test(calibrate_refine_iter_bad 2 "~--refine-iter 'x'"
  calibrate --trace @synth500.bin --table ${NOPV} --refine-iter x -o cal_sub5.ini)
# Counts agree everywhere: calibrate's exit mix = replay's table counts.
add_test(NAME cli_calibrate_mix_counts_as_replay
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/calib_mix_counts.sh $<TARGET_FILE:sim> ${NOPV})
set_tests_properties(cli_calibrate_mix_counts_as_replay PROPERTIES TIMEOUT 120)
# a second --range of a parameter replaced the first; a range of a
# parameter that is not fitted did nothing, silently
sim_cli_test(calibrate_range_twice 2
  "~--range cpi=1.5:3: cpi has a range already"
  calibrate --trace @synth500.bin --table ${NOPV} --fit cpi --range cpi=1:2
            --range cpi=1.5:3 -o cal_x.ini)
sim_cli_test(calibrate_range_not_fitted 2
  "~--range dispatch_insns: dispatch_insns is not fitted"
  calibrate --trace @synth500.bin --table ${NOPV} --fit cpi
            --range dispatch_insns=100:300 -o cal_x.ini)
# nothing determined: the residual variance is n/a, not a bare 'nan'
sim_cli_test(calibrate_nothing_fitted_resvar 0
  "~residual variance n/a \\(nothing fitted\\)"
  calibrate --trace @synth500.bin --table ${NOPV} --fit guest_sigma --max-iter 1
            -o cal_nothing.ini)
# core_hz is the trace's clock: fitting it only moved a value the model
# ignored (the header's clock wins)
sim_cli_test(calibrate_core_hz_not_fitted 2
  "~--fit: core_hz is the trace's own clock"
  calibrate --trace @synth500.bin --table ${NOPV} --fit core_hz -o cal_hz.ini)
# params.ini on stdout (-o -) is an INI file: the report goes to stderr
# (its per-row lines went to stdout too, and the reader refused them)
add_test(NAME cli_calibrate_ini_on_stdout
  COMMAND sh -c "\"$1\" calibrate --trace \"$2/synth500.bin\" --table \"$3\" --fit cpi --max-iter 2 -o - 2>/dev/null >cal_stdout.ini; [ $? -le 1 ] && \"$1\" params show --params cal_stdout.ini | grep -q '^cpi .* file cal_stdout.ini'"
          sh $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data ${NOPV}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_calibrate_ini_on_stdout PROPERTIES TIMEOUT 120)
# a perf table has neither a traced duration nor guest time: the totals
# compare handled time with handled time (the fitted total counted the
# model's TIMEINGUEST and was printed as the traced duration)
sim_cli_test(calibrate_perf_table_handled_time 1
  "~# handled time \\(the table has no guest time. TIMEINGUEST left out of both\\): table 191384179 usec"
  calibrate --trace @synth500.bin --table @../golden/table_nopv.perf.txt
            --fit cpi --max-iter 1 -o cal_perf.ini)
# The start's own values that were not fitted (--params cpi = 2, --set
# host_tick_hz=250) are in params.ini: the fit was made with them, and a
# replay of the file alone took the defaults (cpi 1.5, 1068 ticks/s).
add_test(NAME cli_calibrate_ini_keeps_held_start
  COMMAND sh -c "printf 'cpi = 2\\n' > cal_start.ini && \"$0\" calibrate --trace \"$1\" --table \"$2\" --params cal_start.ini --set host_tick_hz=250 --fit icache_miss_cycles --max-iter 2 -o cal_held.ini >/dev/null; rc=$?; test $rc = 0 -o $rc = 1 && \"$0\" params show --params cal_held.ini > cal_held.txt && grep -Eq '^cpi +2 cycles/insn +file' cal_held.txt && grep -Eq '^host_tick_hz +250 .* file' cal_held.txt"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/synth500.bin ${NOPV}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_calibrate_ini_keeps_held_start PROPERTIES TIMEOUT 120)

# a trace far smaller than its table: the report says the fit is rough
sim_cli_test(calibrate_small_trace_note 0
  "~# note: the trace has 500 exits, the table 10000000: .*fit is rough"
  calibrate --trace @synth500.bin --table ${NOPV} -o cal_small.ini)
# Audit: a json table states its accounting (sim replay writes it); read
# in the other one every row was fitted off by the truncation, silently.
# A --tb-per-usec table is a 3.1+ kernel's: calibrate fitted it with
# 2.6.29's truncation unless --accounting 3.1 was given too.
sim_cli_test(calibrate_json_accounting_contradicted 2
  "~table_acct31.json states accounting 3\\.1, --accounting 2\\.6\\.29 contradicts it"
  calibrate --trace @cost_mix.bin --table @table_acct31.json --accounting 2.6.29 -o acct.ini)
sim_cli_test(calibrate_tb_per_usec_vs_2629 2
  "~--accounting 2\\.6\\.29 and --tb-per-usec contradict each other"
  calibrate --trace @cost_mix.bin --table @table_debugfs31_few.txt --tb-per-usec 667 --accounting 2.6.29 -o acct.ini)
# a row whose table stddev is 0 (one exit, or exits of one duration: MMIO,
# ITLBREAL here) has no relative stddev error: the report printed "nan%",
# it prints "-"
sim_cli_test(calibrate_sd0_row_no_nan 0
  "~^  ITLBREAL +3 +[0-9.]+ +13\\.0000 +[0-9.]+ +[-0-9.]+% +0\\.000 +[0-9.]+ +- "
  calibrate --trace @synth500.bin --table @table_synth500_sd0.txt --fit cpi
            -o cal_sd0.ini)
# a table's HALT row (no 44x kernel charges it: the model prices those
# exits as a bare exit) left the fit's -99% on the row unexplained; the
# report says it in a line, as synth --like does
add_test(NAME cli_calibrate_halt_said
  COMMAND sh -c "\"$0\" trace synth --like \"$1\" --exits 2k -o calhalt.bin 2>/dev/null && \"$0\" calibrate --trace calhalt.bin --table \"$1\" --fit cpi -o calhalt.ini > calhalt.txt && grep -q '^# note: HALT: 1000 exits (avg 800 usec), a row the 44x kernels sim440 follows never charge' calhalt.txt"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/table_halt.txt
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# Whole-number parameters rounded over an edge of the model (a 400 MHz
# board's guest entry at a whole usec): their neighbours are searched, the
# fitted point is never worse than the start.
add_test(NAME cli_calibrate_round_search
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/calib_round_check.sh $<TARGET_FILE:sim>
          ${NOPV} ${CMAKE_SOURCE_DIR}/tests/data/params_400mhz_fitted.ini)
set_tests_properties(cli_calibrate_round_search PROPERTIES TIMEOUT 120)
# Identifiability again at the fitted point (a 533 MHz board's guest row
# stranded at +78% with the start's set alone). About 20 s in a release
# build; 130-270 s under ASan on the shared 2-core machine, hence 600.
add_test(NAME cli_calibrate_second_round
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/calib_second_round.sh $<TARGET_FILE:sim> ${NOPV})
set_tests_properties(cli_calibrate_second_round PROPERTIES TIMEOUT 600)
# Audit: a trace with a 150-byte name made params.ini's "; trace:" line
# longer than its reader takes (198): calibrate wrote a file that --params
# refused (it named the wrong line, too); the names are cut to 100 bytes
add_test(NAME cli_calibrate_long_trace_name_readable
  COMMAND sh -c "n=$(printf 'n%.0s' $(seq 150)).bin; cp \"$1\" $n && \"$0\" calibrate --trace $n --table \"$2\" --fit cpi --max-iter 1 -o cal_long.ini >/dev/null; rc=$?; rm -f $n; test $rc -le 1 && grep -q '^. trace: n*[.][.][.] sha256 ' cal_long.ini && \"$0\" params show --params cal_long.ini >/dev/null"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/synth500.bin ${NOPV}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_calibrate_long_trace_name_readable PROPERTIES TIMEOUT 120)
# A board clock the table was not measured at: the seed's 667 MHz no-PV
# table read as a 400 MHz board's fits with cpi 0.48, below the 440's
# dual-issue floor, and the parameters file (whose "; WARNING:" lines
# sim validate repeats as notes) says so, naming the clock; at the table's
# own clock the fit's cpi is a 440's and nothing is said.
add_test(NAME cli_calibrate_cpi_floor_warned
  COMMAND sh -c "printf 'core_hz = 400000000\\n' >cal_400.ini && \"$0\" trace synth --like \"$1\" --exits 100k --seed 1 --tb-hz 400000000 -o cal_400.bin 2>/dev/null && \"$0\" calibrate --trace cal_400.bin --table \"$1\" --params cal_400.ini -o cal_400f.ini >/dev/null && grep -q '^; WARNING: fitted cpi 0\\.[0-4][0-9]* is below 0\\.5, .* the 400 MHz its table is read at (core_hz)' cal_400f.ini && \"$0\" trace synth --like \"$1\" --exits 100k --seed 1 -o cal_667.bin 2>/dev/null && \"$0\" calibrate --trace cal_667.bin --table \"$1\" -o cal_667f.ini >/dev/null && grep -q '^cpi = ' cal_667f.ini && ! grep -q 'dual-issue floor' cal_667f.ini"
    $<TARGET_FILE:sim> ${NOPV}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_calibrate_cpi_floor_warned PROPERTIES TIMEOUT 600)
