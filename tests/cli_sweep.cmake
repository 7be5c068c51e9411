# CLI tests of `sim sweep` (tools/cli_sweep.c, model/sweep.c).
foreach(c replay linear formats interrupt sens transform plot)
  add_test(NAME cli_sweep_${c}
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/sweep_check.sh $<TARGET_FILE:sim>
            ${CMAKE_BINARY_DIR}/testtmp/sweep_${c} ${c})
  set_tests_properties(cli_sweep_${c} PROPERTIES TIMEOUT 120)
endforeach()
if(SIM_HAVE_MPI AND MPIEXEC_EXECUTABLE)
  add_test(NAME cli_sweep_mpi
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/sweep_check.sh $<TARGET_FILE:sim>
            ${CMAKE_BINARY_DIR}/testtmp/sweep_mpi mpi)
  set_tests_properties(cli_sweep_mpi PROPERTIES TIMEOUT 120
    # OpenMPI itself leaks at exit (its plugins, MPI_Init): LeakSanitizer is
    # off for this one; the same sweep code runs leak-checked in the others
    ENVIRONMENT "SWEEP_MPIRUN=${MPIEXEC_EXECUTABLE};ASAN_OPTIONS=detect_leaks=0")
endif()
# Bad input: exit 2 with the reason.
sim_cli_test(sweep_unknown_param 2 "~unknown parameter 'emul_spr_gen' \\(did you mean 'emul_spr_gen_insns'"
  sweep @synth500.bin --param emul_spr_gen=1:2:1 -o x.csv)
sim_cli_test(sweep_lo_above_hi 2 "~LO 20 > HI 10"
  sweep @synth500.bin --param decode_insns=20:10:1 -o x.csv)
sim_cli_test(sweep_step_zero 2 "~STEP must be > 0"
  sweep @synth500.bin --param decode_insns=10:20:0 -o x.csv)
sim_cli_test(sweep_out_of_range 2 "~cpi = 100 is outside its range 0.3 .. 20"
  sweep @synth500.bin --param cpi=1,100 -o x.csv)
sim_cli_test(sweep_too_many_points 2 "~40401 points, more than 10000 .*--yes"
  sweep @synth500.bin --param decode_insns=0:200:1 --param tlbmiss_insns=0:200:1 -o x.csv)
sim_cli_test(sweep_max_points 2 "~11 points, more than 10"
  sweep @synth500.bin --param decode_insns=0:10:1 --max-points 10 -o x.csv)
sim_cli_test(sweep_no_output 2 "~missing -o OUT"
  sweep @synth500.bin --param decode_insns=0:10:1)
sim_cli_test(sweep_bad_trace 2 "~trace_truncated.bin"
  sweep @trace_truncated.bin --param decode_insns=0:10:5 -o x.csv)
# sim sensitivity
sim_cli_test(sensitivity_ranks 0 "~ 1\\. [0-9]+% (cheaper|lower) .*(saves|costs) [0-9.]+% of the run"
  sensitivity @cost_mix.bin --threads 1)
# The ranking's words: a long description cut at a comma, not inside a
# word; a parameter at its minimum ranked and told by its higher probe.
sim_cli_test(sensitivity_words_whole 0 "~ cheaper C: kvmppc_handle_exit switch, local_irq_enable/disable \\(dispatch_insns 250 -> 225 insns\\)"
  sensitivity @cost_mix.bin --threads 1 --top 0)
sim_cli_test(sensitivity_at_minimum 0 "~ 100% higher UTLB slots pinned for host lowmem \\(utlb_pinned 1 -> 2 entries\\): (saves|costs)"
  sensitivity @cost_mix.bin --threads 1 --top 0)
sim_cli_test(sensitivity_target_no_unit_1 0 "~host_irq_sigma +1 -> [0-9.]+ \\(\\+[0-9.]+%\\): run \\+"
  sensitivity @cost_mix.bin --threads 1 --target +10% --top 2)
sim_cli_test(sensitivity_help_exit_codes 0 "~130 interrupted" sensitivity --help)
sim_cli_test(sensitivity_bad_target 2 "~--target: expected a run change like -10%"
  sensitivity @cost_mix.bin --target lots)
sim_cli_test(sensitivity_bad_param_file 2 "~bad_key.ini:3: unknown parameter"
  sensitivity @cost_mix.bin --params @params/bad_key.ini)
sim_cli_test(sensitivity_bad_transform 2 "~unknown transform 'pvx'"
  sensitivity @cost_mix.bin --transform pvx)
sim_cli_test(sweep_pow2 2 "~cache_line_bytes = 48 bytes: must be a power of two"
  sweep @synth500.bin --param cache_line_bytes=16,48 -o x.csv)
sim_cli_test(sweep_whole_lines 2 "~point 2: .*icache_bytes = 9000 bytes is not a whole number of cache lines"
  sweep @synth500.bin --param icache_bytes=8192,9000 -o x.csv)
# model/sweep.c predicts through the what-if engine (--transform), which can
# price with the SystemC platform: the unit suite links it like sim does.
if(TARGET test_sweep AND TARGET simplatform)
  target_link_libraries(test_sweep PRIVATE simplatform)
endif()
if(TARGET test_sensitivity AND TARGET simplatform)
  target_link_libraries(test_sensitivity PRIVATE simplatform)
endif()
# a discrete effect is not worded as a saving (tests/sensitivity_monotone.sh)
add_test(NAME cli_sensitivity_not_monotone
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/sensitivity_monotone.sh $<TARGET_FILE:sim>)
set_tests_properties(cli_sensitivity_not_monotone PROPERTIES TIMEOUT 300)
# a --set of a swept parameter was overridden at every point without a word
sim_cli_test(sweep_set_of_swept_param 2
  "~--set cpi=3: cpi is swept \\(--param cpi=1,2\\)"
  sweep @synth500.bin --param cpi=1,2 --set cpi=3 -o sweep_set.csv)
# sensitivity -o -: stdout is the CSV alone (the report came first)
add_test(NAME cli_sensitivity_csv_on_stdout
  COMMAND sh -c "\"$1\" sensitivity \"$2\" --top 1 -o - 2>/dev/null | head -1 | grep -q '^param,linear,value,'"
          sh $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/synth500.bin
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_sensitivity_csv_on_stdout PROPERTIES TIMEOUT 120)
# the count of swept parameters in the refusal is theirs (it said 0: read
# after the plan was freed)
sim_cli_test(sweep_plot_three_params_counted 2
  "~--plot: 3 swept parameters"
  sweep @synth500.bin --param cpi=1,2 --param dispatch_insns=100,200
        --param icache_miss_cycles=40,50 -o sweep3.csv --plot sweep3.png)
# sweep and sensitivity check their outputs, parameters and transform before
# any work, in one order (cli_sweep_check_run): the first problem is named
foreach(c sweep sensitivity)
  if(c STREQUAL "sweep")
    set(run sweep @synth500.bin --param cpi=1,2)
  else()
    set(run sensitivity @synth500.bin)
  endif()
  sim_cli_test(${c}_checks_output_first 2 "~synth500.bin: is also the input"
    ${run} -o @synth500.bin --params @params/bad_key.ini --transform pvx)
  sim_cli_test(${c}_checks_plot_name_second 2
    "~plot: chk.pdf: expected a .png or .svg name"
    ${run} -o chk.csv --plot chk.pdf --params @params/bad_key.ini)
  sim_cli_test(${c}_checks_params_third 2 "~bad_key.ini:3: unknown parameter"
    ${run} -o chk.csv --params @params/bad_key.ini --transform pvx)
  sim_cli_test(${c}_checks_transform_last 2 "~unknown transform 'pvx'"
    ${run} -o chk.csv --transform pvx)
endforeach()
# The tornado's bars are each parameter's probes: one whose probe is not
# the nominal step (timing_divides 2 -> 1 | 3 is 50%, utlb_pinned at its
# minimum 1 -> 2) names its values on the bar; the legend said "10% lower"
# for all of them
add_test(NAME cli_sensitivity_plot_names_other_steps
  COMMAND sh -c "rm -f sensstep.svg && \"$0\" sensitivity \"$1\" --threads 1 --top 0 --plot sensstep.svg > /dev/null && grep -q 'timing_divides (1 / 2 / 3)' sensstep.svg && grep -q 'each parameter 10% lower / higher (or as named)' sensstep.svg && ! grep -q '10% lower<' sensstep.svg && grep -q '>cpi<' sensstep.svg"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/cost_mix.bin
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_sensitivity_plot_names_other_steps PROPERTIES TIMEOUT 60)
# Audit: -o x.JSON wrote CSV under a name that says JSON (the extension was
# matched case-sensitively)
add_test(NAME cli_sweep_sens_upper_json_ext
  COMMAND sh -c "\"$0\" sweep \"$1\" --param cpi=1,2 -o up_sw.JSON 2>/dev/null && head -c 1 up_sw.JSON | grep -q '{' && \"$0\" sensitivity \"$1\" --top 1 -o up_se.JSON >/dev/null 2>&1 && head -c 1 up_se.JSON | grep -q '{'"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/synth500.bin
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_sweep_sens_upper_json_ext PROPERTIES TIMEOUT 120)
# Audit: --target on a run that no parameter moves printed its heading and
# nothing under it
add_test(NAME cli_sensitivity_target_nothing_moves
  COMMAND sh -c "\"$0\" trace pack \"$1\" -o empty_sens.bin && \"$0\" sensitivity empty_sens.bin --target -10% | grep -A1 '^To change the run by -10%' | grep -q '^  none: no parameter moves this run$'"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/trace_empty.txt
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_sensitivity_target_nothing_moves PROPERTIES TIMEOUT 60)
