# CLI tests of `sim measurable` (tools/cli_measurable.c, model/measurable.c).
# The seed's ARM64 MAIR runs: the whole report pinned (prediction, standard
# error, smallest detectable change, Welch test, verdict).
add_test(NAME cli_measurable_arm64_mair
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli_check.sh 0 measurable_arm64_mair.txt
          $<TARGET_FILE:sim> measurable
          ${CMAKE_SOURCE_DIR}/validation/hw/arm64-mair-kernel-compile.txt --vcpus 8
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_measurable_arm64_mair PROPERTIES TIMEOUT 60
  ENVIRONMENT "SIM_GOLDEN=${CMAKE_SOURCE_DIR}/tests/golden")
# The validation case: prediction and measurement agree on the verdict.
sim_cli_test(validate_arm64_mair 0 "~verdict arm64-mair: PASS +agree: predicted \\+0\\.170 s at most, not visible. measured -1\\.353 s, p = 0\\.50"
  validate arm64-mair --cases ${CMAKE_SOURCE_DIR}/validation/cases)
sim_cli_test(validate_arm64_mair_json 0 "~\"smallest_detectable_s\": 7\\.01"
  validate arm64-mair --cases ${CMAKE_SOURCE_DIR}/validation/cases --format json)
sim_cli_test(measurable_check_disagrees 1 "~DISAGREE"
  measurable @measurable/visible.txt --cost-ns 1:2 --check)
sim_cli_test(measurable_visible 0 "~verdict +agree: the change is visible"
  measurable @measurable/visible.txt)
sim_cli_test(measurable_bad_time 2 "~bad_time.txt:2: 'x:06' is not a wall time"
  measurable @measurable/bad_time.txt)
sim_cli_test(measurable_unknown_kernel 2 "~has no kernel 'pv'"
  measurable @measurable/visible.txt --changed pv)
sim_cli_test(measurable_bad_cost 2 "~--cost-ns: expected 0 < LO <= HI"
  measurable @measurable/visible.txt --cost-ns 5:1)
# Absurd values are refused (they printed 300-digit predictions or aborted
# inside GSL), and runs without spread too (NaN degrees of freedom).
sim_cli_test(measurable_absurd_traps 2 "~--traps: expected a whole count from 0 to 1e\\+15, not '1e300'"
  measurable @measurable/visible.txt --traps 1e300)
sim_cli_test(measurable_absurd_wall 2 "~huge_wall.txt:3: wall time '1e308' is above"
  measurable @measurable/huge_wall.txt --traps 5)
sim_cli_test(measurable_no_spread 2 "~the runs of base and new do not vary"
  measurable @measurable/no_spread.txt)
sim_cli_test(measurable_dup_kernel 2 "~dup_kernel.txt:4: kernel 'base' already has its wall times \\(line 2\\)"
  measurable @measurable/dup_kernel.txt)
sim_cli_test(measurable_dup_traps 2 "~dup_traps.txt:6: kernel 'slow' already has a trap count \\(line 5\\)"
  measurable @measurable/dup_traps.txt)
# --traps is a whole count: 10.5 was used as 10.5 and printed as 10
sim_cli_test(measurable_traps_fraction 2
  "~--traps: expected a whole count from 0 to 1e\\+15, not '10.5'"
  measurable @measurable/visible.txt --traps 10.5)
# a directory is named as unreadable (it said "needs two kernels")
sim_cli_test(measurable_directory 2 "~measurable: .*: read failed: Is a directory"
  measurable @measurable)
# Audit: traps = -5 in a case was read as "not given" (the counts'
# difference) where sim measurable --traps -5 is refused
sim_cli_test(validate_measurable_negative_traps 2
  "~measneg.case:6: traps = -5: expected a whole count from 0 to 1e\\+15"
  validate measneg --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
