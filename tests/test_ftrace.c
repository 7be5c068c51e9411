/* test_ftrace: the ftrace text parser (model/ftrace), the importer's
 * classification (model/ftimport, model/classify) and the export round trip
 * (model/ftexport), on lines written from the kernel's TP_printk formats
 * (docs/kvm440.md §6). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "classify.h"
#include "ftexport.h"
#include "ftimport.h"
#include "ftrace.h"
#include "testlib.h"
#include "trace.h"
#include "tracetext.h"

static ftrace_line parse(const char *s)
{
    ftrace_line l;
    memset(&l, 0xa5, sizeof l);
    ftrace_parse_line(s, strlen(s), &l);
    return l;
}

#define EXIT_TAIL                                                              \
    "kvm_exit: exit=PROGRAM | pc=0xc0001000 | msr=0x29000 | dar=0x0 | "        \
    "last_inst=0x7c7a02a6"

/* ---- prefixes ---- */
static void test_prefix_raw_6_decimals(void)
{
    ftrace_line l =
        parse(" qemu-system-ppc-2045  [001] ....   812.000100: " EXIT_TAIL);
    CU_ASSERT_EQUAL(l.kind, FTL_EXIT);
    CU_ASSERT_EQUAL(l.pid, 2045);
    CU_ASSERT_EQUAL(l.cpu, 1);
    CU_ASSERT_EQUAL(l.ns, 812000100000ull);
}

static void test_prefix_9_decimals(void)
{
    ftrace_line l =
        parse(" qemu-system-ppc-2045  [001] ....   812.000100123: " EXIT_TAIL);
    CU_ASSERT_EQUAL(l.kind, FTL_EXIT);
    CU_ASSERT_EQUAL(l.ns, 812000100123ull);
}

static void test_prefix_tgid(void)
{
    ftrace_line l = parse(" qemu-system-ppc-3101  (  3100) [000] d..1    "
                          "95.000001000: " EXIT_TAIL);
    CU_ASSERT_EQUAL(l.kind, FTL_EXIT);
    CU_ASSERT_EQUAL(l.pid, 3101);
    CU_ASSERT_EQUAL(l.cpu, 0);
    CU_ASSERT_EQUAL(l.ns, 95000001000ull);
    l = parse(
        " qemu-system-ppc-3101  (-----) [000] ....    95.000001: " EXIT_TAIL);
    CU_ASSERT_EQUAL(l.kind, FTL_EXIT);
    CU_ASSERT_EQUAL(l.pid, 3101);
}

static void test_prefix_without_flags_trace_cmd(void)
{
    ftrace_line l = parse(" qemu-system-ppc-2045  [001]   812.000100: "
                          "kvm_exit:             exit=DECREMENTER | "
                          "pc=0xc0000100 | msr=0x29000 | dar=0x0 | "
                          "last_inst=0x0");
    CU_ASSERT_EQUAL(l.kind, FTL_EXIT);
    CU_ASSERT_EQUAL(l.u.exit.irq, BOOKE_IRQ_DECREMENTER);
    CU_ASSERT_EQUAL(l.ns, 812000100000ull);
}

static void test_prefix_task_with_blanks(void)
{
    ftrace_line l =
        parse("       CPU 1/KVM-2046  [000]   812.000101: " EXIT_TAIL);
    CU_ASSERT_EQUAL(l.kind, FTL_EXIT);
    CU_ASSERT_EQUAL(l.pid, 2046);
    l = parse("          <idle>-0     [000] d.h1   812.000100: "
              "irq_handler_entry: irq=5 name=timer");
    CU_ASSERT_EQUAL(l.kind, FTL_OTHER);
    CU_ASSERT_EQUAL(l.pid, 0);
}

/* ---- each event ---- */
static void test_event_exit(void)
{
    ftrace_line l = parse(" q-1 [000] ....  1.000001: kvm_exit: exit=DTLB_MISS "
                          "| pc=0xc01a2b30 | msr=0x2d000 | dar=0xef600300 | "
                          "last_inst=0x81230000");
    CU_ASSERT_EQUAL(l.kind, FTL_EXIT);
    CU_ASSERT_EQUAL(l.u.exit.irq, 13);
    CU_ASSERT_EQUAL(l.u.exit.pc, 0xc01a2b30u);
    CU_ASSERT_EQUAL(l.u.exit.msr, 0x2d000u);
    CU_ASSERT_EQUAL(l.u.exit.dar, 0xef600300u);
    CU_ASSERT_EQUAL(l.u.exit.last_inst, 0x81230000u);
    /* names beyond 15 and numbers __print_symbolic prints in hex */
    l = parse(" q-1 [000] ....  1.000001: kvm_exit: exit=DOORBELL | pc=0x0 | "
              "msr=0x0 | dar=0x0 | last_inst=0x0");
    CU_ASSERT_EQUAL(l.u.exit.irq, 36);
    l = parse(" q-1 [000] ....  1.000001: kvm_exit: exit=0x2a | pc=0x0 | "
              "msr=0x0 | dar=0x0 | last_inst=0x0");
    CU_ASSERT_EQUAL(l.kind, FTL_EXIT);
    CU_ASSERT_EQUAL(l.u.exit.irq, 42);
    /* an empty name (found by fuzz_ftrace) */
    l = parse(" q-1 [000] ....  1.000001: kvm_exit: exit= | pc=0x0 | "
              "msr=0x0 | dar=0x0 | last_inst=0x0");
    CU_ASSERT_EQUAL(l.kind, FTL_MALFORMED);
}

static void test_event_ppc_instr(void)
{
    ftrace_line l = parse(" q-1 [000] ....  1.000001: kvm_ppc_instr: inst "
                          "2088370854 pc 0xc0003004 emulate 2");
    CU_ASSERT_EQUAL(l.kind, FTL_PPC_INSTR);
    CU_ASSERT_EQUAL(l.u.instr.inst, 0x7c7a02a6u);
    CU_ASSERT_EQUAL(l.u.instr.pc, 0xc0003004u);
    CU_ASSERT_EQUAL(l.u.instr.emulate, 2);
}

static void test_event_tlb_writes(void)
{
    ftrace_line l = parse(" q-1 [000] ....  1.000001: kvm_gtlb_write: "
                          "gtlb_index 5 tid 3 w0 268435984 w1 1191936 w2 61");
    CU_ASSERT_EQUAL(l.kind, FTL_GTLB_WRITE);
    CU_ASSERT_EQUAL(l.u.tlb.index, 5);
    CU_ASSERT_EQUAL(l.u.tlb.tid, 3);
    CU_ASSERT_EQUAL(l.u.tlb.w0, 0x10000210u);
    CU_ASSERT_EQUAL(l.u.tlb.w1, 0x00123000u);
    CU_ASSERT_EQUAL(l.u.tlb.w2, 0x3du);
    l = parse(" q-1 [000] ....  1.000001: kvm_stlb_write: victim 3 tid 1 w0 "
              "3221234448 w1 131207168 w2 575");
    CU_ASSERT_EQUAL(l.kind, FTL_STLB_WRITE);
    CU_ASSERT_EQUAL(l.u.tlb.index, 3);
    CU_ASSERT_EQUAL(l.u.tlb.w0, 0xc0002310u);
    l = parse(" q-1 [000] ....  1.000001: kvm_stlb_inval: stlb_index 17");
    CU_ASSERT_EQUAL(l.kind, FTL_STLB_INVAL);
    CU_ASSERT_EQUAL(l.u.inval.index, 17);
}

static void test_event_userspace_exit(void)
{
    ftrace_line l = parse(" q-1 [000] ....  1.000001: kvm_userspace_exit: "
                          "reason KVM_EXIT_MMIO (6)");
    CU_ASSERT_EQUAL(l.kind, FTL_USER_EXIT);
    CU_ASSERT_EQUAL(l.u.user.reason, FTU_MMIO);
    CU_ASSERT_EQUAL(l.u.user.code, 6);
    l = parse(
        " q-1 [000] ....  1.000001: kvm_userspace_exit: reason restart (4)");
    CU_ASSERT_EQUAL(l.u.user.reason, FTU_INTR);
    l = parse(" q-1 [000] ....  1.000001: kvm_userspace_exit: reason "
              "KVM_EXIT_DCR (15)");
    CU_ASSERT_EQUAL(l.u.user.reason, FTU_DCR);
    l = parse(" q-1 [000] ....  1.000001: kvm_userspace_exit: reason "
              "KVM_EXIT_SHUTDOWN (8)");
    CU_ASSERT_EQUAL(l.u.user.reason, FTU_OTHER);
}

static void test_decimal_words_full_range(void)
{
    ftrace_line l = parse(" q-1 [000] ....  1.000001: kvm_gtlb_write: "
                          "gtlb_index 63 tid 255 w0 4294967295 w1 0 w2 0");
    CU_ASSERT_EQUAL(l.kind, FTL_GTLB_WRITE);
    CU_ASSERT_EQUAL(l.u.tlb.w0, 0xffffffffu);
    l = parse(" q-1 [000] ....  1.000001: kvm_gtlb_write: "
              "gtlb_index 63 tid 255 w0 4294967296 w1 0 w2 0");
    CU_ASSERT_EQUAL(l.kind, FTL_MALFORMED);
    /* hex where the kernel prints decimal */
    l = parse(" q-1 [000] ....  1.000001: kvm_ppc_instr: inst 0x7c7a02a6 pc "
              "0x0 emulate 0");
    CU_ASSERT_EQUAL(l.kind, FTL_MALFORMED);
    CU_ASSERT_EQUAL(l.claimed, FTL_PPC_INSTR);
}

static void test_skipped_lines(void)
{
    CU_ASSERT_EQUAL(parse("# tracer: nop").kind, FTL_COMMENT);
    CU_ASSERT_EQUAL(parse("").kind, FTL_BLANK);
    CU_ASSERT_EQUAL(parse("   ").kind, FTL_BLANK);
    CU_ASSERT_EQUAL(parse("cpus=2").kind, FTL_COMMENT);
    CU_ASSERT_EQUAL(parse("version = 6").kind, FTL_COMMENT);
    CU_ASSERT_EQUAL(parse(" q-1 [000] d..1  1.000001: kvm_booke_queue_irqprio: "
                          "vcpu=0 prio=9 pending=0")
                        .kind,
                    FTL_OTHER);
}

static void test_lost_events_lines(void)
{
    ftrace_line l = parse("CPU:1 [LOST 3 EVENTS]");
    CU_ASSERT_EQUAL(l.kind, FTL_LOST);
    CU_ASSERT_EQUAL(l.u.lost.cpu, 1);
    CU_ASSERT_EQUAL(l.u.lost.events, 3);
    l = parse("CPU:0 [2 EVENTS DROPPED]");
    CU_ASSERT_EQUAL(l.kind, FTL_LOST);
    CU_ASSERT_EQUAL(l.u.lost.events, 2);
    l = parse("CPU:0 [LOST EVENTS]");
    CU_ASSERT_EQUAL(l.kind, FTL_LOST);
    CU_ASSERT_EQUAL(l.u.lost.events, 0);
}

static void test_malformed_names_column(void)
{
    const char *s = " q-1 [000] ....  1.000001: kvm_exit: exit=PROGRAM | "
                    "pc=0xc0001000 | msr=0x29000 | dar=0x0";
    ftrace_line l = parse(s);
    CU_ASSERT_EQUAL(l.kind, FTL_MALFORMED);
    CU_ASSERT_EQUAL(l.claimed, FTL_EXIT);
    CU_ASSERT_EQUAL(l.col, strlen(s) + 1); /* where last_inst should be */
    /* a broken prefix on a line of ours is malformed, not a comment */
    l = parse(" q-1 [000] ....  1.000001 kvm_exit: exit=PROGRAM");
    CU_ASSERT_EQUAL(l.kind, FTL_MALFORMED);
    CU_ASSERT_EQUAL(l.claimed, FTL_EXIT);
}

/* ---- reader ---- */
static void test_reader_lines(void)
{
    static const char text[] = "a\r\n\nb";
    ftrace_reader *r;
    CU_ASSERT_FATAL(ftrace_reader_open_mem(&r, text, sizeof text - 1) ==
                    SIM_OK);
    const char *line;
    size_t len;
    bool cut, eof;
    CU_ASSERT(ftrace_reader_next(r, &line, &len, &cut, &eof) == SIM_OK);
    CU_ASSERT(!eof && len == 1 && line[0] == 'a');
    CU_ASSERT(ftrace_reader_next(r, &line, &len, &cut, &eof) == SIM_OK);
    CU_ASSERT(!eof && len == 0);
    CU_ASSERT(ftrace_reader_next(r, &line, &len, &cut, &eof) == SIM_OK);
    CU_ASSERT(!eof && len == 1 && line[0] == 'b');
    CU_ASSERT(ftrace_reader_next(r, &line, &len, &cut, &eof) == SIM_OK);
    CU_ASSERT(eof);
    ftrace_reader_close(r);
}

static void test_reader_file_refills_and_cuts(void)
{
    /* more than the 1 MiB read buffer, with a line longer than
     * FTRACE_LINE_MAX somewhere in the middle */
    char path[512];
    snprintf(path, sizeof path, "%s/test_ftrace_reader.txt", test_tmp_dir());
    FILE *f = fopen(path, "w");
    CU_ASSERT_FATAL(f != NULL);
    unsigned n_lines = 0;
    for (unsigned i = 0; i < 40000; i++, n_lines++) {
        if (i == 20000) {
            for (unsigned k = 0; k < 3 * FTRACE_LINE_MAX; k++)
                fputc('x', f);
            fputc('\n', f);
            n_lines++;
        }
        fprintf(f, "line %u of a file that is long enough\n", i);
    }
    fclose(f);
    ftrace_reader *r;
    CU_ASSERT_FATAL(ftrace_reader_open(&r, path) == SIM_OK);
    unsigned got = 0, cut_lines = 0, next = 0;
    bool order_ok = true;
    for (;;) {
        const char *line;
        size_t len;
        bool cut, eof;
        CU_ASSERT_FATAL(ftrace_reader_next(r, &line, &len, &cut, &eof) ==
                        SIM_OK);
        if (eof)
            break;
        got++;
        if (cut) {
            cut_lines++;
            CU_ASSERT_EQUAL(len, FTRACE_LINE_MAX);
            continue;
        }
        char want[64];
        int w = snprintf(want, sizeof want,
                         "line %u of a file that is long enough", next++);
        if ((size_t)w != len || memcmp(want, line, len) != 0)
            order_ok = false;
    }
    ftrace_reader_close(r);
    unlink(path);
    CU_ASSERT_EQUAL(got, n_lines);
    CU_ASSERT_EQUAL(cut_lines, 1);
    CU_ASSERT(order_ok);
}

/* ---- classification rules ---- */
static void test_classify_program_rules(void)
{
    CU_ASSERT_EQUAL(classify_program(0x7c7a02a6u, 0),
                    EXIT_EMULINST); /* mfspr SRR0 */
    CU_ASSERT_EQUAL(classify_program(0x7c7d0aa6u, 0),
                    EXIT_EMUL_MFSPR); /* DEAR */
    CU_ASSERT_EQUAL(classify_program(0x7c700ba6u, 0),
                    EXIT_EMUL_MTSPR); /* PID */
    CU_ASSERT_EQUAL(classify_program(0x7c7a03a6u, 0),
                    EXIT_EMULINST); /* mtspr SRR0 */
    CU_ASSERT_EQUAL(classify_program(0x7c7442a6u, 0),
                    EXIT_EMUL_MFSPR); /* SPRG4 */
    CU_ASSERT_EQUAL(classify_program(0x7c6000a6u, 0), EXIT_EMUL_MFMSR);
    CU_ASSERT_EQUAL(classify_program(0x7c600124u, 0), EXIT_EMUL_MTMSR);
    CU_ASSERT_EQUAL(classify_program(0x7c008146u, 0), EXIT_EMUL_WRTEE);
    CU_ASSERT_EQUAL(classify_program(0x4c000064u, 0), EXIT_EMUL_RFI);
    CU_ASSERT_EQUAL(classify_program(0x4c000066u, 0), EXIT_EMULINST); /* rfci */
    CU_ASSERT_EQUAL(classify_program(0x7c6407a4u, 0), EXIT_EMUL_TLBWE);
    CU_ASSERT_EQUAL(classify_program(0x7c602724u, 0), EXIT_EMUL_TLBSX);
    /* DCR: by the outcome, or by the DCR number when unknown */
    CU_ASSERT_EQUAL(classify_program(0x7c603286u, 2), EXIT_DCR);
    CU_ASSERT_EQUAL(classify_program(0x7c6c0286u, 0), EXIT_EMULINST);
    CU_ASSERT_EQUAL(classify_program(0x7c603286u, -1), EXIT_DCR);
    CU_ASSERT_EQUAL(classify_program(0x7c6c0286u, -1), EXIT_EMULINST);
    /* a failed emulation stays EMULINST */
    CU_ASSERT_EQUAL(classify_program(0x7c700ba6u, 3), EXIT_EMULINST);
}

/* 3.0+'s rows: every mfspr/mtspr its subtype, the rest as 2.6.29's */
static void test_classify_rows_3x(void)
{
    CU_ASSERT_EQUAL(classify_row_3x(EXIT_EMULINST, 0x7c7a02a6u),
                    EXIT_EMUL_MFSPR); /* mfspr SRR0 */
    CU_ASSERT_EQUAL(classify_row_3x(EXIT_EMULINST, 0x7c7a03a6u),
                    EXIT_EMUL_MTSPR); /* mtspr SRR0 */
    CU_ASSERT_EQUAL(classify_row_3x(EXIT_EMULINST, 0x7c7042a6u),
                    EXIT_EMUL_MFSPR); /* mfspr SPRG0 */
    CU_ASSERT_EQUAL(classify_row_3x(EXIT_EMUL_MTSPR, 0x7c700ba6u),
                    EXIT_EMUL_MTSPR); /* PID: its row already */
    CU_ASSERT_EQUAL(classify_row_3x(EXIT_EMULINST, 0x4c000066u),
                    EXIT_EMULINST); /* rfci */
    CU_ASSERT_EQUAL(classify_row_3x(EXIT_EMULINST, 0), EXIT_EMULINST);
    CU_ASSERT_EQUAL(classify_row_3x(EXIT_DTLBVIRT, 0x7c7a02a6u),
                    EXIT_DTLBVIRT); /* only EMULINST moves */
    CU_ASSERT_EQUAL(classify_row_3x(EXIT_EMUL_MFMSR, 0x7c6000a6u),
                    EXIT_EMUL_MFMSR);
}

static void test_classify_by_irq(void)
{
    CU_ASSERT_EQUAL(classify_by_irq(BOOKE_IRQ_PROGRAM, true), EXIT_USR_PR_INST);
    CU_ASSERT_EQUAL(classify_by_irq(BOOKE_IRQ_PROGRAM, false), -1);
    CU_ASSERT_EQUAL(classify_by_irq(BOOKE_IRQ_SYSCALL, true), EXIT_SYSCALL);
    CU_ASSERT_EQUAL(classify_by_irq(BOOKE_IRQ_DECREMENTER, false), EXIT_DEC);
    CU_ASSERT_EQUAL(classify_by_irq(BOOKE_IRQ_EXTERNAL, true), EXIT_EXTINT);
    CU_ASSERT_EQUAL(classify_by_irq(BOOKE_IRQ_FP_UNAVAIL, true),
                    EXIT_FP_UNAVAIL);
    CU_ASSERT_EQUAL(classify_by_irq(BOOKE_IRQ_DATA_STORAGE, true), EXIT_DSI);
    CU_ASSERT_EQUAL(classify_by_irq(BOOKE_IRQ_INST_STORAGE, true), EXIT_ISI);
    CU_ASSERT_EQUAL(classify_by_irq(BOOKE_IRQ_DEBUG, false), EXIT_DEBUG);
    CU_ASSERT(classify_keeps_previous(BOOKE_IRQ_ALIGNMENT));
    CU_ASSERT(classify_keeps_previous(BOOKE_IRQ_MACHINE_CHECK));
    CU_ASSERT(!classify_keeps_previous(BOOKE_IRQ_DTLB_MISS));
}

/* ---- import ---- */
#define P    " qemu-system-ppc-2045  [001] ....   "
#define Q    " qemu-system-ppc-2046  [000] ....   "
#define KMSR "msr=0x29000"
#define UMSR "msr=0x2d000"

static char out_path[512];

static void set_out(const char *name)
{
    snprintf(out_path, sizeof out_path, "%s/%s", test_tmp_dir(), name);
    unlink(out_path);
}

/* Imports text, returns the exit types written in order (n_out of them). */
static sim_err import(const char *text, const ftimport_opts *o,
                      ftimport_report *rep, exit_type *types, size_t *n_out)
{
    set_out("test_ftrace.bin");
    ftimport_opts d;
    if (!o) {
        ftimport_defaults(&d);
        d.name = "t.txt";
        o = &d;
    }
    memset(rep, 0, sizeof *rep);
    sim_err e = ftimport_buf(text, strlen(text), o, out_path, rep);
    *n_out = 0;
    if (e)
        return e;
    trace_reader *r;
    CU_ASSERT_FATAL(trace_reader_open(&r, out_path) == SIM_OK);
    for (;;) {
        const trace_rec *recs;
        size_t n;
        CU_ASSERT_FATAL(trace_reader_next(r, &recs, &n) == SIM_OK);
        if (n == 0)
            break;
        for (size_t i = 0; i < n; i++)
            if (recs[i].kind == TREC_EXIT && *n_out < 64)
                types[(*n_out)++] = (exit_type)recs[i].type;
    }
    trace_reader_close(r);
    return SIM_OK;
}

static void test_tlb_miss_decided_by_events(void)
{
    const char *t = P
        "1.000001: kvm_exit: exit=ITLB_MISS | pc=0xc0002000 | " KMSR
        " | dar=0x0 | last_inst=0x0\n" P
        "1.000002: kvm_stlb_write: victim 3 tid 1 w0 3221234448 w1 0 w2 575\n" P
        "1.000010: kvm_exit: exit=DTLB_MISS | pc=0x10000100 | " UMSR
        " | dar=0x10020000 | last_inst=0x81230000\n" P
        "1.000020: kvm_exit: exit=DTLB_MISS | pc=0xc01a2b30 | " KMSR
        " | dar=0xef600300 | last_inst=0x81230000\n" P
        "1.000021: kvm_ppc_instr: inst 2166554624 pc 0xc01a2b30 emulate 1\n" P
        "1.000022: kvm_userspace_exit: reason KVM_EXIT_MMIO (6)\n";
    ftimport_report rep;
    exit_type ty[64];
    size_t n;
    CU_ASSERT_FATAL(import(t, NULL, &rep, ty, &n) == SIM_OK);
    CU_ASSERT_FATAL(n == 3);
    CU_ASSERT_EQUAL(ty[0], EXIT_ITLBVIRT);
    CU_ASSERT_EQUAL(ty[1], EXIT_DTLBREAL);
    CU_ASSERT_EQUAL(ty[2], EXIT_MMIO);
    CU_ASSERT_EQUAL(rep.tlb_by_events, 3);
    CU_ASSERT_EQUAL(rep.ambiguous, 0);
}

static void test_tlb_miss_decided_by_guest_tlb(void)
{
    /* no shadow-TLB events in the text: the soft TLB decides */
    const char *t = P
        "1.000001: kvm_exit: exit=PROGRAM | pc=0xc0001000 | " KMSR
        " | dar=0x0 | last_inst=0x7c6407a4\n" P
        "1.000002: kvm_gtlb_write: gtlb_index 0 tid 0 w0 3221226096 w1 0 w2 "
        "7\n" P "1.000003: kvm_gtlb_write: gtlb_index 1 tid 0 w0 4016046608 w1 "
        "4016046080 w2 1283\n" P
        "1.000004: kvm_ppc_instr: inst 2086930340 pc 0xc0001000 emulate 0\n" P
        "1.000010: kvm_exit: exit=DTLB_MISS | pc=0xc0002000 | " KMSR
        " | dar=0xc0100000 | last_inst=0x81230000\n" P
        "1.000020: kvm_exit: exit=DTLB_MISS | pc=0xc0002000 | " KMSR
        " | dar=0xef600300 | last_inst=0x81230000\n" P
        "1.000030: kvm_exit: exit=DTLB_MISS | pc=0xc0002000 | " KMSR
        " | dar=0x30000000 | last_inst=0x81230000\n";
    ftimport_report rep;
    exit_type ty[64];
    size_t n;
    CU_ASSERT_FATAL(import(t, NULL, &rep, ty, &n) == SIM_OK);
    CU_ASSERT_FATAL(n == 4);
    CU_ASSERT_EQUAL(ty[1], EXIT_DTLBVIRT); /* kernel 16 MB entry, RAM */
    CU_ASSERT_EQUAL(ty[2], EXIT_MMIO);     /* UART entry, above RAM */
    CU_ASSERT_EQUAL(ty[3], EXIT_DTLBVIRT); /* unknown: the default */
    CU_ASSERT_EQUAL(rep.tlb_by_gtlb, 2);
    CU_ASSERT_EQUAL(rep.amb[FTA_TLB_UNKNOWN], 1);
    CU_ASSERT_EQUAL(rep.ambiguous, 1);
}

static void test_tlb_miss_real_when_guest_tlb_complete(void)
{
    char text[64 * 200 + 400];
    size_t k = 0;
    k += (size_t)snprintf(text + k, sizeof text - k,
                          P "1.000001: kvm_exit: exit=PROGRAM | pc=0x0 | " KMSR
                            " | dar=0x0 | last_inst=0x7c6407a4\n");
    for (int i = 0; i < 64; i++)
        k += (size_t)snprintf(text + k, sizeof text - k,
                              P "1.000002: kvm_gtlb_write: gtlb_index %d tid 0 "
                                "w0 0 w1 0 w2 0\n",
                              i);
    k += (size_t)snprintf(text + k, sizeof text - k,
                          P "1.000003: kvm_ppc_instr: inst 2086930340 pc 0x0 "
                            "emulate 0\n");
    snprintf(text + k, sizeof text - k,
             P "1.000010: kvm_exit: exit=ITLB_MISS | pc=0x10000000 | " UMSR
               " | dar=0x0 | last_inst=0x0\n");
    ftimport_report rep;
    exit_type ty[64];
    size_t n;
    CU_ASSERT_FATAL(import(text, NULL, &rep, ty, &n) == SIM_OK);
    CU_ASSERT_FATAL(n == 2);
    CU_ASSERT_EQUAL(ty[1], EXIT_ITLBREAL);
    CU_ASSERT_EQUAL(rep.ambiguous, 0);
}

static void test_program_rules_in_import(void)
{
    const char *t =
        P "1.000001: kvm_exit: exit=PROGRAM | pc=0x10000000 | " UMSR
          " | dar=0x0 | last_inst=0x7c6000a6\n" P
          "1.000010: kvm_exit: exit=PROGRAM | pc=0xc0000000 | " KMSR
          " | dar=0x0 | last_inst=0x7c603286\n" P
          "1.000011: kvm_ppc_instr: inst 2086679174 pc 0xc0000000 emulate 2\n" P
          "1.000012: kvm_userspace_exit: reason KVM_EXIT_DCR (15)\n" P
          "1.000020: kvm_exit: exit=PROGRAM | pc=0xc0000004 | " KMSR
          " | dar=0x0 | last_inst=0x7c700ba6\n";
    ftimport_report rep;
    exit_type ty[64];
    size_t n;
    CU_ASSERT_FATAL(import(t, NULL, &rep, ty, &n) == SIM_OK);
    CU_ASSERT_FATAL(n == 3);
    CU_ASSERT_EQUAL(ty[0], EXIT_USR_PR_INST);
    CU_ASSERT_EQUAL(ty[1], EXIT_DCR);
    CU_ASSERT_EQUAL(ty[2], EXIT_EMUL_MTSPR); /* from last_inst */
    CU_ASSERT_EQUAL(rep.amb[FTA_PROGRAM_NO_INSTR], 1);
    CU_ASSERT_EQUAL(rep.ambiguous, 1);
}

static void test_syscall_supervisor_assumption(void)
{
    const char *t = P "1.000001: kvm_exit: exit=SYSCALL | pc=0x10000000 | " UMSR
                      " | dar=0x0 | last_inst=0x0\n" P
                      "1.000010: kvm_exit: exit=SYSCALL | pc=0xc0000000 | " KMSR
                      " | dar=0x0 | last_inst=0x0\n";
    ftimport_report rep;
    exit_type ty[64];
    size_t n;
    CU_ASSERT_FATAL(import(t, NULL, &rep, ty, &n) == SIM_OK);
    CU_ASSERT_EQUAL(ty[0], EXIT_SYSCALL);
    CU_ASSERT_EQUAL(ty[1], EXIT_SYSCALL);
    CU_ASSERT_EQUAL(rep.amb[FTA_SC_SUPERVISOR], 1);
    ftimport_opts o;
    ftimport_defaults(&o);
    o.pv = true;
    CU_ASSERT_FATAL(import(t, &o, &rep, ty, &n) == SIM_OK);
    CU_ASSERT_EQUAL(ty[0], EXIT_SYSCALL);
    CU_ASSERT_EQUAL(ty[1], EXIT_HCALL);
}

static void test_wait_from_the_gap(void)
{
    const char *t =
        P "1.000000: kvm_exit: exit=PROGRAM | pc=0xc0000000 | " KMSR
          " | dar=0x0 | last_inst=0x7c600124\n" P
          "1.000001: kvm_ppc_instr: inst 2086666532 pc 0xc0000000 emulate 0\n" P
          "1.000020: kvm_exit: exit=PROGRAM | pc=0xc0000004 | " KMSR
          " | dar=0x0 | last_inst=0x7c600124\n" P
          "1.000021: kvm_ppc_instr: inst 2086666532 pc 0xc0000004 emulate 0\n" P
          "1.004000: kvm_exit: exit=DECREMENTER | pc=0xc0000008 | " KMSR
          " | dar=0x0 | last_inst=0x0\n";
    ftimport_report rep;
    exit_type ty[64];
    size_t n;
    CU_ASSERT_FATAL(import(t, NULL, &rep, ty, &n) == SIM_OK);
    CU_ASSERT_FATAL(n == 3);
    CU_ASSERT_EQUAL(ty[0], EXIT_EMUL_MTMSR); /* 20 us: no sleep */
    CU_ASSERT_EQUAL(ty[1], EXIT_EMUL_WAIT);  /* ~4 ms */
    CU_ASSERT_EQUAL(rep.wait_candidates, 2);
    CU_ASSERT_EQUAL(rep.amb[FTA_WAIT], 1);
}

static void test_no_type_keeps_previous(void)
{
    const char *t = P "1.000001: kvm_exit: exit=ALIGNMENT | pc=0x0 | " KMSR
                      " | dar=0x0 | last_inst=0x0\n" P
                      "1.000002: kvm_exit: exit=DATA_STORAGE | pc=0x0 | " UMSR
                      " | dar=0x0 | last_inst=0x0\n" P
                      "1.000003: kvm_exit: exit=MACHINE_CHECK | pc=0x0 | " UMSR
                      " | dar=0x0 | last_inst=0x0\n";
    ftimport_report rep;
    exit_type ty[64];
    size_t n;
    CU_ASSERT_FATAL(import(t, NULL, &rep, ty, &n) == SIM_OK);
    CU_ASSERT_EQUAL(ty[0], EXIT_EMULINST);
    CU_ASSERT_EQUAL(ty[1], EXIT_DSI);
    CU_ASSERT_EQUAL(ty[2], EXIT_DSI);
    CU_ASSERT_EQUAL(rep.amb[FTA_NO_TYPE], 2);
    CU_ASSERT_EQUAL(rep.amb[FTA_NO_PREVIOUS], 1);
    CU_ASSERT_EQUAL(rep.ambiguous, 2);
}

static void test_signal_and_userspace_flag(void)
{
    const char *t = P "1.000001: kvm_exit: exit=EXTERNAL | pc=0x0 | " KMSR
                      " | dar=0x0 | last_inst=0x0\n" P
                      "1.000002: kvm_userspace_exit: reason restart (4)\n";
    set_out("test_ftrace_sig.bin");
    ftimport_opts o;
    ftimport_defaults(&o);
    ftimport_report rep;
    CU_ASSERT_FATAL(ftimport_buf(t, strlen(t), &o, out_path, &rep) == SIM_OK);
    trace_reader *r;
    CU_ASSERT_FATAL(trace_reader_open(&r, out_path) == SIM_OK);
    const trace_rec *recs;
    size_t n;
    CU_ASSERT_FATAL(trace_reader_next(r, &recs, &n) == SIM_OK && n == 1);
    CU_ASSERT_EQUAL(recs[0].type, EXIT_SIGNAL);
    CU_ASSERT_EQUAL(recs[0].irq, BOOKE_IRQ_EXTERNAL);
    CU_ASSERT_EQUAL(recs[0].flags, TRF_USERSPACE);
    CU_ASSERT_EQUAL(recs[0].tb, 667000667u); /* 1.000001 s at 667 MHz */
    trace_reader_close(r);
}

static void test_two_vcpus_interleaved(void)
{
    const char *t = P "1.000001: kvm_exit: exit=DECREMENTER | pc=0x0 | " KMSR
                      " | dar=0x0 | last_inst=0x0\n" Q
                      "1.000002: kvm_exit: exit=EXTERNAL | pc=0x0 | " KMSR
                      " | dar=0x0 | last_inst=0x0\n" P
                      "1.000003: kvm_exit: exit=DATA_STORAGE | pc=0x0 | " KMSR
                      " | dar=0x0 | last_inst=0x0\n" Q
                      "1.000004: kvm_userspace_exit: reason restart (4)\n";
    ftimport_report rep;
    exit_type ty[64];
    size_t n;
    CU_ASSERT_FATAL(import(t, NULL, &rep, ty, &n) == SIM_OK);
    CU_ASSERT_EQUAL(rep.nthreads, 2);
    CU_ASSERT_EQUAL(rep.written_pid, 2045); /* the busiest */
    CU_ASSERT_FATAL(n == 2);
    CU_ASSERT_EQUAL(ty[0], EXIT_DEC);
    CU_ASSERT_EQUAL(ty[1], EXIT_DSI);
    ftimport_opts o;
    ftimport_defaults(&o);
    o.vcpu_set = true;
    o.vcpu = 2046;
    CU_ASSERT_FATAL(import(t, &o, &rep, ty, &n) == SIM_OK);
    CU_ASSERT_EQUAL(rep.written_pid, 2046);
    CU_ASSERT_FATAL(n == 1);
    CU_ASSERT_EQUAL(ty[0], EXIT_SIGNAL); /* its own userspace exit */
}

static void test_lost_line_resets_guest_tlb(void)
{
    const char *t =
        P "1.000001: kvm_exit: exit=PROGRAM | pc=0x0 | " KMSR
          " | dar=0x0 | last_inst=0x7c6407a4\n" P
          "1.000002: kvm_gtlb_write: gtlb_index 0 tid 0 w0 3221226096 w1 0 w2 "
          "7\n" P "1.000003: kvm_ppc_instr: inst 2086930340 pc 0x0 emulate 0\n"
          "CPU:1 [LOST 7 EVENTS]\n" P
          "1.000010: kvm_exit: exit=DTLB_MISS | pc=0xc0002000 | " KMSR
          " | dar=0xc0100000 | last_inst=0x81230000\n";
    ftimport_report rep;
    exit_type ty[64];
    size_t n;
    CU_ASSERT_FATAL(import(t, NULL, &rep, ty, &n) == SIM_OK);
    CU_ASSERT_EQUAL(rep.lost_events, 7);
    CU_ASSERT_EQUAL(rep.kinds[FTL_LOST], 1);
    CU_ASSERT_EQUAL(rep.amb[FTA_LOST], 1);        /* the open tlbwe */
    CU_ASSERT_EQUAL(rep.amb[FTA_TLB_UNKNOWN], 1); /* entry 0 no longer known */
}

static void test_out_of_order_clamped(void)
{
    const char *t = P "1.000010: kvm_exit: exit=DECREMENTER | pc=0x0 | " KMSR
                      " | dar=0x0 | last_inst=0x0\n" P
                      "1.000008: kvm_exit: exit=EXTERNAL | pc=0x0 | " KMSR
                      " | dar=0x0 | last_inst=0x0\n";
    ftimport_report rep;
    exit_type ty[64];
    size_t n;
    CU_ASSERT_FATAL(import(t, NULL, &rep, ty, &n) == SIM_OK);
    CU_ASSERT_EQUAL(rep.out_of_order, 1);
    CU_ASSERT_EQUAL(rep.max_back_ns, 2000);
    CU_ASSERT_EQUAL(n, 2);
}

static void test_malformed_lines_reported_with_line_numbers(void)
{
    char text[4096];
    size_t k = 0;
    for (int i = 0; i < 7; i++)
        k += (size_t)snprintf(text + k, sizeof text - k,
                              P "1.00000%d: kvm_exit: exit=PROGRAM | pc=zz\n",
                              i);
    snprintf(text + k, sizeof text - k,
             P "1.000009: kvm_exit: exit=DECREMENTER | pc=0x0 | " KMSR
               " | dar=0x0 | last_inst=0x0\n");
    ftimport_report rep;
    exit_type ty[64];
    size_t n;
    CU_ASSERT_FATAL(import(text, NULL, &rep, ty, &n) == SIM_OK);
    CU_ASSERT_EQUAL(rep.malformed, 7);
    CU_ASSERT_EQUAL(rep.nmsgs, FTIMPORT_MSGS);
    CU_ASSERT(strncmp(rep.msgs[0], "t.txt:1: kvm_exit: expected", 27) == 0);
    CU_ASSERT(strncmp(rep.msgs[4], "t.txt:5: ", 9) == 0);
    CU_ASSERT_EQUAL(n, 1);
}

static void test_nothing_usable_is_an_error(void)
{
    const char *t = "# tracer: nop\n" P
                    "1.000003: kvm_ppc_instr: inst 0 pc 0x0 emulate 0\n";
    ftimport_report rep;
    exit_type ty[64];
    size_t n;
    CU_ASSERT_EQUAL(import(t, NULL, &rep, ty, &n), SIM_ERR_FORMAT);
    CU_ASSERT_EQUAL(access(out_path, F_OK), -1); /* nothing written */
    CU_ASSERT_EQUAL(rep.orphans, 1);
}

/* ---- export and round trip ---- */
static void test_export_import_round_trip(void)
{
    /* a packed trace with guest TLB writes, so that VIRT / REAL / MMIO are
     * decidable, and every kind of exit the tracepoints can express */
    char src[512], bin[512], back[512];
    snprintf(src, sizeof src, "%s/ftrace_roundtrip.txt", test_data_dir());
    snprintf(bin, sizeof bin, "%s/ftrace_roundtrip.bin", test_tmp_dir());
    snprintf(back, sizeof back, "%s/ftrace_roundtrip_back.bin", test_tmp_dir());
    FILE *in = fopen(src, "r");
    CU_ASSERT_FATAL(in != NULL);
    CU_ASSERT_FATAL(tracetext_pack(src, in, bin, NULL, NULL) == SIM_OK);
    fclose(in);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    ftexport_opts eo;
    ftexport_defaults(&eo);
    ftexport_stats st;
    CU_ASSERT_FATAL(ftexport_trace(bin, m, &eo, &st) == SIM_OK);
    fclose(m);
    CU_ASSERT_EQUAL(st.substituted, 0);
    CU_ASSERT_EQUAL(st.unrepresentable, 0);
    ftimport_opts o;
    ftimport_defaults(&o);
    ftimport_report rep;
    CU_ASSERT_FATAL(ftimport_buf(text, len, &o, back, &rep) == SIM_OK);
    free(text);
    CU_ASSERT_EQUAL(rep.malformed, 0);
    /* record by record: same kind, type, irq, PR/U flags, fields, tb */
    trace_reader *a, *b;
    CU_ASSERT_FATAL(trace_reader_open(&a, bin) == SIM_OK);
    CU_ASSERT_FATAL(trace_reader_open(&b, back) == SIM_OK);
    const trace_rec *ra, *rb;
    size_t na, nb;
    CU_ASSERT_FATAL(trace_reader_next(a, &ra, &na) == SIM_OK);
    CU_ASSERT_FATAL(trace_reader_next(b, &rb, &nb) == SIM_OK);
    size_t j = 0, exits = 0;
    for (size_t i = 0; i < na; i++) {
        if (ra[i].kind == TREC_MARKER)
            continue;
        CU_ASSERT_FATAL(j < nb);
        const trace_rec *x = &ra[i], *y = &rb[j++];
        CU_ASSERT_EQUAL(x->kind, y->kind);
        CU_ASSERT_EQUAL(x->type, y->type);
        CU_ASSERT_EQUAL(x->irq, y->irq);
        CU_ASSERT_EQUAL(x->pc, y->pc);
        CU_ASSERT_EQUAL(x->tb, y->tb);
        if (x->kind == TREC_EXIT) {
            exits++;
            CU_ASSERT_EQUAL(x->flags & (TRF_GUEST_PR | TRF_USERSPACE),
                            y->flags);
            if (x->type != y->type)
                fprintf(stderr, "record %zu: %s imported as %s\n", i,
                        exit_name((exit_type)x->type),
                        exit_name((exit_type)y->type));
        }
    }
    CU_ASSERT_EQUAL(j, nb);
    CU_ASSERT_EQUAL(exits, rep.exits);
    CU_ASSERT_EQUAL(rep.ambiguous, rep.amb[FTA_WAIT]);
    trace_reader_close(a);
    trace_reader_close(b);
}

static void test_export_substitutes_words_of_the_type(void)
{
    /* a synthetic trace carries no instruction words: the export gives each
     * emulation exit one of its type, so the import reads the type back */
    static const char text[] =
        "header tb_hz=667000000 core_hz=667000000\n"
        "exit EMUL_MFSPR irq=6 pc=0xc0000000 inst=0 addr=0 tb=667000\n"
        "exit DCR irq=6 pc=0xc0000004 inst=0 addr=0 tb=1334000 flags=U\n"
        "exit EMUL_TLBWE irq=6 pc=0xc0000008 inst=0 addr=0 tb=2001000\n"
        "exit EMULINST irq=6 pc=0xc000000c inst=0x7c7e0aa6 addr=0 "
        "tb=2668000\n";
    char bin[512], back[512];
    snprintf(bin, sizeof bin, "%s/ftrace_subst.bin", test_tmp_dir());
    snprintf(back, sizeof back, "%s/ftrace_subst_back.bin", test_tmp_dir());
    CU_ASSERT_FATAL(
        tracetext_pack_buf("subst.txt", text, sizeof text - 1, bin) == SIM_OK);
    char *out = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&out, &len);
    ftexport_opts eo;
    ftexport_defaults(&eo);
    ftexport_stats st;
    CU_ASSERT_FATAL(ftexport_trace(bin, m, &eo, &st) == SIM_OK);
    fclose(m);
    CU_ASSERT_EQUAL(st.exits, 4);
    CU_ASSERT_EQUAL(st.substituted, 3);
    /* mfspr r3,ESR; mfdcr r3,UIC0_SR with DO_DCR; a failed mfspr ESR */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "kvm_ppc_instr: inst 2088635046 pc "
                                       "0xc0000000 emulate 0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "kvm_ppc_instr: inst 2086679174 pc "
                                       "0xc0000004 emulate 2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "kvm_userspace_exit: reason "
                                       "KVM_EXIT_DCR (15)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "kvm_ppc_instr: inst 2088635046 pc "
                                       "0xc000000c emulate 3"));
    ftimport_opts o;
    ftimport_defaults(&o);
    ftimport_report rep;
    CU_ASSERT_FATAL(ftimport_buf(out, len, &o, back, &rep) == SIM_OK);
    free(out);
    CU_ASSERT_EQUAL(rep.types[EXIT_EMUL_MFSPR], 1);
    CU_ASSERT_EQUAL(rep.types[EXIT_DCR], 1);
    CU_ASSERT_EQUAL(rep.types[EXIT_EMUL_TLBWE], 1);
    CU_ASSERT_EQUAL(rep.types[EXIT_EMULINST], 1);
    CU_ASSERT_EQUAL(rep.ambiguous, 0);
}

static CU_TestInfo tests[] = {
    {"prefix: raw trace, 6 decimals", test_prefix_raw_6_decimals},
    {"prefix: 9 decimals", test_prefix_9_decimals},
    {"prefix: tgid column", test_prefix_tgid},
    {"prefix: trace-cmd report, no flags", test_prefix_without_flags_trace_cmd},
    {"prefix: task names with blanks", test_prefix_task_with_blanks},
    {"event: kvm_exit", test_event_exit},
    {"event: kvm_ppc_instr", test_event_ppc_instr},
    {"event: kvm_gtlb_write / kvm_stlb_write / kvm_stlb_inval",
     test_event_tlb_writes},
    {"event: kvm_userspace_exit", test_event_userspace_exit},
    {"decimal words: full 32-bit range, no more",
     test_decimal_words_full_range},
    {"comments, headers, blanks, other events", test_skipped_lines},
    {"lost-events lines", test_lost_events_lines},
    {"malformed: event and column", test_malformed_names_column},
    {"reader: CRLF, blank, last line without newline", test_reader_lines},
    {"reader: file over several buffers, a cut line",
     test_reader_file_refills_and_cuts},
    {"classify: PROGRAM rules (2.6.29-2.6.37)", test_classify_program_rules},
    {"classify: 3.0+ rows of mfspr/mtspr", test_classify_rows_3x},
    {"classify: by interrupt", test_classify_by_irq},
    {"import: TLB miss decided by the events", test_tlb_miss_decided_by_events},
    {"import: TLB miss decided by the guest TLB",
     test_tlb_miss_decided_by_guest_tlb},
    {"import: REAL when every guest entry is known",
     test_tlb_miss_real_when_guest_tlb_complete},
    {"import: PROGRAM rules and ambiguity", test_program_rules_in_import},
    {"import: sc in supervisor mode", test_syscall_supervisor_assumption},
    {"import: EMUL_WAIT from the gap", test_wait_from_the_gap},
    {"import: no-type interrupts keep the previous type",
     test_no_type_keeps_previous},
    {"import: SIGNAL, TRF_USERSPACE, tb", test_signal_and_userspace_flag},
    {"import: two vCPUs interleaved", test_two_vcpus_interleaved},
    {"import: LOST line", test_lost_line_resets_guest_tlb},
    {"import: out of order", test_out_of_order_clamped},
    {"import: malformed lines with line numbers",
     test_malformed_lines_reported_with_line_numbers},
    {"import: nothing usable", test_nothing_usable_is_an_error},
    {"export -> import round trip", test_export_import_round_trip},
    {"export: instruction words of the exit's type",
     test_export_substitutes_words_of_the_type},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("ftrace", tests)
