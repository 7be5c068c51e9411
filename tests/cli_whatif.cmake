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
# a case file given by its path (a user's own board): named after the file,
# its relative table paths resolved from its directory
sim_cli_test(validate_case_by_path 0 "~verdict arm64-mair: PASS"
  validate ${CMAKE_SOURCE_DIR}/validation/cases/arm64-mair.case)
# two cases of one name (another directory's file of that name): their
# plots and report entries would be one; refused before any runs
sim_cli_test(validate_two_cases_one_name 2 "~two cases named 'arm64-mair'"
  validate arm64-mair ${CMAKE_SOURCE_DIR}/validation/cases/arm64-mair.case)
sim_cli_test(validate_case_path_missing 2 "~no case '/nonexistent/board\\.case' \\(/nonexistent/board\\.case: No such file"
  validate /nonexistent/board.case)
sim_cli_test(validate_unknown_case 2 "~no case 'nope'"
  validate nope --cases ${CMAKE_SOURCE_DIR}/validation/cases)

add_test(NAME cli_validate_measured_not_read
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/validate_separation.sh $<TARGET_FILE:sim>
          ${CMAKE_SOURCE_DIR}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_validate_measured_not_read PROPERTIES TIMEOUT 300)

# Audit of issue 12: bad values refused with exit 2 (tlb-slots=-5 crashed:
# strtoul was skipped and its end pointer read as NULL).
sim_cli_test(whatif_tlb_slots_negative 2 "~tlb-slots=-5: expected N"
  whatif @cost_mix.bin --transform tlb-slots=-5)
sim_cli_test(whatif_tlb_slots_sign 2 "~tlb-slots=\\+12: expected N"
  whatif @cost_mix.bin --transform tlb-slots=+12)
sim_cli_test(whatif_pv_option_twice 2 "~pv:hcalls given twice"
  whatif @cost_mix.bin --transform pv:hcalls=1:hcalls=2)
sim_cli_test(whatif_pv_empty_option 2 "~pv: an empty option"
  whatif @cost_mix.bin --transform pv:template-bytes=65536:)
sim_cli_test(whatif_pv_sites_no_file 2 "~pv:sites=: expected FILE"
  whatif @cost_mix.bin --transform pv:template-bytes=65536:sites=)
sim_cli_test(whatif_pv_sites_empty 2 "~no template sites"
  whatif @cost_mix.bin --transform pv:template-bytes=65536:sites=/dev/null)
sim_cli_test(whatif_pv_sites_trailing 2
  "~whatif_sites_trailing.txt:2: expected '0xADDRESS KIND'"
  whatif @cost_mix.bin --transform pv:template-bytes=65536:sites=${CMAKE_SOURCE_DIR}/tests/data/whatif_sites_trailing.txt)
# a scaninsns line (the scan loop's instructions of a text page) for an
# address that is not a page: refused with its line
sim_cli_test(whatif_pv_sites_scaninsns_not_a_page 2
  "~whatif_sites_scaninsns.txt:3: expected '0xPAGE scaninsns N'"
  whatif @cost_mix.bin --transform pv:template-bytes=65536:sites=${CMAKE_SOURCE_DIR}/tests/data/whatif_sites_scaninsns.txt)
# the output names the transform with its options: what ran, not its family
sim_cli_test(whatif_header_names_options 0
  "~^# sim whatif cost_mix.bin --transform tlb-slots=48:"
  whatif @cost_mix.bin --transform tlb-slots:48)
sim_cli_test(whatif_json_names_options 0 "~\"transform\": \"pv:hcalls=2,tlb-slots=48\""
  whatif @cost_mix.bin --transform tlb-slots=48,pv:hcalls=2 --format json)
sim_cli_test(whatif_list_value_syntax 0 "~  tlb-slots=N  " whatif --list)
# an empty name between commas is a typo (it was accepted as nothing)
sim_cli_test(whatif_transform_trailing_comma 2 "~--transform 'pv,': an empty transform"
  whatif @cost_mix.bin --transform pv,)
sim_cli_test(whatif_transform_double_comma 2 "~an empty transform between commas"
  whatif @cost_mix.bin --transform pv,,no-iccci)
# --stages: both models' stages side by side; no-iccci takes exactly the
# iccci's own cycles (iccci_cycles 40) out of every resume path
sim_cli_test(whatif_stages_no_iccci_resume 0
  "~# MMIO +resume +124.0 +84.0 +-40.0 handler"
  whatif @cost_mix.bin --transform no-iccci --stages)
sim_cli_test(whatif_stages_soft_tlb 0
  "~# soft TLB, ref -> new: shadow maps [0-9]+ -> [0-9]+, host fills"
  whatif @cost_mix.bin --transform pv --stages)
sim_cli_test(whatif_stages_json 0
  "~^    \"untransformed\": \\{$"
  whatif @cost_mix.bin --transform pv --stages --format json)
sim_cli_test(whatif_stages_csv_refused 2
  "~--stages with --format csv: the stages follow a kvm or perf table"
  whatif @cost_mix.bin --transform pv --stages --format csv)

# sim validate
# --cases given relative to the working directory (as the default
# validation/cases is): the trace's link in the scratch directory pointed at
# itself ("Too many levels of symbolic links")
add_test(NAME cli_validate_relative_trace
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli_check.sh 0 "~verdict relfile: PASS"
          $<TARGET_FILE:sim> validate relfile --cases cases
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/data)
set_tests_properties(cli_validate_relative_trace PROPERTIES TIMEOUT 120
  ENVIRONMENT "${SIM_TEST_ENV}")
sim_cli_test(table_truncated 2 "~table_truncated.txt:17: the rows add up to"
  table show @table_truncated.txt)
# baseline.exits below the table's: the prediction is scaled to the table
sim_cli_test(validate_scaled_note 0
  "~prediction scaled x2000: the baseline trace has 5000 exits, its table 10000000"
  validate scaled --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
sim_cli_test(validate_scaled_to_table 0 "~EMULINST +6,423,699 +6,424,000"
  validate scaled --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# a board at 333 MHz (the case's params): the synthesised baseline runs at
# that clock (it ran at 667 MHz whatever the params said, which then
# changed nothing) and the calibration starts from the params
sim_cli_test(validate_params_board_clock 0 "~core and timebase at 333 MHz"
  validate clock --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# a recorded case's params reach both recordings, not only the prediction
# (with qemu_mmio_usec = 400 in the params alone the model on its own
# baseline was +498% off)
sim_cli_test(validate_record_params 0
  "~model on the baseline itself \\(untransformed prediction vs the baseline trace's own ticks\\): total [-+][0-9]\\.[0-9]%"
  validate recparams --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# --plot DIR that is a file: refused before any case runs
sim_cli_test(validate_plot_not_a_dir 2 "~--plot .*: not a directory"
  validate relfile --cases ${CMAKE_SOURCE_DIR}/tests/data/cases --plot @cost_mix.bin)
# a known option without its value is not an "unknown option"
sim_cli_test(whatif_option_needs_value 2 "~option '--set' needs a value"
  whatif @cost_mix.bin --transform pv --set)
sim_cli_test(validate_option_needs_value 2 "~option '--cases' needs a value"
  validate --cases)
# each of these case files is refused with exit code 2 and FILE:LINE
# (tests/data/cases/CASE.case; the regex is what follows "CASE.case:")
function(validate_refuses case regex)
  sim_cli_test(validate_refuses_${case} 2 "~${case}.case:${regex}"
    validate ${case} --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
endfunction()
validate_refuses(bad "3: expected 'key = value'")
validate_refuses(seedstable "8: seeds = 4 needs measured.record .host-noise seeds, both sides pooled. or baseline = synth-like")
validate_refuses(setsynth "7: set = preempt_prob=0 needs measured.record and baseline = record or baseline.table.record")
# the synthetic-truth keys (docs/validation.md): baseline.table.record is a
# synth-like baseline's table, one of the two; calibrate.table = baseline
# needs a baseline with a table; record.params needs a recording and a file
validate_refuses(tablerec_record "5: baseline.table.record needs baseline = synth-like")
validate_refuses(tablerec_both "5: baseline.table and baseline.table.record: give one")
validate_refuses(calbase_file "5: calibrate.table = baseline needs baseline = synth-like")
validate_refuses(recparams_none "7: record.params: the case records nothing")
# baseline.table.form: one of the tables' forms, of a recorded table
validate_refuses(tablefmt_bad "5: baseline.table.form = debugfss: expected kvm, debugfs, perf, csv or json")
validate_refuses(tablefmt_norec "5: baseline.table.form needs baseline.table.record")
validate_refuses(recparams_missing "7: record.params = no-such-board.ini: No such file")
validate_refuses(badnum "5: budget.total = 'five': expected a number")
validate_refuses(keytypo "7: unknown key 'budget.totl' \\(did you mean 'budget.total'\\?\\)")
validate_refuses(countrow "7: budget.counts: 'DTLBVRT' is not a row")
validate_refuses(negbudget "7: budget.rows = -15")
validate_refuses(badreq "3: requires = linux-imag")
validate_refuses(badxf "5: whatif: tlb-slots=-5: expected N")
validate_refuses(missmeas "6: measured.table = ../no-such-table.txt: No such file")
validate_refuses(seedwrap "8: seeds = 2, baseline.seed = 4294967295")
validate_refuses(badset "7: set: .*unknown parameter 'hots_irq_hz'")
validate_refuses(badxf2 "6: whatif: unknown transform 'pvv'")
validate_refuses(badacct "6: accounting = 3.0: expected 2.6.29")
# ticks summed: the predicted TIMEINGUEST keeps the usec fractions (85 with
# 2.6.29's truncation per sample)
sim_cli_test(validate_debugfs_31_tables 0 "~verdict dbg31: PASS"
  validate dbg31 --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
sim_cli_test(validate_accounting_31 0 "~TIMEINGUEST +2,600 +45 +-98.3% +2,864 +107 "
  validate acct31 --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
validate_refuses(foldrow "8: budget.counts: 'EMUL_MTMSR' is folded into EMULINST")
# a measured table cut at a line boundary: its own file and line
sim_cli_test(validate_truncated_measured 2
  "~table_truncated.txt:17: the rows add up to 54453 usec, but line 5 gives a traced duration of 55931"
  validate truncmeas --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# a directory without cases validates nothing: not exit 0
sim_cli_test(validate_no_cases 2 "~params: no \\*.case files"
  validate --cases ${CMAKE_SOURCE_DIR}/tests/data/params)
sim_cli_test(validate_counts_every_row 0 "~counts of HALT, EMULINST: 2 of 2 within"
  validate countall --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# --plot DIR/ wrote DIR/.png and DIR/.svg (hidden files): a base name only
sim_cli_test(whatif_plot_directory 2 "~--plot './': expected a base name"
  whatif @cost_mix.bin --transform pv --plot ./)

# The guest's tick exits (docs/whatif.md, wall-time rule): a bad --mix is a
# usage error; --mix none prints what the prediction printed before the
# rule (the default on a trace without a known profile differs from it by
# the one line that says the rule is off); a profile's rates drop exits.
sim_cli_test(whatif_mix_bad 2 "~--mix nosuch: neither a built-in profile"
  whatif @cost_mix.bin --transform pv --mix nosuch)
sim_cli_test(whatif_mix_rates 0
  "~guest tick exits \\(wall-time rule, rates of profile linux-boot. docs/whatif.md\\): the prediction ran [0-9.]+ s shorter on the guest ticks' clock. [1-9][0-9]* exits of the trace dropped \\(ITLBVIRT"
  whatif @cost_mix.bin --transform pv --mix linux-boot)
add_test(NAME cli_whatif_mix_none_is_the_rule_off
  COMMAND sh -c "\"$0\" whatif \"$1\" --transform pv --mix none > mixnone.txt && \"$0\" whatif \"$1\" --transform pv > mixdef.txt && grep -q '^# guest tick exits (wall-time rule): off, no profile is known' mixdef.txt && ! grep -q 'guest tick' mixnone.txt && grep -v '^# guest tick exits' mixdef.txt | cmp - mixnone.txt"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/cost_mix.bin
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_whatif_mix_none_is_the_rule_off PROPERTIES TIMEOUT 60)
# A tick period beyond 2^64 timebase ticks (wallhz 1e-300) is no cap, as
# wallhz 0 is (the conversion made it 0: every exit's host time was left
# off the ticks' clock, and the rule dropped a tenth of what it should).
add_test(NAME cli_whatif_mix_tiny_wallhz_is_no_cap
  COMMAND sh -c "sed 's/^wallhz .*/wallhz 0/' \"$2\" > hz0.prof && sed 's/^wallhz .*/wallhz 1e-300/' \"$2\" > hztiny.prof && \"$0\" whatif \"$1\" --transform pv --mix hz0.prof | sed 's/hz0.prof/P/' > hz0.txt && \"$0\" whatif \"$1\" --transform pv --mix hztiny.prof | sed 's/hztiny.prof/P/' > hztiny.txt && grep -q 'dropped (ITLBVIRT' hz0.txt && cmp hz0.txt hztiny.txt"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/cost_mix.bin
    ${CMAKE_SOURCE_DIR}/workloads/profiles/linux-boot.prof
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_whatif_mix_tiny_wallhz_is_no_cap PROPERTIES TIMEOUT 60)
# A directory given as the case is a read error naming it (fopen took it
# and the reader saw an empty case: "no 'kind'").
sim_cli_test(validate_case_is_directory 2 "~cases/': .*cases/: cannot be read \\(Is a directory\\)"
  validate ${CMAKE_SOURCE_DIR}/tests/data/cases/)
# sim record --model runs the core at its timebase clock: another core_hz
# is refused before the guest runs (it was accepted, ignored, and the
# trace's header said 667 MHz, so replay --model with the same --set then
# refused the trace).
sim_cli_test(record_model_core_hz_refused 2 "~core_hz = 533000000: cpu440 runs the core at its timebase clock, 667000000 Hz"
  record boot --model --set core_hz=533M --exits 100 -o core533.bin)
sim_cli_test(microbench_model_core_hz_refused 2 "~microbench: core_hz = 533000000: cpu440 runs the core at its timebase clock"
  microbench --set core_hz=533M --trap mfmsr)
# A case's mix file is relative to the case's directory (it was read from
# the current directory: "neither a built-in profile nor a readable file");
# the line counts the emulations with their EMUL_* subtypes.
sim_cli_test(validate_mix_relative_to_case 0
  "~guest tick exits: rates of profile .*/linux-boot.prof. .* exits dropped \\(of them ITLBVIRT [0-9]+, DTLBVIRT [0-9]+, EMULINST with its EMUL_\\* [1-9]"
  validate relmix --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# seeds > 1 with a scaled prediction: each seed's total error is of the
# scaled run, as the pooled one is (it was of the unscaled: ~-99% beside a
# pooled error of thousands of percent).
sim_cli_test(validate_seeds_scaled_per_seed 0
  "~one run against one run: total error \\+[0-9]{4,}\\.[0-9]% \\.\\. \\+[0-9]{4,}\\.[0-9]%"
  validate seedscaled --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# -o naming the --mix profile is refused before the run, and the profile is
# left as it was (the predicted table replaced it, exit 0).
add_test(NAME cli_whatif_output_is_mix
  COMMAND sh -c "cp \"$2\" mixout.prof && ! \"$0\" whatif \"$1\" --transform pv --mix mixout.prof -o mixout.prof 2> mixout.err && grep -q 'is also the input' mixout.err && cmp mixout.prof \"$2\""
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/cost_mix.bin
    ${CMAKE_SOURCE_DIR}/workloads/profiles/linux-boot.prof
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_whatif_output_is_mix PROPERTIES TIMEOUT 60)
# The removed exits' guest time (docs/whatif.md, "Run length"): the text
# report's line and the JSON object, with what the entries took.
sim_cli_test(whatif_guest_line 0
  "~^# guest time of the removed exits: their entries took 0.0000[1-9][0-9]* s with them \\([1-9][0-9]* cycles each: stub, tail, refills\\), their runs [0-9.]+ s and the patched code [0-9.]+ s went to the runs before. [0-9.]+% of the baseline's guest intervals are under 1 usec"
  whatif @cost_mix.bin --transform pv)
# The owed VIRT misses (docs/whatif.md, "Host TLB pressure"): the report's
# line with the exits' pcs' insertions and credits; the identity (null)
# owes, keeps, inserts and credits none.
sim_cli_test(whatif_owed_line 0
  "~^# VIRT misses owed .docs/whatif.md, .Host TLB pressure..: 0 of the trace's to a page the prediction's soft TLB lost and the baseline's holds. 0 re-derived misses kept against them, 0 owed at the end .not added.. at the exits' pcs 0 ITLBVIRT inserted .page lost by the prediction's, held by the baseline's., 0 credits .the other way round., 0 used against an insertion$"
  whatif @cost_mix.bin --transform null)
sim_cli_test(whatif_json_guest 0
  "~\"baseline_intervals_under_1_usec\": 1$"
  whatif @cost_mix.bin --transform pv --format json)
# The synthetic-truth form: the baseline's table is a cpu440 recording's in
# the seed's layout (one EMULINST row, no breakdown beneath it: synthesis
# then bounds the row's idle waits; the report says what it made of the
# guest run lengths), each seed calibrated on its own.
add_test(NAME cli_validate_table_record
  COMMAND sh -c "\"$0\" validate synthtruth --cases \"$1\" > truth.txt 2>&1 && grep -Eq 'baseline: the table.s EMULINST row \\([0-9]+ exits, .* holds at most' truth.txt && grep -Eq 'baseline: guest runs: the table books [0-9.]+ usec an interval' truth.txt && grep -q 'each seed is calibrated on its own recorded table' truth.txt && grep -q 'verdict synthtruth: PASS' truth.txt"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/cases
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# (24 s alone under ASan, 73 s in the full suite at load 10, and a 120 s
# timeout once the calibration's second identification ran too: 300)
set_tests_properties(cli_validate_table_record PROPERTIES TIMEOUT 300
  ENVIRONMENT "${SIM_TEST_ENV}")
# ... and as a 3.1+ kernel's debugfs timing file (baseline.table.form,
# accounting = 3.1): written in 3.0+'s rows with sum_squared in tick x usec,
# read back by synthesis and calibration with the board's timebase (without
# it the file contradicts itself and is refused); compared row by row
add_test(NAME cli_validate_table_record_debugfs31
  COMMAND sh -c "\"$0\" validate synthtruth31 --cases \"$1\" > truth31.txt 2>&1 && grep -q 'debugfs form, EMUL_\\* rows as 3.0+ counts them' truth31.txt && grep -q 'calibrated on the baseline' truth31.txt && grep -Eq '^EMUL_MFSPR +[1-9]' truth31.txt && grep -q 'verdict synthtruth31: PASS' truth31.txt"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/cases
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_validate_table_record_debugfs31 PROPERTIES TIMEOUT 120
  ENVIRONMENT "${SIM_TEST_ENV}")

# Audit (outside user's tables): a table without guest time (perf kvm
# stat: no TIMEINGUEST row, no traced duration) compared with one that has
# it. The totals were perf's handled time against the prediction's traced
# duration with its guest time (-0.5% on a run whose exits were -16.6%);
# now both sides' exit rows, labelled so. The calibration's note on a perf
# table read "total +nan%". (The predicted handled time is the
# calibration's: 3,501 usec before the second identification, 3,492 after.)
sim_cli_test(validate_perf_measured_handled 0
  "~handled usec +53,067 +[0-9,]+ +-9[0-9]\\.[0-9]% +\\(exit rows only"
  validate perfmeas --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
sim_cli_test(validate_perf_verdict_handled 0
  "~verdict perfmeas: PASS  handled time \\(no guest time in a table\\) -93\\.4%"
  validate perfmeas --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
sim_cli_test(validate_perf_calibration_note 0
  "~calibrated model on that table: handled time \\(the table has no guest time\\) \\+[0-9]+\\.[0-9]+%"
  validate perfmeas --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
sim_cli_test(table_diff_perf_handled 0
  "~handled usec +53,067 +53,067 +-0\\.0% +\\(exit rows only"
  table diff @table_emul_perf.txt @table_emul.txt)
sim_cli_test(table_diff_perf_handled_json 0 "~\"handled_only\": true"
  table diff @table_emul_perf.txt @table_emul.txt --format json)
# Audit: a long run's table (10 billion exits) made synth --like write a
# trace of all of them by default (319 GB: the disk filled first); the
# number must now be given
sim_cli_test(synth_like_huge_table 2
  "~table_huge.txt: 9960538000 exits: a trace of all of them would take over 319 GB. give --exits N"
  trace synth --like @table_huge.txt -o huge.bin)
validate_refuses(hugetable "7: .*table_huge.txt has 9960538000 exits: .* give baseline.exits")
# Audit: a case file with a UTF-8 byte order mark was "no 'kind'"
sim_cli_test(validate_case_bom 0 "~verdict bom: PASS"
  validate bom --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# Audit: calibrate.table that sim calibrate refuses ran the case on the
# default parameters ("calibration unavailable in this build")
validate_refuses(badcal " sim calibrate failed \\(exit 2\\): .*table_malformed.txt:7: expected a number for sum")
# Audit: SIGTERM (or Ctrl-C) in the middle of a case left its scratch
# directory (300 MB for a 10M-exit case) in TMPDIR
add_test(NAME cli_validate_interrupt
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/validate_interrupt.sh $<TARGET_FILE:sim>
          ${CMAKE_SOURCE_DIR}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_validate_interrupt PROPERTIES TIMEOUT 60)
sim_cli_test(validate_no_major_row 0
  "~verdict nomajor: PASS  total [-+][0-9.]+% \\(budget 1000%\\). no row holds >= 99% of the measured time: no row sum judged"
  validate nomajor --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# Audit: the kvm and perf outputs' delta follows the predicted table as
# comment lines: `whatif -o FILE` is a table the other commands read (the
# delta's lines were read as a broken table: table diff FILE measured
# failed at 'ref: untransformed')
sim_cli_test(whatif_delta_as_comments 0 "~^# EMULINST "
  whatif @cost_mix.bin --transform pv)
add_test(NAME cli_whatif_output_is_a_table
  COMMAND sh -c "\"$1\" whatif \"$2/cost_mix.bin\" --transform pv -o wk.txt && \"$1\" table show wk.txt && \"$1\" whatif \"$2/cost_mix.bin\" --transform pv --format perf -o wp.txt && \"$1\" table show wp.txt"
          sh $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_whatif_output_is_a_table PROPERTIES TIMEOUT 60)
# Audit: a 3.1+ debugfs table read at another clock than its own: its
# unused rows' min names its timebase, and the message the case's keys
# (the measured table, parsed before the first step, or the baseline's)
sim_cli_test(validate_dbg31_wrong_clock 2
  "~table_(no)?pv_debugfs_tb667.txt:15: HALT: unused, its min 6439231 is 0xFFFFFFFF as a 3\\.1\\+ file's of 667 ticks per usec .*not 12897799 as read with this --tb-per-usec \\(a validation case: its accounting and the params' core_hz\\)"
  validate dbg31clock --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# Audit: fold = 0 against a table in the seed's layout compared its
# EMULINST (every emulation) with the prediction's EMULINST alone (-99%)
validate_refuses(fold0seed "11: fold = 0, but the measured table has no EMUL_\\* row")
# Audit: synthesis and prediction values checked with the case's line
# before the first step
validate_refuses(badexits "7: baseline.exits = ten thousand: expected a number of exits")
validate_refuses(badmix "9: --mix .*no-such-profile: neither a built-in profile")
# seeds = N against a measured table, synthesised baseline: N draws, their
# predictions averaged; each draw is what seeds = 1 with its baseline.seed
# predicts, and the averaged total error is the draws' mean
# (tests/validate_draws.sh).
add_test(NAME cli_validate_draws_averaged
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/validate_draws.sh $<TARGET_FILE:sim>
          ${CMAKE_SOURCE_DIR}/tests/data/cases)
set_tests_properties(cli_validate_draws_averaged PROPERTIES TIMEOUT 300)
# a synthesised baseline against a measured table with seeds = 1 says it
# is one draw, and how to get more
sim_cli_test(validate_one_draw_note 0
  "~one draw of the synthesised baseline, seed 1 \\(seeds = N averages N draws"
  validate scaled --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# Audit: under --accounting 3.1 the guest-time line said "2.6.29
# accounting books them as 0" of the sub-usec intervals, which 3.1 sums
sim_cli_test(whatif_guest_line_accounting_31 0
  "~under 1 usec \\(3\\.1 accounting sums their ticks: booked in full"
  whatif @cost_mix.bin --transform pv --accounting 3.1)
# param_draws = N (docs/validation.md): the prediction again at N draws of
# the calibrated point; the spread of the total and of each major row's
# sum, and the errors in those units
sim_cli_test(validate_param_draws 0
  "~parameter draws: 6 of the calibrated point \\(its covariance narrowed by the measured curvature\\): total sd [0-9.]+% \\(draws -[0-9.]+% \\.\\. \\+[0-9.]+% of their mean. the untransformed model.s total at the same draws: sd [0-9.]+%\\). the total's error is [-+][0-9.]+ sd. sum sd \\(err in sd\\) of the rows >= the threshold: EMULINST [0-9.]+% \\([-+][0-9.]+\\)"
  validate pdraws --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# ... each draw re-checked against the calibration table (its objective,
# the fit's residual variance): importance weights, their ESS, the
# weighted spread and the chi-square alternative's (docs/calibration.md,
# "Weighing the draws")
sim_cli_test(validate_param_draws_weighted 0
  "~parameter draws re-checked against the calibration table ppc440-ubuntu-boot-nopv.txt .* at the model's seeds 2\\.\\.5, the point and each draw alike \\(their mean. not the point's own seed 1\\): excess 2 \\(S - S_fit\\) / s\\^2 [-0-9.]+ \\.\\. [-0-9.]+, median [-0-9.]+ \\(s\\^2 [0-9.e-]+. chi-square 95% quantile of [0-9]+ fitted values [0-9.]+, [0-9.]+ with the noise: [0-6] of 6 draws within.*importance weights: ESS [0-9.]+ of 6, largest weight [0-9.]+"
  validate pdraws --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# ... the model's noise the re-check carried (param_draws.seeds, default
# 4): the point's spread over the seeds, its own seed's advantage, the
# noise of a draw's excess and the shrinkage of the log weights
sim_cli_test(validate_param_draws_model_noise 0
  "~the model's own noise on that re-check: one evaluation of the point varies by sd [0-9.]+ over the 4 seeds. at its own seed 1 its excess is [-+][0-9.]+ against their mean .*a draw's excess, the mean of 4 paired differences, is uncertain by sd [0-9.]+ \\(pooled over the draws. [0-9.]+ were the draw's noise independent of the point's\\), its departure from the proposal.s quadratic varies by sd [0-9.]+ beyond that: log weights shrunk by [0-9.]+ \\(ESS [0-9.]+ of 6 unshrunk\\)"
  validate pdraws --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# param_draws.seeds = 0: the re-check at the fit's own seed alone, as
# before the noise was carried, and the noise line of the point at 8 other
# seeds: on this 5000-exit trace far larger than the table's verdict
sim_cli_test(validate_param_draws_seed0 0
  "~calibration table ppc440-ubuntu-boot-nopv.txt \\(its objective, docs/calibration.md .Weighing the draws.\\): excess 2 \\(S - S_fit\\) / s\\^2 [-0-9.]+ \\.\\. [-0-9.]+, median [-0-9.]+ \\(s\\^2 [0-9.e-]+. chi-square 95% quantile of [0-9]+ fitted values [0-9.]+: [0-6] of 6 draws within"
  validate pdraws_seed0 --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
sim_cli_test(validate_param_draws_seed0_noise 0
  "~the model's own noise on that re-check: the point itself at 8 other seeds of the model has excess [-0-9.]+ \\.\\. [-0-9.]+, median [-0-9.]+, sd [0-9.]+. noise of that sd alone leaves an ESS of about [0-9.e+-]+ of 6: the weights and the quantile read the model's noise"
  validate pdraws_seed0 --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# ... drawn along the measured curvature (param_draws.proposal, default
# curvature): the covariance's eigen-directions, how many were measured,
# narrowed and moved, the objective replays it took (docs/calibration.md,
# "Drawing along the measured curvature")
sim_cli_test(validate_param_draws_proposal 0
  "~parameter draws' proposal: the covariance's [0-9]+ eigen-directions \\([0-9]+ measured, [0-9]+ again at the narrowed scale. docs/calibration.md, .Drawing along the measured curvature.. [0-9]+ replays of the calibration objective\\), [0-9]+ narrowed to 1/sqrt\\(c'\\) of their sd, the centre moved along [0-9]+"
  validate pdraws --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
validate_refuses(pdraws_badprop "10: param_draws.proposal = wide: expected linear .the fit's linearised covariance. or curvature")
validate_refuses(pdraws_seeds1 "10: param_draws.seeds = 1: expected 0 .the fit's own seed alone. or a whole number of the model's seeds in 2..32")
# the weighted spread (here at the fit's own seed, where the weights of
# this rough fit do not rest on one draw)
sim_cli_test(validate_param_draws_weighted_spread 0
  "~weighted draws \\(ESS [0-9.]+ of 6[^)]*\\): total sd [0-9.]+%, mean [-+][0-9.]+% from the draws' plain mean \\(the untransformed model's: sd [0-9.]+%\\). the total's error is [-+][0-9.]+ sd. sum sd \\(err in sd\\) of the rows: EMULINST [0-9.]+% \\([-+][0-9.]+\\)"
  validate pdraws_seed0 --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
validate_refuses(pdraws_one "9: param_draws = 1: expected 0 .none. or a whole number of draws in 2..1000")
validate_refuses(pdraws_nocal "8: param_draws needs calibrate.table")
# Audit: draws against a perf table (no traced duration): each draw's
# error read "+inf% .. -inf%, mean +nan%"; now of the handled time, whose
# mean is the averaged prediction's error
sim_cli_test(validate_draws_perf_handled 0
  "~each draw's prediction against the table: handled-time error -[0-9]+\\.[0-9]% \\.\\. -[0-9]+\\.[0-9]%, mean -26\\.06%"
  validate drawsperf --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
validate_refuses(measdir "9: measured.table = \\.\\.: is a directory")
# Audit: a scaled prediction kept the pv transform's map hypercalls per
# run (HCALL 1 became 2,000 at x2000, 49,803 for a 10 G-exit table)
sim_cli_test(validate_scaled_hcall_kept 0
  "~HCALL +0 +1 +- +0 +10 "
  validate scaledpv --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# Audit: the comparison's columns are as wide as their widest number (a
# 10 G-exit table's counts and sums ran into the next column)
sim_cli_test(validate_wide_columns 0
  "~^type {13}count ref {5}count new {6}err {8}sum ref {8}sum new"
  validate hugescaled --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# Audit: `sim validate A B | head` killed sim by SIGPIPE in the middle of
# B, its scratch directory left in TMPDIR
add_test(NAME cli_validate_sigpipe
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/validate_sigpipe.sh $<TARGET_FILE:sim>
          ${CMAKE_SOURCE_DIR}/tests/data/cases
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_validate_sigpipe PROPERTIES TIMEOUT 60)
# Audit: --plot into a directory that cannot be written (read-only; /proc
# here, as tests run as root too): every case ran to its end and failed
# without a verdict; refused before any case runs
sim_cli_test(validate_plot_not_writable 2 "~--plot /proc: cannot write there"
  validate relfile --cases ${CMAKE_SOURCE_DIR}/tests/data/cases --plot /proc)
# ... against a table without guest time (perf): the spread and the error
# are of the handled time, as the comparison's total is
sim_cli_test(validate_param_draws_perf_handled 0
  "~parameter draws: 4 of the calibrated point \\(its 1-sigmas and correlations\\): handled time sd [0-9.]+%.* the handled time's error is [-+][0-9.]+ sd"
  validate pdrawsperf --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# a no-PV table whose guest already maps the magic page (DTLBPV, HCALL
# rows): pv assumes a guest without it and adds its own; it says so
add_test(NAME cli_whatif_pv_baseline_has_magic_page
  COMMAND sh -c "\"$0\" trace synth --like \"$1\" --exits 5k -o pvrows.bin 2>/dev/null && \"$0\" whatif pvrows.bin --transform pv > pvrows.txt && grep -Eq '^# pv: note: the baseline already has [0-9]+ HCALL and [1-9][0-9]* DTLBPV exits, the magic page' pvrows.txt"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/table_nopv_with_pv_rows.txt
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# another kernel's and guest's tables: what synthesis says of the table
# (its notes: here HCALL and DTLBPV rows) reaches the case's notes, the
# transform's note is one of the JSON notes too, and the board's clock and
# the guest's HZ, which no table gives, are said to be assumed defaults
sim_cli_test(validate_other_tables_synth_notes 0
  "~  baseline: note: the table has 2 HCALL and 100000 DTLBPV exits, the PV magic page's"
  validate othertables --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
sim_cli_test(validate_other_tables_defaults_assumed 0
  "~core and timebase at 667 MHz, assumed: the model's default.*. the guest ticking at 250 Hz, assumed: the model's default"
  validate othertables --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
sim_cli_test(validate_other_tables_json_notes 0
  "~\"# pv: note: the baseline already has 0 HCALL and [1-9][0-9]* DTLBPV exits"
  validate othertables --format json --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# the guest kernel's HZ is no trace's or table's: at the default, the
# prediction says it is assumed (a comment in the kvm output, a note on
# stderr with the machine formats); given, it does not
sim_cli_test(whatif_guest_hz_assumed 0
  "~^# assumed: guest_hz 250, the model's default"
  whatif @cost_mix.bin --transform pv)
sim_cli_test(whatif_guest_hz_assumed_csv 0
  "~^whatif: note: assumed: guest_hz 250"
  whatif @cost_mix.bin --transform pv --format csv)
add_test(NAME cli_whatif_guest_hz_given_not_assumed
  COMMAND sh -c "\"$0\" whatif \"$1\" --transform pv --set guest_hz=100 > ghz.txt 2>&1 && ! grep -q 'assumed: guest_hz' ghz.txt"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/cost_mix.bin
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# a trace synthesised like a folded table (one EMULINST row, before 3.0):
# the prediction's EMULINST is the subtype-less rest beside EMUL_* rows,
# which a reader of the table's layout compared with the table's EMULINST
# (a "-99.6%" that is not one); said in a line, not with --fold-emul, nor
# for a table with EMUL_* rows
add_test(NAME cli_whatif_folded_table_emulinst_said
  COMMAND sh -c "\"$0\" trace synth --like \"$1\" --exits 3k -o fold3k.bin 2>/dev/null && \"$0\" trace synth --like \"$2\" --exits 3k -o split3k.bin 2>/dev/null && \"$0\" whatif fold3k.bin --transform pv > fold.txt && grep -q '^# EMULINST here is the emulation without an EMUL_\\* subtype' fold.txt && \"$0\" whatif fold3k.bin --transform pv --fold-emul > foldf.txt && ! grep -q 'EMULINST here' foldf.txt && \"$0\" whatif split3k.bin --transform pv > split.txt && ! grep -q 'EMULINST here' split.txt"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/validation/hw/ppc440-ubuntu-boot-nopv.txt
    ${CMAKE_SOURCE_DIR}/tests/data/table_emul.txt
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# the SystemC platform's scratch trace is removed by a fatal signal too
add_test(NAME cli_whatif_systemc_interrupt
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/whatif_interrupt.sh $<TARGET_FILE:sim>
          ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_whatif_systemc_interrupt PROPERTIES TIMEOUT 60)
# measured.record's own --set (a change of the measured system alone, the
# cpu440-tlbslots case) reaches the measured recording only
add_test(NAME cli_validate_measured_set
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/validate_measured_set.sh $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_validate_measured_set PROPERTIES TIMEOUT 300)
# A calibration that misses its own table's total by more than
# budget.total is a warning note of the case (the prediction stands on
# it): before, only the fit's number said so, among the notes.
sim_cli_test(validate_calibration_misfit_warned 1
  "~WARNING: the calibrated model misses its own table's total by -[0-9.]+%, more than budget.total \\(5%\\)"
  validate halt_misfit --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# A miss of the calibration's own table that is all in the row the fit
# gives no weight (a table's own EMUL_WAIT: the guest's idle phase, which
# a synthesised trace draws at random in the tick) is said with that row's
# points and the fitted rows' part, not as a warning that the costs miss
# their table (cpu440-synth-pv-split and -31 warned so at -4.7% and -5.0%,
# their fitted rows within 1.2%): tests/data/table_latewaits.txt's waits
# are 3.9 ms at 250 Hz, the model's about 2 ms.
sim_cli_test(validate_calibration_unfitted_said 1
  "~in a row it does not fit: EMUL_WAIT -[0-9.]+ points of the total .the guest's idle phase.. its fitted rows [-+][0-9.]+%, within it"
  validate latewaits --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
add_test(NAME cli_validate_calibration_unfitted_no_warning
  COMMAND sh -c "\"$0\" validate latewaits --cases \"$1\" > latewaits.txt 2>&1; test $? -eq 1 && grep -q 'of it, not fitted: EMUL_WAIT' latewaits.txt && ! grep -q 'WARNING: the calibrated model misses' latewaits.txt"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/cases
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_validate_calibration_unfitted_no_warning PROPERTIES TIMEOUT 120)
# The baseline's note names every assumption the tables cannot give: the
# board's clock, the guest's HZ, and (added) the profile standing for the
# table's guest and the tables' accounting, with the key that changes each.
sim_cli_test(validate_baseline_profile_accounting_said 0
  "~the guest's instructions, pages and runs from profile boot, the default \\(baseline.mix\\). the tables' accounting 2.6.29, the default \\(accounting = 3.1 for a 3.1\\+ kernel's\\)"
  validate clock --cases ${CMAKE_SOURCE_DIR}/tests/data/cases)
# The measured table is parsed before the first step (its numbers are read
# again at step 4, for the comparison alone): a malformed file, or one that
# fold = 0 cannot compare, is refused before the baseline's synthesis and
# calibration run (no "baseline:" note), where it was refused after them.
foreach(c measbad_early fold0_early)
  add_test(NAME cli_validate_${c}
    COMMAND sh -c "'$<TARGET_FILE:sim>' validate ${c} --cases '${CMAKE_SOURCE_DIR}/tests/data/cases' > ${c}.out 2>&1; rc=$?; cat ${c}.out; [ $rc -eq 2 ] && grep -q 'table_truncated.txt:17: the rows add up\\|fold0_early.case:13: fold = 0, but the measured table has no EMUL_' ${c}.out && ! grep -q 'baseline:' ${c}.out"
    WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
endforeach()
# --plot's error panel (docs/validation.md, "Pictures"): a row the measured
# table lacks is labelled, never drawn as a 0% bar; a one-exit row is
# starred; a budget far off the errors' scale is named in the title, one
# within it drawn (its legend entry)
add_test(NAME cli_validate_plot_error_panel
  COMMAND sh -c "rm -rf plotpanel && mkdir plotpanel && \"$0\" validate relfile plotbudget --cases \"$1\" --plot plotpanel > /dev/null && grep -q 'none in measured' plotpanel/relfile.svg && grep -q 'EXTINT[*]' plotpanel/relfile.svg && grep -q 'budget +-1e+06%: off the scale' plotpanel/relfile.svg && ! grep -q 'budget +-1e+06%<' plotpanel/relfile.svg && grep -q 'rows below 1%' plotpanel/relfile.svg && grep -q 'budget +-150%<' plotpanel/plotbudget.svg && ! grep -q 'off the scale' plotpanel/plotbudget.svg"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/cases
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_validate_plot_error_panel PROPERTIES TIMEOUT 120
  ENVIRONMENT "${SIM_TEST_ENV}")
