# CLI tests of `sim whatif` (tools/cli_whatif.c, model/whatif.c, model/xf_*)
# and `sim validate` (tools/cli_validate.c, tools/validate_*.c).

sim_cli_test(whatif_help 0 "~usage: sim whatif TRACE" whatif --help)
sim_cli_test(whatif_list 0 "~pv:template-bytes=N" whatif --list)
sim_cli_test(whatif_unknown_transform 2
  "~unknown transform 'pvv' \\(did you mean 'pv'\\?\\) \\(valid: pv, no-iccci"
  whatif @cost_mix.bin --transform pvv)
# one error prefix (issue 10), not "sim whatif: whatif: ..."
sim_cli_test(whatif_unknown_transform_one_prefix 2
  "~^sim whatif: unknown transform 'pvv'"
  whatif @cost_mix.bin --transform pvv)
sim_cli_test(whatif_bad_option 2 "~unknown pv option 'bytes' \\(valid: template-bytes"
  whatif @cost_mix.bin --transform pv:bytes=3)
sim_cli_test(whatif_bad_value 2 "~tlb-slots=4: expected N"
  whatif @cost_mix.bin --transform tlb-slots=4)
sim_cli_test(whatif_twice 2 "~transform 'pv' given twice"
  whatif @cost_mix.bin --transform pv,pv)
sim_cli_test(whatif_no_transform 2 "~--transform is required"
  whatif @cost_mix.bin)
sim_cli_test(whatif_truncated 2 "~trace_truncated.bin: truncated at byte 300"
  whatif @trace_truncated.bin --transform pv)
sim_cli_test(whatif_csv_header 0 "~^type,count,min,max,sum,avg,stddev,time_percent"
  whatif @cost_mix.bin --transform pv --format csv)

sim_cli_test(validate_help 0 "~usage: sim validate" validate --help)
sim_cli_test(validate_list 0 "~ppc440-pv"
  validate --list --cases ${CMAKE_SOURCE_DIR}/validation/cases)
# run outside the checkout (testtmp has no validation/): the source tree's cases
sim_cli_test(validate_cases_from_anywhere 0 "~verdict arm64-mair: PASS"
  validate arm64-mair)
sim_cli_test(validate_unknown_case 2 "~no case 'nope'"
  validate nope --cases ${CMAKE_SOURCE_DIR}/validation/cases)
sim_cli_test(validate_bad_case 2 "~bad.case:3: expected 'key = value'"
  validate bad --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
sim_cli_test(validate_seeds_need_a_recording 2
  "~seedstable.case: seeds = 4 needs measured.record"
  validate seedstable --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
sim_cli_test(validate_set_needs_both_recordings 2
  "~setsynth.case: set = preempt_prob=0 needs baseline = record and measured.record"
  validate setsynth --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
sim_cli_test(validate_bad_number 2 "~badnum.case:5: budget.total = 'five': expected a number"
  validate badnum --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)

add_test(NAME cli_validate_measured_not_read
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/validate_separation.sh $<TARGET_FILE:sim>
          ${CMAKE_SOURCE_DIR}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_validate_measured_not_read PROPERTIES TIMEOUT 300)
