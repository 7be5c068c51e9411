# CLI tests of `sim trace synth --like` and `sim trace profile`
# (model/synth.c, model/exitprof.c, tools/cli_synth.c): counts follow the
# table exactly, details come from the committed profile, which is exactly
# what tools/make-profile.sh makes from a cpu440 recording; calibration and
# synth --like read only the files they are given (no PV table anywhere).
set(NOPV ${CMAKE_SOURCE_DIR}/validation/hw/ppc440-ubuntu-boot-nopv.txt)
sim_cli_test(synth_mix_list 0 "~^boot +the table's guest runs"
  trace synth --mix list)
sim_cli_test(synth_mix_list_linux 0 "~^linux-boot +the table's guest runs .*Linux 6\\.1 boot without the KUEP storm"
  trace synth --mix list)
sim_cli_test(synth_mix_list_linux_source 0 "~^ +from: sim record linux-boot --shadow-perms union: .*KUEP makes an ISI storm"
  trace synth --mix list)
sim_cli_test(synth_like_unknown_mix 2 "~--mix nosuch: neither a built-in profile \\(boot"
  trace synth --like ${NOPV} --mix nosuch -o like_x.bin)
sim_cli_test(synth_like_with_profile 2 "~--profile and --like exclude each other"
  trace synth --like ${NOPV} --profile ${NOPV} -o like_x.bin)
sim_cli_test(synth_mix_needs_like 2 "~--mix needs --like"
  trace synth --mix boot --exits 10 -o like_x.bin)
sim_cli_test(synth_accounting_needs_like 2 "~--accounting needs --like TABLE"
  trace synth --accounting 3.1 --exits 10 -o like_x.bin)
sim_cli_test(synth_like_accounting_bad 2 "~--accounting"
  trace synth --like ${NOPV} --accounting 3.0 -o like_x.bin)
# --tb-per-usec reads a 3.1+ table: an explicit --accounting 2.6.29 with
# it is refused, not silently overridden by 3.0+'s rows.
sim_cli_test(synth_like_accounting_vs_tb 2 "~--accounting 2.6.29 and --tb-per-usec contradict"
  trace synth --like @table_debugfs31_few.txt --tb-per-usec 667 --accounting 2.6.29 -o like_x.bin)
# A 3.0+ table's EMULINST row drawn from a profile whose EMULINST words are
# all mfspr/mtspr (EMUL_MFSPR/EMUL_MTSPR there) has no word: said on stderr.
sim_cli_test(synth_like_wordless_row 0 "~no instruction word for the EMULINST row"
  trace synth --like @table_emul.txt --mix @profile_spr_only.prof --accounting 3.1 --exits 1000 -o like_x.bin)
# A table without counts: the error names the table.
sim_cli_test(synth_like_no_counts 2 "~table_no_counts.txt: no exit row with a count"
  trace synth --like @table_no_counts.txt -o like_x.bin)
sim_cli_test(synth_like_refill_handlers 0 "~synth: 1761 guest TLB misses run their refill handler: 25499 emulated exits"
  trace synth --like ${NOPV} --exits 100k -o like_h.bin)
# The help says what a profile holds: the refill handlers too.
sim_cli_test(profile_help_seq 0 "~refill handler after each guest TLB miss"
  trace profile --help)
sim_cli_test(profile_needs_cpu440 2 "~a profile is made from a plain `sim record` trace"
  trace profile @synth500.bin --name x -o like_x.prof)
sim_cli_test(profile_bad_file 2 "~calib_hcall_table.txt:[0-9]+: unknown keyword"
  trace synth --like ${NOPV} --mix @calib_hcall_table.txt -o like_x.bin)
# 100k exits like the no-PV table: each row's count is the table's scaled
# (largest remainders), EMULINST holding every emulated subtype; the same
# seed gives the same bytes.
add_test(NAME cli_synth_like_counts
  COMMAND sh -c "\"$0\" trace synth --like \"$1\" --exits 100k -o like_a.bin 2>/dev/null && \"$0\" trace synth --like \"$1\" --exits 100k -o like_b.bin 2>/dev/null && cmp like_a.bin like_b.bin && \"$0\" trace info like_a.bin >info.txt && test $(awk '$1 ~ /^EMUL/ {n += $2} END {print n}' info.txt) = 64237 && grep -Eq '^ +ITLBVIRT +17773 ' info.txt && grep -Eq '^ +DTLBVIRT +15442 ' info.txt && grep -Eq '^ +MMIO +93 ' info.txt && grep -Eq '^ +FP_UNAVAIL +3 ' info.txt && \"$0\" trace dump like_a.bin | grep -q '^gtlb index='"
    $<TARGET_FILE:sim> ${NOPV}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# The same with the Linux 6.1 profile (built in, no image needed): the
# counts are still the table's, only the details change.
add_test(NAME cli_synth_like_counts_linux
  COMMAND sh -c "\"$0\" trace synth --like \"$1\" --mix linux-boot --exits 100k -o like_l.bin 2>/dev/null && \"$0\" trace info like_l.bin >info_l.txt && grep -q 'like:linux-boot' info_l.txt && test $(awk '$1 ~ /^EMUL/ {n += $2} END {print n}' info_l.txt) = 64237 && grep -Eq '^ +ITLBVIRT +17773 ' info_l.txt && grep -Eq '^ +DTLBVIRT +15442 ' info_l.txt && grep -Eq '^ +MMIO +93 ' info_l.txt && grep -Eq '^ +EMUL_WRTEE +[0-9]+ ' info_l.txt"
    $<TARGET_FILE:sim> ${NOPV}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# Mode and page are drawn together (the profile's per-page problem-state
# share): no user-mode TLB miss falls on a guest kernel page (>= 0xc0000000),
# while user-mode misses on user pages are there, and the rows' counts are
# still the table's exactly.
add_test(NAME cli_synth_like_mode_follows_page
  COMMAND sh -c "\"$0\" trace synth --like \"$1\" --exits 100k -o like_m.bin 2>/dev/null && \"$0\" trace info like_m.bin >info_m.txt && grep -Eq '^ +ITLBVIRT +17773 ' info_m.txt && grep -Eq '^ +DTLBVIRT +15442 ' info_m.txt && \"$0\" trace dump like_m.bin | awk '$1 == \"exit\" && ($2 ~ /TLB(VIRT|REAL)$/ || $2 == \"ISI\" || $2 == \"DSI\") { split($6, a, \"=\"); pr = $0 ~ /flags=[A-Z,]*PR/; if (pr && a[2] >= \"0xc0000000\") bad++; if (pr && a[2] < \"0xc0000000\") user++ } END { exit !(bad == 0 && user > 10000) }'"
    $<TARGET_FILE:sim> ${NOPV}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# The committed profile is what the script makes (anyone can check it).
add_test(NAME cli_profile_boot_is_committed
  COMMAND sh -c "rm -rf prof && mkdir prof && sh \"$1/tools/make-profile.sh\" --only boot \"$0\" prof && cmp prof/boot.prof \"$1/workloads/profiles/boot.prof\""
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# Calibration is given the no-PV table and the trace only: run both steps
# in a directory that holds nothing else (no PV table to read), and check
# that no source of calibration or synth --like names the PV table.
add_test(NAME cli_calibrate_reads_only_its_inputs
  COMMAND sh -c "rm -rf iso && mkdir iso && cp \"$1\" iso/nopv.txt && cd iso && \"$0\" trace synth --like nopv.txt --exits 20k -o t.bin 2>/dev/null && \"$0\" calibrate --trace t.bin --table nopv.txt --fit cpi,qemu_mmio_usec --max-iter 3 -o p.ini >/dev/null; rc=$?; test $rc -le 1 && test -s p.ini && ls | sort | tr '\\n' ' ' | grep -qx 'nopv.txt p.ini t.bin ' && ! grep -il 'pv\\.txt\\|boot-pv' \"$2/model/calib.c\" \"$2/model/calib.h\" \"$2/model/synth.c\" \"$2/model/exitprof.c\" \"$2/tools/cli_calibrate.c\" \"$2/tools/cli_synth.c\""
    $<TARGET_FILE:sim> ${NOPV} ${CMAKE_SOURCE_DIR}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# The Linux profile needs the Linux 6.1 image (workloads/linux/linux.cmake):
# labelled linux like the other tests of that image, skipped (77) with one
# line when it is not built; it never builds it, but runs after
# linux_qemu_oracle (which does) when both are selected.
add_test(NAME cli_profile_linux_boot_is_committed
  COMMAND sh -c "if [ ! -f \"$2/vmlinux\" ] || [ ! -f \"$2/sim440.dtb\" ]; then echo \"skipped: no Linux image in $2 (cmake --build . --target linux-image)\"; exit 77; fi; rm -rf lprof && mkdir lprof && sh \"$1/tools/make-profile.sh\" --only linux-boot --linux-dir \"$2\" \"$0\" lprof && cmp lprof/linux-boot.prof \"$1/workloads/profiles/linux-boot.prof\""
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/linux
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_profile_linux_boot_is_committed PROPERTIES
  LABELS linux SKIP_RETURN_CODE 77 TIMEOUT 600 DEPENDS linux_qemu_oracle)
set_tests_properties(cli_synth_like_counts cli_synth_like_counts_linux
  cli_synth_like_mode_follows_page
  cli_profile_boot_is_committed cli_calibrate_reads_only_its_inputs
  PROPERTIES TIMEOUT 120)
# The wall-time rates need a slope and its scatter: three recordings or more.
sim_cli_test(profile_wall_needs_three 2 "~--wall: give at least three recordings"
  trace profile @trace_small.bin --name x --wall a.bin --wall b.bin -o x.prof)
# -o naming one of the --wall recordings is refused before anything is
# read, and the recording is left as it was (it was replaced by the profile).
add_test(NAME cli_profile_wall_output_is_input
  COMMAND sh -c "cp \"$1\" wallin.bin && cp \"$1\" wallin.keep && ! \"$0\" trace profile \"$1\" --name x --wall wallin.bin --wall wallin.bin --wall wallin.bin -o wallin.bin 2> wallin.err && grep -q 'is also the input' wallin.err && cmp wallin.bin wallin.keep"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/trace_small.bin
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_profile_wall_output_is_input PROPERTIES TIMEOUT 60)
# recordings cut at one --exits N hold N exits whatever their duration: no
# rate can come from them (the fit gave every type a slope of 0 silently)
add_test(NAME cli_profile_wall_cut_runs
  COMMAND sh -c "for d in 250 1375 2500; do \"$0\" record boot --model --exits 3000 --set dispatch_insns=$d --set host_tick_hz=0 --set host_irq_hz=0 --set signal_hz=0 --set stall_hz=0 --no-console -o cut$d.bin > /dev/null || exit 1; done; \"$0\" record boot --exits 3000 --no-console -o cutbase.bin > /dev/null || exit 1; ! \"$0\" trace profile cutbase.bin --name boot --wall cut250.bin --wall cut1375.bin --wall cut2500.bin -o cut.prof 2> cut.err && grep -q 'all hold 3000 exits' cut.err && test ! -e cut.prof"
          $<TARGET_FILE:sim>
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_profile_wall_cut_runs PROPERTIES TIMEOUT 120
  ENVIRONMENT "${SIM_TEST_ENV}")
# Idle waits (docs/calibration.md): a table whose EMULINST row has no room
# for one (max 46 usec, stddev 3.4) gets none, and stderr says what the
# profile's share would have given; --guest-hz is checked and needs --like.
sim_cli_test(synth_like_waits_no_room 0
  "~EMULINST row \\(10000 exits, avg 17.6, stddev 3.4, max 46 usec\\) holds at most 0.0 idle waits of a guest ticking at 100 Hz .*the profile's share would give [0-9.]+: 0 written"
  trace synth --like @table_emul_narrow.txt --guest-hz 100 -o like_w.bin)
sim_cli_test(synth_like_waits_share 0 "~synth: EMULINST: [0-9]+ idle waits, the profile's share"
  trace synth --like ${NOPV} --exits 100k -o like_w2.bin)
# An idle-heavy guest's table (tests/data/table_idle*.txt, hand-made): its
# EMULINST row's time needs far more waits than the profile's share (17),
# if its other emulations cost no more than its VIRT misses; at most one a
# tick period of the table's duration (the profile's share was written:
# the calibrated model ended -88% on the first table)
sim_cli_test(synth_like_waits_floor 0
  "~EMULINST row \\(20000 exits, avg 100 usec\\) needs at least 740.0 idle waits of a guest ticking at 250 Hz if its other emulations cost no more than the table's VIRT misses \\(27 usec\\). the profile's share would give 16.8: 740 written"
  trace synth --like @table_idlesome.txt --seed 1 -o like_idle1.bin)
sim_cli_test(synth_like_waits_one_a_period 0
  "~needs at least 2767.4 idle waits .* and holds at most 1665.9 \\(its spread, its time, one a tick period\\). the profile's share would give 16.8: 1666 written"
  trace synth --like @table_idleheavy.txt --seed 1 -o like_idle2.bin)
# Guest run lengths (docs/calibration.md, "Guest run lengths"): the no-PV
# table's guest time is met by the profile's runs at a plausible guest CPI
# (kept: the trace is the one synth --like wrote before the rule); the
# idle-some guest's (265.8 usec an interval, stddev 300) is not: its runs
# are stretched and their spread set so that they book it at the model's
# defaults (they booked ~1.65 usec, and the calibrated model ended -66%
# on its own table).
sim_cli_test(synth_like_runs_kept 0
  "~guest runs: the table books 1.0862 usec an interval \\(stddev 4.79\\), the profile's runs 1.65 \\(stddev 9.36\\) at the model's defaults \\(guest_cpi 1.5. 0.629 at 0.5, 4.73 at 4.5\\): the profile's runs"
  trace synth --like ${NOPV} --exits 10k -o like_r1.bin)
sim_cli_test(synth_like_runs_scaled 0
  "~guest runs: the table books 265.781 usec an interval \\(stddev 300\\), .*: runs x 495.7, spread \\^ 0.262, booking 265.9 \\(stddev 300\\)"
  trace synth --like @table_idlesome.txt --seed 1 -o like_r2.bin)
# Replayed at the model's defaults, the idle-some trace's guest time is
# the table's (the profile's runs gave 1.6 usec an interval).
add_test(NAME cli_synth_like_runs_replayed
  COMMAND sh -c "\"$0\" trace synth --like \"$1\" --seed 1 -o like_r3.bin 2>/dev/null && \"$0\" replay like_r3.bin 2>/dev/null | awk '$1 == \"TIMEINGUEST\" { a = $6 } END { exit !(a > 255 && a < 277) }'"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/table_idlesome.txt
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# Other guests' tables calibrate (hand-made, tests/data): synth --like,
# calibrate, and the calibrated model reproduces its own table. Measured
# (2026-12-02): idle-some at its 30,100 exits, seed 1, +0.08%, TIMEINGUEST
# -0.6% (seeds 1-3 at 200k: -0.08%, -0.20%, -0.84%), was -65.9% and -91%;
# a guest of 20 usec an interval at 30k exits, seed 1: +3.0%, TIMEINGUEST
# -0.5% (seeds 2, 3: -6.1%, -0.2%), was -22.0% and -43%.
# With each residual weighted by its noise (docs/calibration.md, "How
# noisy each residual is"), idle-some's EMULINST avg (20,000 exits of
# stddev 1,200 usec) is uncertain by 12% and the fit no longer chases it:
# seeds 1-3 +3.89%, +2.31%, +1.12% (the table's total is itself
# uncertain by about 1.7%); budget 4%.
add_test(NAME cli_selffit_idlesome
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/selffit_check.sh $<TARGET_FILE:sim>
          ${CMAKE_SOURCE_DIR}/tests/data/table_idlesome.txt 30100 1 4 3
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
add_test(NAME cli_selffit_guest20
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/selffit_check.sh $<TARGET_FILE:sim>
          ${CMAKE_SOURCE_DIR}/tests/data/table_guest20.txt 30k 1 7 4
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
set_tests_properties(cli_synth_like_runs_replayed cli_selffit_idlesome
  cli_selffit_guest20 PROPERTIES TIMEOUT 120)
sim_cli_test(synth_guest_hz_bad 2 "~--guest-hz: expected a tick rate from 1 to 10000 Hz, got '0'"
  trace synth --like @table_emul_narrow.txt --guest-hz 0 -o like_w.bin)
sim_cli_test(synth_guest_hz_needs_like 2 "~--guest-hz needs --like TABLE"
  trace synth --exits 10 --guest-hz 100 -o like_w.bin)
# Audit: a json table's stated accounting picks synth --like's rows; a
# contradicting --accounting is refused
sim_cli_test(synth_like_json_accounting_contradicted 2
  "~table_acct31.json states accounting 3\\.1, --accounting 2\\.6\\.29 contradicts it"
  trace synth --like @table_acct31.json --accounting 2.6.29 -o like_acct.bin)
# The hand-made stress tables of docs/calibration.md ("The fit"): another
# board (handlers x 1.5), five times the MMIO, no REAL rows. At 30k exits a
# fit that strands (the old objective's -11.8% .. -28.9% on some seeds at
# 200k) fails the 6% guard; measured +0.79%, +2.94%, +4.58% (seed 1).
foreach(t mmio5x noreal slowboard)
  add_test(NAME cli_selffit_${t}
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/selffit_check.sh $<TARGET_FILE:sim>
            ${CMAKE_SOURCE_DIR}/tests/data/table_${t}.txt 30k 1 6
    WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
  set_tests_properties(cli_selffit_${t} PROPERTIES TIMEOUT 120)
endforeach()
# rows that say the table is another kernel's or guest's are accepted and
# said: HALT (no 44x kernel charges it; the model prices a bare exit), and
# the magic page's HCALL and DTLBPV in a table pv is applied to
sim_cli_test(synth_like_halt_says_other_kernel 0
  "~synth: note: HALT: 1000 exits \\(avg 800 usec\\), a row the 44x kernels sim440 follows never charge"
  trace synth --like @table_halt.txt --exits 2k -o halt.bin)
sim_cli_test(synth_like_pv_rows_said 0
  "~synth: note: the table has 2 HCALL and 100000 DTLBPV exits, the PV magic page's"
  trace synth --like @table_nopv_with_pv_rows.txt --exits 2k -o pvrows2.bin)
# the board's clock and the guest's HZ are no table's: when they are the
# defaults, synthesis says they are assumed; given, it does not
sim_cli_test(synth_like_defaults_assumed 0
  "~synth: note: assumed, as the table does not say: the core and timebase at 667 MHz and the guest ticking at 250 Hz"
  trace synth --like @table_halt.txt --exits 2k -o assumed.bin)
add_test(NAME cli_synth_like_given_not_assumed
  COMMAND sh -c "\"$0\" trace synth --like \"$1\" --exits 2k --tb-hz 400M --guest-hz 100 -o given.bin 2>given.txt && ! grep -q 'assumed' given.txt"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/tests/data/table_halt.txt
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# a trace that cannot fit its disk (32 bytes an exit at the least) is
# refused before the writing starts: --exits 1000G ran until the disk was
# full (32 TB; no test machine has them free)
sim_cli_test(synth_like_no_room 2
  "~room.bin: 1000000000000 exits take at least 32000\\.0 GB \\(32 bytes an exit\\), and \\. has [0-9.]+ (GB|MB|kB|bytes) free"
  trace synth --like @table_halt.txt --exits 1000G -o room.bin)
# an exit of the waits' row many tick periods long (the seed's EMULINST
# max, 247,582 usec) is one the model's waits cannot make: said in a note
sim_cli_test(synth_like_wait_longer_than_ticks 0
  "~synth: note: the table's EMULINST max, 247582 usec, is 61.9 tick periods at 250 Hz: a wait that long is a tickless"
  trace synth --like ${CMAKE_SOURCE_DIR}/validation/hw/ppc440-ubuntu-boot-nopv.txt --exits 5k -o longwait.bin)
# ... and none where the max is within two periods (5 Hz: 200 ms periods,
# 247.6 ms is 1.2 of them)
add_test(NAME cli_synth_like_wait_note_within_ticks
  COMMAND sh -c "\"$0\" trace synth --like \"$1\" --exits 5k --guest-hz 5 -o longwait5.bin 2>longwait5.txt && grep -q 'idle waits' longwait5.txt && ! grep -q 'tick periods' longwait5.txt"
    $<TARGET_FILE:sim> ${CMAKE_SOURCE_DIR}/validation/hw/ppc440-ubuntu-boot-nopv.txt
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# A 2.6.29-2.6.37 table read as a 3.0+ kernel's (--accounting 3.1): its
# EMUL_MFSPR holds a few SPRs, where 3.0+ counts every mfspr/mtspr, so
# the guest TLB misses' refill handlers find too few of them and most
# misses run none. Synthesis said only how many ran one; the note names
# the row, the shortage and the likely cause (a validation case passes it
# on). Read in its own accounting, nothing is short.
sim_cli_test(synth_like_handlers_short_3x 0
  "~synth: note: the table's EMUL_MFSPR row \\([0-9]+ exits at this trace's size\\) is short of what the refill handlers .* a 2.6.29-2.6.37 table"
  trace synth --like @table_boardb_emul.txt --accounting 3.1 --exits 20k -o like_short31.bin)
add_test(NAME cli_synth_like_handlers_not_short_2629
  COMMAND sh -c "'$<TARGET_FILE:sim>' trace synth --like '${CMAKE_SOURCE_DIR}/tests/data/table_boardb_emul.txt' --exits 20k -o like_short2629.bin 2> like_short2629.err && grep -q 'synth: wrote' like_short2629.err && ! grep 'short of' like_short2629.err"
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/testtmp)
# Audit: the sizes in the unit that shows them: 10 exits into a place with
# no room (/proc) said "0.0 GB, and /proc has 0.0 GB free"
sim_cli_test(synth_room_small_sizes 2
  "~/proc/x.bin: 10 exits take at least 320 bytes \\(32 bytes an exit\\), and /proc has 0 bytes free"
  trace synth --exits 10 -o /proc/x.bin)
