# Every `--format csv|json` output of every command is exactly one valid
# document, read by Python's csv and json modules (tests/formats_parse.py),
# and their numbers agree (stage exits = table counts, units given).
find_program(SIM_PYTHON3 python3 REQUIRED)
add_test(NAME cli_formats_parse
  COMMAND ${SIM_PYTHON3} ${CMAKE_SOURCE_DIR}/tests/formats_parse.py
          $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data
          ${CMAKE_SOURCE_DIR}/validation/hw
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_formats_parse PROPERTIES TIMEOUT 300)
# table diff: sums beside time% (its golden tests/golden/table_diff_nopv_pv.txt
# shows DTLBVIRT's time% rise while its time falls), units, and one count
# column when the counts cannot differ
sim_cli_test(table_diff_bad_format 2 "~unknown format 'kvm' \\(text, csv, json\\)"
  table diff ../../validation/hw/ppc440-ubuntu-boot-nopv.txt ../../validation/hw/ppc440-ubuntu-boot-pv.txt --format kvm)
sim_cli_test(replay_compare_one_count 0 "~the counts are the same in both"
  replay @synth500.bin --compare)
sim_cli_test(replay_csv_compare_and_stages 2 "~--format csv is one table"
  replay @synth500.bin --compare --stages --format csv)
