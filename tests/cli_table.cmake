# CLI tests of `sim table show|convert|diff` (tools/cli_table.c): goldens of
# the seed tables in every format, the consistency check's exit codes, and
# bad input named by file and line.
set(NOPV @../../validation/hw/ppc440-ubuntu-boot-nopv.txt)
set(PV @../../validation/hw/ppc440-ubuntu-boot-pv.txt)

# the seed's published rows, reproduced (never-hit line in enum order)
sim_cli_test(table_show_nopv 0 table_show_nopv.txt table show ${NOPV})
sim_cli_test(table_show_pv 0 table_show_pv.txt table show ${PV})
foreach(fmt csv json debugfs perf)
  sim_cli_test(table_convert_nopv_${fmt} 0 table_nopv.${fmt}.txt
               table convert ${NOPV} --to ${fmt})
endforeach()
sim_cli_test(table_convert_debugfs_3_1 0 table_pv_debugfs_tb667.txt
             table convert ${PV} --to debugfs --tb-per-usec 667)
sim_cli_test(table_show_fold_emul 0 table_show_emul_fold.txt
             table show @table_emul.txt --fold-emul)
sim_cli_test(table_show_debugfs_input 0 table_show_emul.txt
             table show @table_emul_debugfs.txt)
sim_cli_test(table_diff_nopv_pv 0 table_diff_nopv_pv.txt
             table diff ${NOPV} ${PV})
sim_cli_test(table_diff_proportions 0 table_diff_nopv_pv_proportions.txt
             table diff ${NOPV} ${PV} --proportions)

# consistency: 0 on the seeds, 1 on a committed inconsistent table
sim_cli_test(table_check_nopv 0 - table show --check ${NOPV})
sim_cli_test(table_check_pv 0 - table show --check ${PV})
sim_cli_test(table_check_emul 0 - table show --check @table_emul_debugfs.txt)
sim_cli_test(table_check_bad_avg 1
             "~table_bad_avg.txt:7: EMULINST: avg 14.3000 but sum/count = 14.2804"
             table show --check @table_bad_avg.txt)

# bad input: exit 2 with file and line
sim_cli_test(table_malformed 2
             "~table_malformed.txt:7: expected a number for sum, found 'lots'"
             table show @table_malformed.txt)
# a file that ends early: the position is its last line, said to be so
sim_cli_test(table_cut_after_unit 2
             "~table_cut_after_unit.txt:3: expected 'traced duration N usec' after this line, found the end of the file"
             table show @table_cut_after_unit.txt)
sim_cli_test(table_wrong_from 2 "~ppc440-ubuntu-boot-nopv.txt:6: expected header 'type,count"
             table show ${NOPV} --from csv)
sim_cli_test(table_missing_file 2 "~no-such-table.txt: cannot open"
             table show @no-such-table.txt)
sim_cli_test(table_convert_needs_to 2 "~--to FMT is required"
             table convert ${NOPV})
sim_cli_test(table_unknown_format 2 "~unknown format 'xml'"
             table show ${NOPV} --format xml)
sim_cli_test(table_unknown_command 2 "~unknown subcommand 'frob': expected show, convert or diff" table frob)
sim_cli_test(table_help 0 "~show FILE.*" table --help)
sim_cli_test(table_help_lists_formats 0 "~debugfs +the kernel's" table --help)
sim_cli_test(table_show_help 0 "~--check" table show --help)
sim_cli_test(table_convert_help 0 "~--to FMT" table convert --help)
sim_cli_test(table_diff_help 0 "~--proportions" table diff --help)

# --check says so when the table is consistent (on stderr: stdout is the table)
sim_cli_test(table_check_says_consistent 0
  "~^sim table show: .*ppc440-ubuntu-boot-nopv.txt: consistent$"
  table show --check ${NOPV})
# an absurd timebase is refused with the allowed range
sim_cli_test(table_tb_per_usec_absurd 2
  "~--tb-per-usec wants the timebase in ticks per usec \\(MHz\\), from 1 to 100000, not '1e30'"
  table show --tb-per-usec 1e30 ${NOPV})
# a row that contradicts itself beyond rounding is refused where it is read:
# an avg ten times its own sum/count (calibrate fitted the typo), time
# without exits
sim_cli_test(table_avg_contradicts_sum 2
  "~table_avg_shifted.txt:12: DEC: avg 850.8500 but sum/count = 85.0850"
  table show @table_avg_shifted.txt)
sim_cli_test(table_count0_with_time 2
  "~table_count0_time.json: rows\\[0\\]: MMIO: no exits \\(count 0\\) but sum 1000"
  table show @table_count0_time.json)
# json states the traced duration as kvm does: rows that miss it are refused
# there too (the no-PV table with 100 s taken off its traced_duration read
# fine, and calibrate judged its total against the edited number)
sim_cli_test(table_json_traced_edited 2
  "~table_traced_edited.json: traced_duration: the rows add up to 202244233 usec, but it says 102244233 usec"
  table show @table_traced_edited.json)
# stdin holds one table: '-' twice said "<stdin>: empty file"
sim_cli_test(table_diff_stdin_twice 2 "~A and B are both '-'" table diff - -)
# without TIMEINGUEST the exit rows cannot hold more than the traced
# duration (191 s of exits in 0.1 s read fine)
sim_cli_test(table_rows_over_traced 2
  "~table_rows_over_traced.txt:21: the rows add up to 191382441 usec, but line 5 gives a traced duration of 100000 usec"
  table show @table_rows_over_traced.txt)
# a csv without TIMEINGUEST has no traced duration: kvm prints the sum of
# its rows there, and time% of that sum (it kept the csv's time_percent,
# of the real total: EMULINST 45.36 where its sum is 47.93% of the line)
sim_cli_test(table_noguest_time_pct_of_printed_total 0
  "~EMULINST 6,423,699 12 247,582 91,732,705 14.2804 241.200 47.93"
  table show @table_noguest.csv)
# samples between min and max cannot spread more than (max - min) / 2: a
# 3.1+ debugfs file read without its --tb-per-usec (sum_squared in
# tick x usec) broke it, and calibrate fitted DEC's stddev to 5704 usec
sim_cli_test(table_debugfs_31_without_tb 2
  "~MMIO: stddev .* more than samples between min .* can spread .*--tb-per-usec"
  table show @table_debugfs31_nounused.txt)
# a max typed below its avg (EMULINST 12 13 where the max is 247,582) was
# named as a stddev wider than min and max allow, with a hint to give a
# 3.1+ debugfs file's --tb-per-usec: the column that is off is named now,
# and a printed stddev (kvm, csv, perf, json) never gets the debugfs hint
sim_cli_test(table_max_below_avg 2
  "~table_max_below_avg.txt:6: EMULINST: avg 14\\.2804 above its max 13 \\(min 12, max 13\\): the row contradicts itself"
  table show @table_max_below_avg.txt)
sim_cli_test(table_sd_mistyped_no_tb_hint 2
  "~table_sd_mistyped.txt:15: DSI: stddev 99999\\.975, more than .* can spread \\(44\\.502\\): the row contradicts itself \\(a column mistyped or shifted\\?\\)$"
  table show @table_sd_mistyped.txt)
# the 'traced duration' line is the seed post's, not the kernel's: a table
# without it was refused ("expected 'traced duration N usec'"); it is read
# as csv is, its traced duration the sum of all rows (TIMEINGUEST included)
sim_cli_test(table_kvm_without_traced_line 0
  "~^traced duration 202,244,233 usec$"
  table show @table_no_traced_line.txt)
# Audit: an unused row's min is 0xFFFFFFFF, divided by the ticks per usec
# in 3.1+: the file names its form and timebase, and a reading at another
# (no --tb-per-usec, or a wrong one: every row's spread off by the factor,
# silently unless a row contradicted itself) is refused with the right one
sim_cli_test(table_debugfs_unused_min_names_tb 2
  "~table_pv_debugfs_tb667.txt:15: HALT: unused, its min 6439231 is 0xFFFFFFFF as a 3\\.1\\+ file's of 667 ticks per usec \\(--tb-per-usec 667\\), not 4294967295"
  table show @../golden/table_pv_debugfs_tb667.txt)
sim_cli_test(table_debugfs_unused_min_wrong_tb 2
  "~HALT: unused, its min 6439231 .* 667 ticks per usec .*not 5368709 as read with this --tb-per-usec"
  table show @../golden/table_pv_debugfs_tb667.txt --tb-per-usec 800)
sim_cli_test(table_debugfs_2629_read_as_31 2
  "~unused, its min 4294967295 is 0xFFFFFFFF as a 2\\.6\\.29-2\\.6\\.37 file's \\(no --tb-per-usec\\)"
  table show @table_emul_debugfs.txt --tb-per-usec 667)
sim_cli_test(table_debugfs_31_with_tb 0 "~^EMULINST "
  table show @../golden/table_pv_debugfs_tb667.txt --tb-per-usec 667)
sim_cli_test(calibrate_debugfs_31_refused 2 "~--tb-per-usec"
  calibrate --trace @synth500.bin --table @table_nopv_debugfs_tb667.txt
            --fit cpi -o cal_31.ini)
# a 3.1+ debugfs table of rows with a few exits: its sum is truncated by
# up to 1 usec, which alone made 12, 12, 12, 13 usec read as a stddev of
# 1.3 where min 12 and max 12 allow 0.58 - refused though right
# (sim replay tests/data/cost_mix.bin --format debugfs --accounting 3.1)
sim_cli_test(table_debugfs_31_few_exits 0 "~^ITLBVIRT 4 12 12 50 "
  table show @table_debugfs31_few.txt --tb-per-usec 667)
# calibrate and synth read a 3.1+ debugfs table with its ticks per usec
# (they refused it and had no way to be told)
sim_cli_test(calibrate_debugfs_31_tb 0 "~wrote cal_31tb.ini"
  calibrate --trace @synth500.bin --table @table_nopv_debugfs_tb667.txt
            --tb-per-usec 667 --fit cpi -o cal_31tb.ini)
sim_cli_test(synth_like_debugfs_31_tb 0 "~counts like table_nopv_debugfs_tb667.txt"
  trace synth --like @table_nopv_debugfs_tb667.txt --tb-per-usec 667
              --exits 1000 -o synth31.bin)
sim_cli_test(synth_like_debugfs_31_refused 2 "~--tb-per-usec"
  trace synth --like @table_nopv_debugfs_tb667.txt --exits 1000 -o synth31r.bin)
# Audit: a 3.1+ table's sum is truncated to whole usec, its avg is not; a
# row of one exit (10 against 10.4543) was refused as contradicting itself,
# so `sim record --accounting 3.1`'s own table could not be read back
sim_cli_test(table_31_few_exits_consistent 0 "~table31_few.txt: consistent"
  table show --check @table31_few.txt)
# Audit: a csv saved by a spreadsheet as "CSV UTF-8" starts with a byte
# order mark: it was read as the kvm form and refused at line 2
sim_cli_test(table_csv_bom 0 "~EMULINST 310 12 38 4,872 15\\.7161"
  table show @table_bom.csv)
# Audit: perf's table converted to the kvm form has a traced duration, its
# exit rows' sum, and still no guest time: compared as handled time (it
# was 53,067 against 55,931 traced, guest time included)
sim_cli_test(table_diff_perf_as_kvm_handled 0
  "~handled usec +53,063 +53,067 +\\+0\\.0% +\\(exit rows only"
  table diff @table_emul_perf_kvm.txt @table_emul.txt)
# Audit: counts whose sum exceeds 2^64 wrapped in table_exits (synth
# --like and a case's scaling read two rows of 1e19 as 1.6e18 exits)
sim_cli_test(table_counts_sum_overflow 2
  "~table_counts_overflow.txt: the exit counts add up beyond 2\\^64"
  table show @table_counts_overflow.txt)
# Audit: against a table without guest time the text diff printed each
# table's own time% (of its traced duration: 45.36) while csv and json give
# shares of the handled time (47.93): now both forms the same, and no
# time% for TIMEINGUEST
sim_cli_test(table_diff_handled_time_pct_text 0
  "~EMULINST +6,423,699 +6,423,699 .* 47\\.93 +47\\.93"
  table diff ${NOPV} @table_noguest.csv)
sim_cli_test(table_diff_handled_time_pct_csv 0
  "~EMULINST,6423699,6423699,.*,47\\.93,47\\.93"
  table diff ${NOPV} @table_noguest.csv --format csv)
# Audit: a table without guest time (perf's, a csv without TIMEINGUEST)
# written as kvm said "traced duration N usec" with its exit rows' sum, the
# handled time: no such line now, a comment saying what the sum is
add_test(NAME cli_table_noguest_no_traced_line
  COMMAND sh -c "\"$0\" table show \"$1\" >ng.txt && ! grep -q '^traced duration' ng.txt && grep -q '^# no traced duration: no guest time in this table. time% of its exit rows. sum, 191,382,441 usec handled$' ng.txt && \"$0\" table show ng.txt --check"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/table_noguest.csv
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_table_noguest_no_traced_line PROPERTIES TIMEOUT 60)
# Audit: a table's stated accounting (json's "accounting") was dropped by
# convert, json to json too: a 3.1+ table was then read as 2.6.29
sim_cli_test(table_convert_keeps_accounting 0 "~\"accounting\": \"3\\.1\""
  table convert @table_acct31.json --to json)
sim_cli_test(table_convert_says_accounting_lost 0
  "~note: the table states accounting 3\\.1, which the kvm form does not carry"
  table convert @table_acct31.json --to kvm)
# Audit: a time% above 100 (a share of a total) was read without a word and
# carried into every output; only --check named it
sim_cli_test(table_time_pct_over_100 2
  "~table_time_pct_over.txt:6: MMIO: time% 500\\.00, more than 100"
  table show @table_time_pct_over.txt)
