/* Tests of the exit profile's wall-time rates (model/exitprof,
 * docs/calibration.md): the slope and its error by hand, the rates of
 * three small hand-made recordings, the text form's new lines, and an
 * older profile without them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "exitprof.h"
#include "testlib.h"
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

static CU_TestInfo tests[] = {
    {"slope and its error by hand", test_slope_by_hand},
    {"wall rates of three recordings", test_wall_rates_of_three_recordings},
    {"text: old profile loads, new lines round-trip",
     test_text_old_and_new},
    {"text: a second wall or wallhz line is refused",
     test_text_duplicate_wall_lines},
    {"built-in rates, a trace's profile", test_builtin_and_trace_profile},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("exitprof", tests)
