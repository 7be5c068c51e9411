/* Tests of the exit profile's wall-time rates (model/exitprof,
 * docs/calibration.md): the slope and its error by hand, the rates of
 * three small hand-made recordings, the text form's new lines, and an
 * older profile without them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cost.h"
#include "exitprof.h"
#include "params.h"
#include "synth.h"
#include "table.h"
#include "testlib.h"
#include "trace.h"
#include "tracetext.h"

/* y = 10, 14, 15 at x = 1, 2, 3: the line 13 + 2.5 (x - 2), residuals
 * -0.5, 1, -0.5 (sum of squares 1.5, one degree of freedom), so the slope's
 * standard error is sqrt(1.5 / 1 / 2) = 0.866. */
static void test_slope_by_hand(void)
{
    const double x[] = {1, 2, 3}, y[] = {10, 14, 15};
    double s, se;
    CU_ASSERT_EQUAL_FATAL(exitprof_slope(x, y, 3, &s, &se), SIM_OK);
    CU_ASSERT_DOUBLE_EQUAL(s, 2.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(se, sqrt(0.75), 1e-12);
    const double same[] = {2, 2, 2};
    CU_ASSERT_EQUAL(exitprof_slope(same, y, 3, &s, &se), SIM_ERR_FORMAT);
}

/* A cycle-model recording of workload "w" lasting `sec` seconds (tb 1 MHz)
 * with the given exits of each type; `ticks` of the EMUL_MTSPR exits are
 * the guest's mtspr TSR (its decrementer acknowledged). */
static void recording(const char *name, int sec, int emul, int itlb, int dtlb,
                      int sys, int dec, int ticks, char *path, size_t len)
{
    static char text[65536];
    size_t n = (size_t)snprintf(
        text, sizeof text,
        "header version=1 source=cpu440 tb_hz=1000000 core_hz=1000000 "
        "workload=\"w\" tool_version=\"t\" cost_label=\"cycle model "
        "(model/cost)\"\n");
    int tb = -10; /* the first exit at 0 */
#define EXIT(fmt, ...)                                                         \
    n += (size_t)snprintf(text + n, sizeof text - n, fmt, __VA_ARGS__)
    for (int i = 0; i < emul; i++)
        EXIT("exit EMULINST irq=6 pc=0xc0001000 inst=0x7c7042a6 tb=%d "
             "handler=1 guest=1 flags=H,G\n", tb += 10);
    for (int i = 0; i < itlb; i++)
        EXIT("exit ITLBVIRT irq=14 pc=0xc0002000 addr=0xc0002000 tb=%d "
             "handler=1 guest=1 flags=H,G\n", tb += 10);
    for (int i = 0; i < dtlb; i++)
        EXIT("exit DTLBVIRT irq=13 pc=0xc0002000 addr=0xc0100000 tb=%d "
             "handler=1 guest=1 flags=H,G\n", tb += 10);
    for (int i = 0; i < sys; i++)
        EXIT("exit SYSCALL irq=8 pc=0x10000100 inst=0x44000002 tb=%d "
             "handler=1 guest=1 flags=H,G,PR\n", tb += 10);
    for (int i = 0; i < dec; i++)
        EXIT("exit DEC irq=10 pc=0xc0001000 tb=%d handler=1 guest=1 "
             "flags=H,G\n", tb += 10);
    for (int i = 0; i < ticks; i++) /* mtspr TSR,r3 */
        EXIT("exit EMUL_MTSPR irq=6 pc=0xc0003000 inst=0x7c7053a6 tb=%d "
             "handler=1 guest=1 flags=H,G\n", tb += 10);
    /* the last exit's run ends the recording at sec seconds */
    EXIT("exit EMUL_RFI irq=6 pc=0xc0001000 inst=0x4c000064 tb=%d "
         "handler=1 guest=%d flags=H,G\n", tb + 10, sec * 1000000 - tb - 11);
#undef EXIT
    snprintf(path, len, "%s/%s", test_tmp_dir(), name);
    CU_ASSERT_EQUAL_FATAL(tracetext_pack_buf(name, text, n, path), SIM_OK);
}

static exitprof g_p, g_q;

/* Durations 1, 2, 3 s. EMULINST 10, 20, 30: 10/s (on the line, no
 * scatter). ITLBVIRT 5, 5, 5: 0. DTLBVIRT 7, 5, 3: falls, 0. SYSCALL 10,
 * 14, 15: slope 2.5 but t = 2.5 / 0.866 = 2.9, below the 12.7 of one
 * degree of freedom: 0. DEC 1, 2, 3: the host's clock drives it, 0. The
 * guest ticks: 4 mtspr TSR in the first, 4 per second. EMUL_RFI (one a
 * run) and EMUL_MTSPR (4, 8, 12: 4/s) follow. */
static void test_wall_rates_of_three_recordings(void)
{
    char a[512], b[512], c[512];
    recording("wall1.bin", 1, 10, 5, 7, 10, 1, 4, a, sizeof a);
    recording("wall2.bin", 2, 20, 5, 5, 14, 2, 8, b, sizeof b);
    recording("wall3.bin", 3, 30, 5, 3, 15, 3, 12, c, sizeof c);
    memset(&g_p, 0, sizeof g_p);
    snprintf(g_p.workload, sizeof g_p.workload, "w");
    const char *const runs[] = {a, b, c};
    CU_ASSERT_EQUAL_FATAL(exitprof_wall(&g_p, runs, 3), SIM_OK);
    CU_ASSERT_EQUAL(g_p.nwall, 3);
    CU_ASSERT_DOUBLE_EQUAL(g_p.wallrun[0].seconds, 1.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(g_p.wallrun[2].seconds, 3.0, 1e-9);
    CU_ASSERT_EQUAL(g_p.wallrun[1].ticks, 8);
    CU_ASSERT_EQUAL(g_p.wallrun[0].exits, 10 + 5 + 7 + 10 + 1 + 4 + 1);
    CU_ASSERT_DOUBLE_EQUAL(g_p.wall_hz, 4.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(g_p.wall[EXIT_EMULINST], 10.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(g_p.wall[EXIT_EMUL_MTSPR], 4.0, 1e-9);
    CU_ASSERT_EQUAL(g_p.wall[EXIT_ITLBVIRT], 0);
    CU_ASSERT_EQUAL(g_p.wall[EXIT_DTLBVIRT], 0);
    CU_ASSERT_EQUAL(g_p.wall[EXIT_SYSCALL], 0);
    CU_ASSERT_EQUAL(g_p.wall[EXIT_DEC], 0);
    CU_ASSERT_EQUAL(g_p.wall[EXIT_EMUL_RFI], 0);
    /* another workload's recording, or too few, are refused, and the
     * profile keeps its rates */
    snprintf(g_p.workload, sizeof g_p.workload, "other");
    CU_ASSERT_EQUAL(exitprof_wall(&g_p, runs, 3), SIM_ERR_FORMAT);
    CU_ASSERT_EQUAL(exitprof_wall(&g_p, runs, 2), SIM_ERR_USAGE);
    CU_ASSERT_DOUBLE_EQUAL(g_p.wallrun[0].seconds, 1.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(g_p.wall[EXIT_EMULINST], 10.0, 1e-9);
}

/* A profile as written before the wall lines (101 run quantiles). */
static char old_prof[1024];
static void make_old_prof(void)
{
    size_t n = (size_t)snprintf(old_prof, sizeof old_prof,
                                "# sim440 exit profile v2\nname old\nsource "
                                "s\nassumes a\nexits 3\ntype EMULINST 3 0\n"
                                "word EMULINST 0x7c7042a6 3\nrunq");
    for (int q = 0; q < XP_RUNQ; q++)
        n += (size_t)snprintf(old_prof + n, sizeof old_prof - n, " %d", q);
    snprintf(old_prof + n, sizeof old_prof - n, "\n");
}

/* A profile made before the wall lines still loads, with no rates; one
 * written with them reads back the same rates; bad wall lines name their
 * line. */
static void test_text_old_and_new(void)
{
    make_old_prof();
    CU_ASSERT_EQUAL_FATAL(
        exitprof_parse(&g_q, old_prof, strlen(old_prof), "old.prof"), SIM_OK);
    CU_ASSERT_EQUAL(g_q.nwall, 0);
    for (int t = 0; t < EXIT__COUNT; t++)
        CU_ASSERT_EQUAL(g_q.wall[t], 0);
    /* g_q + the rates of the three recordings, written and read back */
    g_q.nwall = 3;
    memcpy(g_q.wallrun, g_p.wallrun, sizeof g_q.wallrun);
    g_q.wall_hz = 4;
    g_q.wall[EXIT_EMULINST] = 10;
    g_q.wall[EXIT_ITLBVIRT] = 1234.5;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    exitprof_write(f, &g_q);
    fclose(f);
    static exitprof r;
    CU_ASSERT_EQUAL(exitprof_parse(&r, buf, len, "new.prof"), SIM_OK);
    CU_ASSERT_EQUAL(r.nwall, 3);
    CU_ASSERT_DOUBLE_EQUAL(r.wallrun[2].seconds, 3.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(r.wall_hz, 4.0, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(r.wall[EXIT_EMULINST], 10.0, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(r.wall[EXIT_ITLBVIRT], 1234.5, 1e-3);
    CU_ASSERT_EQUAL(r.wall[EXIT_DTLBVIRT], 0);
    /* the old lines are what they were: the text starts with the old */
    CU_ASSERT(len > strlen(old_prof));
    free(buf);
    static const char *const bad[] = {"wall DEC 5\n", "wall EMULINST -1\n",
                                      "wall EMULINST\n", "wallhz x\n",
                                      "wallrun 0 1 1\n",
                                      /* decimal only: %llu took -1 as
                                       * 2^64 - 1, strtod took hex */
                                      "wallrun 2.5 -1 100\n",
                                      "wallrun 2.5 10 +100\n",
                                      "wall EMULINST 0x10\n",
                                      "wallhz 0x96\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char t[2048];
        int n = snprintf(t, sizeof t, "%s%s", old_prof, bad[i]);
        CU_ASSERT_EQUAL(exitprof_parse(&r, t, (size_t)n, "bad.prof"),
                        SIM_ERR_FORMAT);
        CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "bad.prof:9:"));
    }
}

/* A second wall line of one type, or a second wallhz, is refused at its
 * line (the last one read replaced the first without a word); two types
 * on two lines are fine. */
static void test_text_duplicate_wall_lines(void)
{
    make_old_prof();
    static const char *const dup[] = {
        "wall ITLBVIRT 6116\nwall ITLBVIRT 100\n",
        "wallhz 150\nwallhz 91\n",
    };
    static exitprof r;
    char t[2048];
    for (size_t i = 0; i < sizeof dup / sizeof dup[0]; i++) {
        int n = snprintf(t, sizeof t, "%s%s", old_prof, dup[i]);
        CU_ASSERT_EQUAL(exitprof_parse(&r, t, (size_t)n, "dup.prof"),
                        SIM_ERR_FORMAT);
        CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "dup.prof:10: a second"));
    }
    int n = snprintf(t, sizeof t,
                     "%swall ITLBVIRT 6116\nwall DTLBVIRT 3\n"
                     "wallrun 1.5e-05 1 100\n",
                     old_prof);
    CU_ASSERT_EQUAL_FATAL(exitprof_parse(&r, t, (size_t)n, "two.prof"),
                          SIM_OK);
    CU_ASSERT_DOUBLE_EQUAL(r.wall[EXIT_ITLBVIRT], 6116.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r.wall[EXIT_DTLBVIRT], 3.0, 1e-9);
}

/* The built-in profiles carry their rates; a trace names its profile. */
static void test_builtin_and_trace_profile(void)
{
    static exitprof p;
    CU_ASSERT_EQUAL_FATAL(exitprof_load(&p, "boot"), SIM_OK);
    CU_ASSERT_EQUAL(p.nwall, 3);
    CU_ASSERT_STRING_EQUAL(exitprof_of_trace(2, "boot"), "boot");
    CU_ASSERT_STRING_EQUAL(exitprof_of_trace(1, "like:linux-boot"),
                           "linux-boot");
    CU_ASSERT_PTR_NULL(exitprof_of_trace(1, "synth:boot"));
    CU_ASSERT_PTR_NULL(exitprof_of_trace(2, "fib"));
    CU_ASSERT_PTR_NULL(exitprof_of_trace(4, "boot"));
}

/* ---- the guest's refill handlers (seq lines) ---- */

#define SPRG0W "0x7d5043a6" /* mtspr SPRG0,r10 */
#define TLBWE "0x7d4d07a4"  /* tlbwe r10,r13,0 */
#define RFI "0x4c000064"

/* A plain (flat) recording: three DTLBREAL misses whose handler is mtspr
 * SPRG0, tlbwe, rfi (a host-handled DTLBVIRT inside one of them does not
 * break it); a DTLBREAL whose handler meets a SYSCALL before its rfi (left
 * the leaf path); an ITLBREAL whose handler runs 33 emulations (longer
 * than XP_SEQ_LEN); one ITLBREAL with tlbwe, rfi; an emulation outside any
 * handler. */
static void test_refill_handlers_of_a_recording(void)
{
    static char text[16384];
    size_t n = (size_t)snprintf(
        text, sizeof text,
        "header version=1 source=cpu440 tb_hz=1000000 core_hz=1000000 "
        "workload=\"w\" tool_version=\"t\" cost_label=\"flat-default\"\n");
    int tb = 0;
#define EX(type, inst)                                                         \
    n += (size_t)snprintf(text + n, sizeof text - n,                         \
                          "exit " type " irq=6 pc=0xc0001000 inst=" inst      \
                          " tb=%d handler=1 guest=1 flags=H,G\n",              \
                          tb += 10)
    for (int i = 0; i < 3; i++) {
        EX("DTLBREAL", "0");
        EX("EMULINST", SPRG0W);
        if (i == 1)
            EX("DTLBVIRT", "0");
        EX("EMUL_TLBWE", TLBWE);
        EX("EMUL_RFI", RFI);
    }
    EX("DTLBREAL", "0");
    EX("EMULINST", SPRG0W);
    EX("SYSCALL", "0x44000002");
    EX("EMUL_RFI", RFI);
    EX("ITLBREAL", "0");
    for (int i = 0; i < 33; i++)
        EX("EMULINST", SPRG0W);
    EX("EMUL_RFI", RFI);
    EX("ITLBREAL", "0");
    EX("EMUL_TLBWE", TLBWE);
    EX("EMUL_RFI", RFI);
    EX("EMULINST", "0x7c7042a6");
#undef EX
    char path[512];
    snprintf(path, sizeof path, "%s/refill.bin", test_tmp_dir());
    CU_ASSERT_EQUAL_FATAL(tracetext_pack_buf("refill", text, n, path),
                          SIM_OK);
    static exitprof p, r;
    CU_ASSERT_EQUAL_FATAL(exitprof_build(&p, path, "refill", "s", "a"),
                          SIM_OK);
    CU_ASSERT_EQUAL(p.count[EXIT_DTLBREAL], 4);
    CU_ASSERT_EQUAL_FATAL(p.nseq[EXIT_DTLBREAL], 1);
    const xp_seq *d = &p.seq[EXIT_DTLBREAL][0];
    CU_ASSERT_EQUAL(d->count, 3);
    CU_ASSERT_EQUAL_FATAL(d->len, 3);
    CU_ASSERT_EQUAL(d->type[0], EXIT_EMULINST);
    CU_ASSERT_EQUAL(d->word[0], 0x7d5043a6u);
    CU_ASSERT_EQUAL(d->type[1], EXIT_EMUL_TLBWE);
    CU_ASSERT_EQUAL(d->word[2], 0x4c000064u);
    CU_ASSERT_EQUAL_FATAL(p.nseq[EXIT_ITLBREAL], 1);
    CU_ASSERT_EQUAL(p.seq[EXIT_ITLBREAL][0].count, 1);
    CU_ASSERT_EQUAL(p.seq[EXIT_ITLBREAL][0].len, 2);
    CU_ASSERT_EQUAL(p.nseq[EXIT_SYSCALL], 0);
    /* written and read back */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    exitprof_write(f, &p);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "seq DTLBREAL 3 EMULINST:0x7d5043a6 "
                                       "EMUL_TLBWE:0x7d4d07a4 "
                                       "EMUL_RFI:0x4c000064\n"));
    CU_ASSERT_EQUAL_FATAL(exitprof_parse(&r, buf, len, "rt.prof"), SIM_OK);
    CU_ASSERT_EQUAL(r.nseq[EXIT_DTLBREAL], 1);
    CU_ASSERT(memcmp(&r.seq[EXIT_DTLBREAL][0], d, sizeof *d) == 0);
    CU_ASSERT(memcmp(&r.seq[EXIT_ITLBREAL][0], &p.seq[EXIT_ITLBREAL][0],
                     sizeof *d) == 0);
    free(buf);
}

/* Bad seq lines name their line; seq lines holding more misses than the
 * type line are refused. */
static void test_text_bad_seq_lines(void)
{
    make_old_prof();
    static const char *const bad[] = {
        "seq DSI 1 EMUL_RFI:" RFI "\n",            /* not a refill miss */
        "seq DTLBREAL 1 EMUL_TLBWE:" TLBWE "\n",   /* no rfi at its end */
        "seq DTLBREAL 0 EMUL_RFI:" RFI "\n",       /* no misses */
        "seq DTLBREAL -1 EMUL_RFI:" RFI "\n",
        "seq DTLBREAL 1 DSI:" RFI "\n",            /* not an emulation */
        "seq DTLBREAL 1 EMUL_RFI:" RFI " EMUL_TLBWE:" TLBWE "\n",
        "seq DTLBREAL 1 EMUL_RFI:4c000064\n",      /* no 0x */
        "seq DTLBREAL 1 EMUL_RFI:0x14c000064\n",   /* not 32 bits */
        "seq DTLBREAL 1 EMUL_RFI " RFI "\n",
    };
    static exitprof r;
    char t[4096];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int n = snprintf(t, sizeof t, "%s%s", old_prof, bad[i]);
        CU_ASSERT_EQUAL(exitprof_parse(&r, t, (size_t)n, "bad.prof"),
                        SIM_ERR_FORMAT);
        CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "bad.prof:9:"));
    }
    /* 33 exits */
    size_t n = (size_t)snprintf(t, sizeof t, "%sseq DTLBREAL 1", old_prof);
    for (int i = 0; i < 32; i++)
        n += (size_t)snprintf(t + n, sizeof t - n, " EMUL_TLBWE:" TLBWE);
    n += (size_t)snprintf(t + n, sizeof t - n, " EMUL_RFI:" RFI "\n");
    CU_ASSERT_EQUAL(exitprof_parse(&r, t, n, "long.prof"), SIM_ERR_FORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "long.prof:9:"));
    /* the type line says 2 misses, the seq lines 3 */
    n = (size_t)snprintf(t, sizeof t,
                         "%stype DTLBREAL 2 0\nseq DTLBREAL 2 EMUL_RFI:" RFI
                         "\nseq DTLBREAL 1 EMUL_TLBWE:" TLBWE " EMUL_RFI:" RFI
                         "\n",
                         old_prof);
    CU_ASSERT_EQUAL(exitprof_parse(&r, t, n, "sum.prof"), SIM_ERR_FORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "DTLBREAL hold 3 misses"));
}

/* A seq count beyond 64 bits, or two whose sum passes 2^64 (it wrapped to
 * 1, under the type line's 5), are refused; the sum check names the last
 * seq line of the miss type. */
static void test_text_seq_huge_counts(void)
{
    make_old_prof();
    static const struct {
        const char *seq, *where;
    } bad[] = {
        {"seq DTLBREAL 99999999999999999999999 EMUL_RFI:" RFI "\n",
         "huge.prof:10:"},
        {"seq DTLBREAL 18446744073709551615 EMUL_RFI:" RFI
         "\nseq DTLBREAL 2 EMUL_TLBWE:" TLBWE " EMUL_RFI:" RFI "\n",
         "huge.prof:11:"},
        {"seq DTLBREAL 4 EMUL_RFI:" RFI "\nseq DTLBREAL 2 EMUL_TLBWE:" TLBWE
         " EMUL_RFI:" RFI "\n",
         "huge.prof:11: the seq lines of DTLBREAL hold 6 misses"},
    };
    static exitprof r;
    char t[4096];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int n = snprintf(t, sizeof t, "%stype DTLBREAL 5 0\n%s", old_prof,
                         bad[i].seq);
        CU_ASSERT_EQUAL(exitprof_parse(&r, t, (size_t)n, "huge.prof"),
                        SIM_ERR_FORMAT);
        CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), bad[i].where));
    }
}

/* A seq line's pairs may be separated by several spaces and followed by
 * spaces (and a CR), as the other lines' numbers may. */
static void test_text_seq_spaces(void)
{
    make_old_prof();
    static exitprof r;
    char t[4096];
    static const char *const seqs[] = {
        "seq DTLBREAL 2  EMUL_TLBWE:" TLBWE "   EMUL_RFI:" RFI "\n",
        "seq DTLBREAL 2 EMUL_TLBWE:" TLBWE " EMUL_RFI:" RFI "  \n",
        "seq DTLBREAL 2 EMUL_TLBWE:" TLBWE " EMUL_RFI:" RFI " \r\n",
    };
    for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++) {
        int n = snprintf(t, sizeof t, "%stype DTLBREAL 5 0\n%s", old_prof,
                         seqs[i]);
        CU_ASSERT_EQUAL_FATAL(exitprof_parse(&r, t, (size_t)n, "sp.prof"),
                              SIM_OK);
        CU_ASSERT_EQUAL(r.nseq[EXIT_DTLBREAL], 1);
        CU_ASSERT_EQUAL(r.seq[EXIT_DTLBREAL][0].count, 2);
        CU_ASSERT_EQUAL(r.seq[EXIT_DTLBREAL][0].len, 2);
        CU_ASSERT_EQUAL(r.seq[EXIT_DTLBREAL][0].word[1], 0x4c000064u);
    }
}

/* The profile of the synth tests: 100 DTLBREAL misses, 80 with the
 * handler mtspr SPRG0, tlbwe, rfi, 20 with none kept; emulations: 500
 * mfspr SPRG0 (none in a handler), the handler's 80 mtspr SPRG0, 80 tlbwe
 * and 80 rfi (all in it); DTLBVIRT. */
static void synth_profile_text(char *t, size_t cap)
{
    size_t n = (size_t)snprintf(
        t, cap,
        "name h\nsource s\nassumes a\nexits 1840\n"
        "type DTLBREAL 100 0\ntype DTLBVIRT 1000 0\ntype EMULINST 580 0\n"
        "type EMUL_TLBWE 80 0\ntype EMUL_RFI 80 0\n"
        "word EMULINST 0x7c7042a6 500\nword EMULINST " SPRG0W " 80\n"
        "word EMUL_TLBWE " TLBWE " 80\nword EMUL_RFI " RFI " 80\n"
        "seq DTLBREAL 80 EMULINST:" SPRG0W " EMUL_TLBWE:" TLBWE
        " EMUL_RFI:" RFI "\nrunq");
    for (int q = 0; q < XP_RUNQ; q++)
        n += (size_t)snprintf(t + n, cap - n, " 10");
    snprintf(t + n, cap - n, "\n");
}

/* Writes synth --like of table t with profile p and options o (the trace
 * NAME.bin in the test directory) and reads its exits back in order:
 * types and words (at most cap); returns how many exits it has. */
static size_t like_exits(const char *name, const table *t, const exitprof *p,
                         const synth_opts *o, synth_like_report *rep,
                         uint8_t *types, uint32_t *words, size_t cap)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.bin", test_tmp_dir(), name);
    CU_ASSERT_EQUAL_FATAL(synth_like_write(path, t, p, o, rep), SIM_OK);
    trace_reader *rd;
    CU_ASSERT_EQUAL_FATAL(trace_reader_open(&rd, path), SIM_OK);
    size_t k = 0, n = 0;
    for (;;) {
        const trace_rec *recs;
        size_t m;
        CU_ASSERT_EQUAL_FATAL(trace_reader_next(rd, &recs, &m), SIM_OK);
        if (!m)
            break;
        for (size_t i = 0; i < m; i++)
            if (recs[i].kind == TREC_EXIT) {
                n++;
                if (k < cap) {
                    types[k] = recs[i].type;
                    words[k++] = recs[i].inst;
                }
            }
    }
    trace_reader_close(rd);
    return n;
}

/* synth --like of a pre-3.0 table (EMULINST holds every emulation) with
 * DTLBREAL rows: returns the trace's exits in order (types and words). */
static size_t synth_handlers(const char *table_text, const char *name,
                             uint8_t *types, uint32_t *words, size_t cap,
                             synth_like_report *rep, bool rows_3x,
                             uint64_t seed)
{
    static char pt[8192];
    synth_profile_text(pt, sizeof pt);
    static exitprof p;
    CU_ASSERT_EQUAL_FATAL(exitprof_parse(&p, pt, strlen(pt), "h.prof"),
                          SIM_OK);
    table t;
    CU_ASSERT_EQUAL_FATAL(table_parse(&t, table_text, strlen(table_text),
                                      TFMT_KVM, name),
                          SIM_OK);
    synth_opts o = {.seed = seed, .spr_rows_3x = rows_3x};
    return like_exits(name, &t, &p, &o, rep, types, words, cap);
}

/* A kvm table of rows (name, count), every exit 1 usec, TIMEINGUEST one
 * per exit. */
static const char *table_of(const char *const *names, const int *counts,
                            int n)
{
    static char t[2048];
    int total = 0;
    for (int i = 0; i < n; i++)
        total += counts[i];
    size_t k = (size_t)snprintf(t, sizeof t,
                                "unit is usec\ntraced duration %d usec\n"
                                "type count min max sum avg stddev time%%\n",
                                2 * total);
    for (int i = 0; i <= n; i++) {
        const char *name = i < n ? names[i] : "TIMEINGUEST";
        int c = i < n ? counts[i] : total;
        k += (size_t)snprintf(t + k, sizeof t - k, "%s %d 1 1 %d 1 0 %.2f\n",
                              name, c, c, 100.0 * c / (2.0 * total));
    }
    return t;
}

/* Each miss the profile gives a handler to is followed by the handler's
 * exits, in order; the rows' counts are the table's exactly; the words
 * drawn outside handlers are the ones no handler holds (the profile's
 * 500 mfspr SPRG0: no tlbwe or rfi outside a handler). 100 misses, 80% of
 * them with a handler: 80 +- 4 (1 sd). */
static void test_synth_like_refill_handlers(void)
{
    static uint8_t ty[20000];
    static uint32_t wd[20000];
    synth_like_report rep;
    static const char *const names[] = {"DTLBREAL", "DTLBVIRT", "EMULINST"};
    const char *tbl = table_of(names, (const int[]){100, 3000, 2000}, 3);
    size_t n = synth_handlers(tbl, "handlers", ty, wd, 20000, &rep, false, 3);
    CU_ASSERT_EQUAL_FATAL(n, 5100);
    CU_ASSERT(rep.handlers >= 60 && rep.handlers <= 96);
    CU_ASSERT_EQUAL(rep.handler_exits, 3 * rep.handlers);
    CU_ASSERT_EQUAL(rep.count[EXIT_EMULINST], 2000);
    CU_ASSERT_EQUAL(rep.count[EXIT_DTLBREAL], 100);
    size_t miss = 0, followed = 0, emul = 0, outside_tlbwe = 0;
    for (size_t i = 0; i < n; i++) {
        if (ty[i] == EXIT_DTLBREAL) {
            miss++;
            if (i + 3 < n &&
                ty[i + 1] == EXIT_EMULINST && wd[i + 1] == 0x7d5043a6u &&
                ty[i + 2] == EXIT_EMUL_TLBWE && ty[i + 3] == EXIT_EMUL_RFI) {
                followed++;
                i += 3;
                emul += 3;
            }
            continue;
        }
        if (exit_is_emul((exit_type)ty[i]) || ty[i] == EXIT_EMULINST) {
            emul++;
            outside_tlbwe += ty[i] != EXIT_EMULINST || wd[i] != 0x7c7042a6u;
        }
    }
    CU_ASSERT_EQUAL(miss, 100);
    CU_ASSERT_EQUAL(followed, rep.handlers);
    CU_ASSERT_EQUAL(emul, 2000);
    CU_ASSERT_EQUAL(outside_tlbwe, 0);
}

/* A table whose emulations are fewer than its misses' handlers would take
 * (100 misses x 0.8 x 3 = 240 > 120): each miss gets its handler with
 * probability 120 / 240, the row ends at the table's count. */
static void test_synth_like_handlers_short_row(void)
{
    static uint8_t ty[4000];
    static uint32_t wd[4000];
    synth_like_report rep;
    static const char *const names[] = {"DTLBREAL", "DTLBVIRT", "EMULINST"};
    const char *tbl = table_of(names, (const int[]){100, 1000, 120}, 3);
    size_t n = synth_handlers(tbl, "short", ty, wd, 4000, &rep, false, 3);
    CU_ASSERT_EQUAL(n, 1220);
    CU_ASSERT_EQUAL(rep.count[EXIT_EMULINST], 120);
    CU_ASSERT(rep.handlers >= 25 && rep.handlers <= 55);
    CU_ASSERT(rep.handler_exits <= 120);
}

/* A table with EMUL_* rows holding more tlbwe and rfi than the handlers
 * take (200 each, the handlers ~80): the others are drawn from the
 * profile's words of the row, here all in the handler (tlbwe, rfi), not
 * written without an instruction word. */
static void test_synth_like_row_words_all_in_handlers(void)
{
    static uint8_t ty[4000];
    static uint32_t wd[4000];
    synth_like_report rep;
    static const char *const names[] = {"DTLBREAL", "DTLBVIRT", "EMULINST",
                                        "EMUL_TLBWE", "EMUL_RFI"};
    const char *tbl = table_of(names, (const int[]){100, 1000, 600, 200, 200},
                               5);
    size_t n = synth_handlers(tbl, "allinh", ty, wd, 4000, &rep, false, 3);
    CU_ASSERT_EQUAL_FATAL(n, 2100);
    CU_ASSERT(rep.handlers > 60);
    size_t tlbwe = 0, rfi = 0, bad = 0;
    for (size_t i = 0; i < n; i++) {
        tlbwe += ty[i] == EXIT_EMUL_TLBWE;
        rfi += ty[i] == EXIT_EMUL_RFI;
        bad += (ty[i] == EXIT_EMUL_TLBWE && wd[i] != 0x7d4d07a4u) ||
               (ty[i] == EXIT_EMUL_RFI && wd[i] != 0x4c000064u);
    }
    CU_ASSERT_EQUAL(tlbwe, 200);
    CU_ASSERT_EQUAL(rfi, 200);
    CU_ASSERT_EQUAL(bad, 0);
}

/* A table short of one row the handlers need (40 tlbwe for ~80 handlers,
 * 200 rfi): a handler is written whole or not at all, never a tlbwe-less
 * mtspr, rfi; over eight seeds, each row still ends at its count. */
static void test_synth_like_handlers_whole(void)
{
    static uint8_t ty[4000];
    static uint32_t wd[4000];
    synth_like_report rep;
    static const char *const names[] = {"DTLBREAL", "DTLBVIRT", "EMULINST",
                                        "EMUL_TLBWE", "EMUL_RFI"};
    const char *tbl = table_of(names, (const int[]){100, 1000, 600, 40, 200},
                               5);
    for (uint64_t seed = 1; seed <= 8; seed++) {
        size_t n = synth_handlers(tbl, "whole", ty, wd, 4000, &rep, false,
                                  seed);
        CU_ASSERT_EQUAL_FATAL(n, 1940);
        CU_ASSERT_EQUAL(rep.count[EXIT_EMUL_TLBWE], 40);
        CU_ASSERT_EQUAL(rep.count[EXIT_EMUL_RFI], 200);
        CU_ASSERT(rep.handlers >= 25);
        CU_ASSERT_EQUAL(rep.handler_exits, 3 * rep.handlers);
        /* the handler's mtspr SPRG0 is never drawn outside it */
        size_t broken = 0;
        for (size_t i = 0; i < n; i++)
            if (ty[i] == EXIT_EMULINST && wd[i] == 0x7d5043a6u)
                broken += !(i > 0 && i + 2 < n && ty[i - 1] == EXIT_DTLBREAL &&
                            ty[i + 1] == EXIT_EMUL_TLBWE &&
                            ty[i + 2] == EXIT_EMUL_RFI);
        CU_ASSERT_EQUAL(broken, 0);
    }
}

/* A table with EMUL_* rows: under 2.6.29-2.6.37's rows (cpu440's) the
 * profile's mtspr/mfspr SPRG0 stay EMULINST; under 3.0+'s they are
 * EMUL_MTSPR / EMUL_MFSPR exits (handlers' and the others alike), and
 * the EMULINST row carries none. */
static void test_synth_like_rows_3x(void)
{
    static uint8_t ty[20000];
    static uint32_t wd[20000];
    synth_like_report rep;
    static const char *const names[] = {"DTLBREAL", "DTLBVIRT", "EMULINST",
                                        "EMUL_MTSPR", "EMUL_MFSPR",
                                        "EMUL_TLBWE", "EMUL_RFI"};
    const int counts[] = {100, 3000, 10, 80, 500, 80, 80};
    for (int mode = 0; mode < 2; mode++) {
        const char *tbl = table_of(names, counts, 7);
        size_t n = synth_handlers(tbl, mode ? "rows3x" : "rows26", ty, wd,
                                  20000, &rep, mode == 1, 3);
        CU_ASSERT_EQUAL_FATAL(n, 3850);
        size_t spr_in_emulinst = 0, mtspr_sprg0 = 0, mfspr_sprg0 = 0;
        for (size_t i = 0; i < n; i++) {
            spr_in_emulinst += ty[i] == EXIT_EMULINST &&
                               (wd[i] == 0x7d5043a6u || wd[i] == 0x7c7042a6u);
            mtspr_sprg0 += ty[i] == EXIT_EMUL_MTSPR && wd[i] == 0x7d5043a6u;
            mfspr_sprg0 += ty[i] == EXIT_EMUL_MFSPR && wd[i] == 0x7c7042a6u;
        }
        CU_ASSERT_EQUAL(rep.count[EXIT_EMUL_MTSPR], 80);
        CU_ASSERT_EQUAL(rep.count[EXIT_EMUL_MFSPR], 500);
        CU_ASSERT_EQUAL(rep.count[EXIT_EMULINST], 10);
        if (mode) {
            CU_ASSERT_EQUAL(spr_in_emulinst, 0);
            /* the profile's EMULINST words are all mfspr/mtspr: under
             * 3.0+'s rows the EMULINST row has none, and says so */
            CU_ASSERT_EQUAL(rep.nwordless, 1);
            CU_ASSERT_EQUAL(rep.wordless[0], EXIT_EMULINST);
            /* every mtspr SPRG0 of the profile is a handler's */
            CU_ASSERT(rep.handlers > 60);
            CU_ASSERT_EQUAL(mtspr_sprg0, rep.handlers);
            CU_ASSERT_EQUAL(mfspr_sprg0, 500);
        } else {
            CU_ASSERT_EQUAL(rep.nwordless, 0);
            CU_ASSERT_EQUAL(spr_in_emulinst, 10);
            CU_ASSERT_EQUAL(mtspr_sprg0 + mfspr_sprg0, 0);
        }
    }
}

/* synth --like of a one-row (folded) EMULINST table with the profile
 * "w": 9,900 mfspr SPRG0 and 100 idle waits (mtmsr MSR[WE]), no misses;
 * the table's guest time is guest_usec over its 10,000 entries. Returns
 * the idle waits written; rep as written. */
static uint64_t synth_waits_gt(double max, double avg, double sd,
                               double guest_hz, uint64_t seed,
                               double guest_usec, synth_like_report *rep)
{
    static char pt[4096];
    size_t n = (size_t)snprintf(
        pt, sizeof pt,
        "name w\nsource s\nassumes a\nexits 10000\n"
        "type EMULINST 9900 0\ntype EMUL_WAIT 100 0\n"
        "word EMULINST 0x7c7042a6 9900\nword EMUL_WAIT 0x7c600124 100\n"
        "runq");
    for (int q = 0; q < XP_RUNQ; q++)
        n += (size_t)snprintf(pt + n, sizeof pt - n, " 10");
    snprintf(pt + n, sizeof pt - n, "\n");
    static exitprof p;
    CU_ASSERT_EQUAL_FATAL(exitprof_parse(&p, pt, strlen(pt), "w.prof"),
                          SIM_OK);
    /* EMULINST: 10000 exits from 10 usec; TIMEINGUEST guest_usec */
    char tt[512];
    double sum = 10000 * avg, traced = sum + guest_usec;
    snprintf(tt, sizeof tt,
             "unit is usec\ntraced duration %.0f usec\n"
             "type count min max sum avg stddev time%%\n"
             "EMULINST 10000 10 %.0f %.0f %.4f %.4f %.2f\n"
             "TIMEINGUEST 10000 0 %.0f %.0f %.4f 0.5 %.2f\n",
             traced, max, sum, avg, sd, 100 * sum / traced,
             2 * guest_usec / 10000, guest_usec, guest_usec / 10000,
             100 * guest_usec / traced);
    table t;
    CU_ASSERT_EQUAL_FATAL(table_parse(&t, tt, strlen(tt), TFMT_KVM, "w"),
                          SIM_OK);
    synth_opts o = {.seed = seed, .guest_hz = guest_hz};
    static uint8_t ty[10000];
    static uint32_t wd[10000];
    size_t exits = like_exits("waits", &t, &p, &o, rep, ty, wd, 10000);
    uint64_t waits = 0;
    for (size_t i = 0; i < exits && i < 10000; i++)
        waits += ty[i] == EXIT_EMUL_WAIT;
    CU_ASSERT_EQUAL(exits, 10000);
    CU_ASSERT_EQUAL(rep->count[EXIT_EMULINST], 10000);
    CU_ASSERT_EQUAL(rep->waits[EXIT_EMULINST], waits);
    return waits;
}

/* ... with 1 s of guest time: a run long enough for 100 tick periods of
 * 10 ms and more, so that one wait a period does not bind */
static uint64_t synth_waits(double max, double avg, double sd,
                            double guest_hz, uint64_t seed,
                            synth_like_report *rep)
{
    return synth_waits_gt(max, avg, sd, guest_hz, seed, 1e6, rep);
}

/* A table whose EMULINST row has no room for an idle wait (max 46 usec,
 * stddev 3.4: one wait to a 100 Hz tick, ~5 ms, would alone make its
 * stddev ~50): none is written, where the profile's share gave ~100 (as
 * synth --like of the Linux guest's table with the boot profile drew 55
 * waits of ~5.7 ms each). */
static void test_synth_like_no_room_for_waits(void)
{
    synth_like_report rep;
    uint64_t w = synth_waits(46, 17.6, 3.4, 100, 1, &rep);
    CU_ASSERT_EQUAL(w, 0);
    CU_ASSERT(rep.waits_share[EXIT_EMULINST] > 95 &&
              rep.waits_share[EXIT_EMULINST] < 105);
    CU_ASSERT(rep.waits_bound[EXIT_EMULINST] < 0.5);
}

/* Room for about 40 waits (N stddev^2 / (T/2 - avg)^2 at T = 10 ms:
 * 10000 x 313^2 / 4940^2 = 40.1; the time above the minimum holds 100):
 * 40 written, for every seed. With room
 * for all of them, the profile's share (1% of 10000) is written exactly
 * for every seed (drawn one by one, the count was binomial: 100 +- 10),
 * and without a tick rate there is no bound. */
static void test_synth_like_waits_bounded_and_counted(void)
{
    synth_like_report rep;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        CU_ASSERT_EQUAL(synth_waits(9000, 60, 313, 100, seed, &rep), 40);
        CU_ASSERT(fabs(rep.waits_bound[EXIT_EMULINST] - 40.15) < 0.05);
        CU_ASSERT_EQUAL(synth_waits(9000, 60, 3000, 100, seed, &rep), 100);
        CU_ASSERT_EQUAL(synth_waits(46, 17.6, 3.4, 0, seed, &rep), 100);
        CU_ASSERT(isinf(rep.waits_bound[EXIT_EMULINST]));
        /* a wait ends at a tick: a 0.62 s table (0.6 s of it the row's)
         * holds 62 periods of 10 ms, so 62 waits, not the share's 100 */
        CU_ASSERT_EQUAL(
            synth_waits_gt(9000, 60, 3000, 100, seed, 20000, &rep), 62);
        CU_ASSERT(fabs(rep.waits_bound[EXIT_EMULINST] - 62) < 1e-9);
    }
}

/* synth --like of a one-row (folded) EMULINST table of 10,000 exits whose
 * TIMEINGUEST row books `avg` usec an interval (stddev sd), with the
 * profile "r": guest runs spread evenly from 0 to 1,000 instructions
 * (quantile q runs 10 q). The trace's runs, timed as the cycle model does
 * at its defaults (the entry's stub, tail and refills + guest_cpi x run,
 * at 667 MHz) and booked as the table's kernel did (whole usec each, or
 * ticks summed): their mean and stddev in *mean, *sd, their mean length
 * in *insns. */
static void synth_runs(double avg, double sd, bool ticks_summed,
                       synth_like_report *rep, double *mean, double *sdev,
                       double *insns)
{
    static char pt[4096];
    size_t n = (size_t)snprintf(
        pt, sizeof pt,
        "name r\nsource s\nassumes a\nexits 10000\n"
        "type EMULINST 10000 0\nword EMULINST 0x7c7042a6 10000\nrunq");
    for (int q = 0; q < XP_RUNQ; q++)
        n += (size_t)snprintf(pt + n, sizeof pt - n, " %d", 10 * q);
    snprintf(pt + n, sizeof pt - n, "\n");
    static exitprof p;
    CU_ASSERT_EQUAL_FATAL(exitprof_parse(&p, pt, strlen(pt), "r.prof"),
                          SIM_OK);
    char tt[512];
    snprintf(tt, sizeof tt,
             "unit is usec\ntraced duration %.0f usec\n"
             "type count min max sum avg stddev time%%\n"
             "EMULINST 10000 10 40 200000 20.0000 5.00 50\n"
             "TIMEINGUEST 10000 0 100000 %.0f %.4f %.3f 50\n",
             200000 + 10000 * avg, 10000 * avg, avg, sd);
    table t;
    CU_ASSERT_EQUAL_FATAL(table_parse(&t, tt, strlen(tt), TFMT_KVM, "r"),
                          SIM_OK);
    synth_opts o = {.seed = 1, .ticks_summed = ticks_summed};
    char path[512];
    snprintf(path, sizeof path, "%s/runs.bin", test_tmp_dir());
    CU_ASSERT_EQUAL_FATAL(synth_like_write(path, &t, &p, &o, rep), SIM_OK);
    static params par;
    params_init(&par);
    cost_model *m;
    CU_ASSERT_EQUAL_FATAL(cost_new_units(&m, &par), SIM_OK);
    trace_reader *rd;
    CU_ASSERT_EQUAL_FATAL(trace_reader_open(&rd, path), SIM_OK);
    double s1 = 0, s2 = 0, si = 0, k = 0;
    for (;;) {
        const trace_rec *recs;
        size_t m_;
        CU_ASSERT_EQUAL_FATAL(trace_reader_next(rd, &recs, &m_), SIM_OK);
        if (!m_)
            break;
        for (size_t i = 0; i < m_; i++) {
            if (recs[i].kind != TREC_EXIT)
                continue;
            uint64_t run = recs[i].guest;
            double c = (double)cost_guest_entry(m, (exit_type)recs[i].type,
                                                run) +
                       floor(P(&par, guest_cpi) * (double)run + 0.5);
            double us = ticks_summed ? c / 667 : floor(c / 667);
            s1 += us;
            s2 += us * us;
            si += (double)run;
            k++;
        }
    }
    trace_reader_close(rd);
    cost_free(m);
    CU_ASSERT_EQUAL(k, 10000);
    *mean = s1 / k;
    *sdev = sqrt(s2 / k - *mean * *mean);
    *insns = si / k;
}

/* The trace's runs are the profile's, unscaled (mean 500 instructions). */
static void assert_profile_runs(const synth_like_report *rep, double insns)
{
    CU_ASSERT_EQUAL(rep->run_scale, 1);
    CU_ASSERT_EQUAL(rep->run_power, 1);
    CU_ASSERT(fabs(insns - 500) < 15);
}

/* A table whose guest time a plausible guest CPI gives the profile's runs
 * (they book ~1.7 usec an interval at the default 1.5; 2.0 needs a CPI
 * near 2): the profile's runs, unscaled (mean 500 instructions). */
static void test_synth_like_runs_kept_where_a_cpi_fits(void)
{
    synth_like_report rep;
    double mean, sd, insns;
    synth_runs(2.0, 3.0, false, &rep, &mean, &sd, &insns);
    CU_ASSERT_EQUAL(rep.runs, SYNTH_RUNS_KEPT);
    assert_profile_runs(&rep, insns);
    CU_ASSERT(rep.runs_lo < 2.0 && rep.runs_hi > 2.0);
    CU_ASSERT(fabs(mean - rep.runs_profile) < 0.05);
}

/* A guest whose intervals book 100 usec (stddev 80): no CPI of the band
 * makes the profile's runs do that; the runs are stretched (and their
 * spread set) so that the trace's intervals, timed at the model's
 * defaults, book the table's avg and stddev. Without the rule they booked
 * ~1.7 usec, and the fit could not reach the table (the audit's
 * idle-some guest: -66% on its own table). The same with 3.1+ accounting
 * (ticks summed, no truncation). */
static void test_synth_like_runs_sized_to_the_table(void)
{
    for (int acct = 0; acct < 2; acct++) {
        synth_like_report rep;
        double mean, sd, insns;
        synth_runs(100, 80, acct, &rep, &mean, &sd, &insns);
        CU_ASSERT_EQUAL(rep.runs, SYNTH_RUNS_SCALED);
        CU_ASSERT(rep.runs_hi < 100);
        CU_ASSERT(fabs(mean - 100) < 2);
        CU_ASSERT(fabs(sd - 80) < 4);
        CU_ASSERT(fabs(rep.runs_booked - 100) < 1);
        CU_ASSERT(insns > 20000);
    }
}

/* A 3.1+ table whose intervals book less than the entry alone (stub, tail
 * and the first refills, ~0.7 usec at 667 MHz): no run length explains
 * it, the profile's runs are kept and the report says so. */
static void test_synth_like_runs_shorter_than_the_entry(void)
{
    synth_like_report rep;
    double mean, sd, insns;
    synth_runs(0.3, 0.2, true, &rep, &mean, &sd, &insns);
    CU_ASSERT_EQUAL(rep.runs, SYNTH_RUNS_ENTRY);
    assert_profile_runs(&rep, insns);
    CU_ASSERT(rep.runs_booked > 0.6);
}

static CU_TestInfo tests[] = {
    {"slope and its error by hand", test_slope_by_hand},
    {"wall rates of three recordings", test_wall_rates_of_three_recordings},
    {"text: old profile loads, new lines round-trip",
     test_text_old_and_new},
    {"text: a second wall or wallhz line is refused",
     test_text_duplicate_wall_lines},
    {"built-in rates, a trace's profile", test_builtin_and_trace_profile},
    {"refill handlers of a recording", test_refill_handlers_of_a_recording},
    {"text: bad seq lines", test_text_bad_seq_lines},
    {"text: huge seq counts", test_text_seq_huge_counts},
    {"text: spaces in seq lines", test_text_seq_spaces},
    {"synth --like: handlers follow their misses",
     test_synth_like_refill_handlers},
    {"synth --like: a row too short for the handlers",
     test_synth_like_handlers_short_row},
    {"synth --like: a row's words all in the handlers",
     test_synth_like_row_words_all_in_handlers},
    {"synth --like: a handler whole or not at all",
     test_synth_like_handlers_whole},
    {"synth --like: 3.0+ rows hold every mfspr/mtspr",
     test_synth_like_rows_3x},
    {"synth --like: no idle wait where the row has no room",
     test_synth_like_no_room_for_waits},
    {"synth --like: idle waits bounded by the row, a count",
     test_synth_like_waits_bounded_and_counted},
    {"synth --like: the profile's runs where a guest CPI fits",
     test_synth_like_runs_kept_where_a_cpi_fits},
    {"synth --like: runs sized to the table's guest time",
     test_synth_like_runs_sized_to_the_table},
    {"synth --like: a table booking less than the entry",
     test_synth_like_runs_shorter_than_the_entry},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("exitprof", tests)
