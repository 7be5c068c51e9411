/* Tests of the replay pipeline (model/replay): measured ticks through the
 * accounting, the timeline consistency check, the refusal to invent ticks,
 * and the cost-model hook the cycle model plugs into. */
#include <stdio.h>
#include <string.h>

#include "replay.h"
#include "testlib.h"

#define TB 667000000ULL

static char path[512];

static void tmp_path(const char *name)
{
    snprintf(path, sizeof path, "%s/replay_%s.bin", test_tmp_dir(), name);
}

static trace_header hdr(void)
{
    trace_header h;
    memset(&h, 0, sizeof h);
    h.source = TSRC_TEXT;
    h.tb_hz = TB;
    h.core_hz = TB;
    snprintf(h.workload, sizeof h.workload, "unit-test");
    snprintf(h.cost_label, sizeof h.cost_label, "measured");
    return h;
}

/* n exits, handler 100*(i%5+1), guest 1000; tb consistent unless `skew` */
static void write_trace(const char *name, int n, bool with_ticks, int skew_at)
{
    tmp_path(name);
    trace_header h = hdr();
    trace_writer *w;
    CU_ASSERT_FATAL(trace_writer_open(&w, path, &h) == SIM_OK);
    uint64_t tb = 1000;
    for (int i = 0; i < n; i++) {
        trace_rec r = {.kind = TREC_EXIT,
                       .type = (uint8_t)(i % 2 ? EXIT_EMUL_MFMSR
                                               : EXIT_DTLBVIRT),
                       .irq = (uint8_t)(i % 2 ? 6 : 13)};
        r.tb = tb + (i == skew_at ? 5 : 0);
        if (with_ticks || i != n / 2) {
            r.flags = TRF_HANDLER_KNOWN | TRF_GUEST_KNOWN;
            r.handler = 100u * (uint32_t)(i % 5 + 1);
            r.guest = 1000;
        }
        tb += (uint64_t)r.handler + r.guest;
        CU_ASSERT_FATAL(trace_writer_put(w, &r) == SIM_OK);
        if (i % 10 == 0) { /* a state event between exits */
            trace_rec g = {.kind = TREC_GTLB_WRITE, .type = 3, .tb = tb};
            CU_ASSERT_FATAL(trace_writer_put(w, &g) == SIM_OK);
        }
    }
    CU_ASSERT_FATAL(trace_writer_close(w) == SIM_OK);
}

static void test_measured_ticks_are_accounted(void)
{
    write_trace("measured", 1000, true, -1);
    replay_opts o = {.unit = STATS_TICKS, .ticks = REPLAY_MEASURED};
    static stats s;
    replay_result res;
    CU_ASSERT_EQUAL_FATAL(replay_file(path, &o, &s, &res), SIM_OK);
    CU_ASSERT_EQUAL(res.exits, 1000);
    CU_ASSERT_EQUAL(res.state_events, 100);
    CU_ASSERT_EQUAL(res.tb_mismatches, 0);
    /* 999 exits charged: 500 DTLBVIRT (even i), 499 EMUL_MFMSR */
    CU_ASSERT_EQUAL(s.rows[EXIT_DTLBVIRT].count, 500);
    CU_ASSERT_EQUAL(s.rows[EXIT_EMUL_MFMSR].count, 499);
    CU_ASSERT_EQUAL(s.rows[EXIT_TIMEINGUEST].count, 999);
    CU_ASSERT_EQUAL(s.rows[EXIT_TIMEINGUEST].sum, 999 * 1000);
    CU_ASSERT_EQUAL(s.rows[EXIT_DTLBVIRT].min, 100);
    CU_ASSERT_EQUAL(s.rows[EXIT_DTLBVIRT].max, 500);
    CU_ASSERT_EQUAL(stats_check(&s, NULL), SIM_OK);
}

static void test_inconsistent_timestamps_are_counted(void)
{
    write_trace("skew", 100, true, 40);
    replay_opts o = {.unit = STATS_TICKS, .ticks = REPLAY_MEASURED};
    static stats s;
    replay_result res;
    CU_ASSERT_EQUAL_FATAL(replay_file(path, &o, &s, &res), SIM_OK);
    /* record 40 is late, so 40 and 41 disagree with their predecessors */
    CU_ASSERT_EQUAL(res.tb_mismatches, 2);
    CU_ASSERT_EQUAL(res.first_tb_mismatch, 40 + 4); /* 4 state events before */
}

static void test_missing_ticks_are_refused(void)
{
    write_trace("noticks", 100, false, -1);
    replay_opts o = {.unit = STATS_USEC, .ticks = REPLAY_MEASURED};
    static stats s;
    replay_result res;
    CU_ASSERT_EQUAL(replay_file(path, &o, &s, &res), SIM_ERR_UNSUPP);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "record 55"));
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "no measured"));
}

typedef struct toy {
    int begun;
    uint64_t state_seen;
} toy;

static sim_err toy_begin(void *ctx, const trace_header *h)
{
    (void)h;
    ((toy *)ctx)->begun++;
    return SIM_OK;
}

static sim_err toy_cost(void *ctx, const trace_rec *r, uint32_t *handler,
                        uint32_t *guest)
{
    if (r->kind != TREC_EXIT) {
        ((toy *)ctx)->state_seen++;
        return SIM_OK;
    }
    *handler = r->type == EXIT_DTLBVIRT ? 250 : 120;
    *guest = 800;
    return SIM_OK;
}

static void test_cost_model_rebuilds_timeline(void)
{
    write_trace("model", 100, false, -1);
    toy t = {0};
    replay_cost_model m = {"toy", &t, toy_begin, toy_cost, NULL};
    replay_opts o = {.unit = STATS_TICKS, .ticks = REPLAY_MODEL, .model = &m};
    static stats s;
    replay_result res;
    CU_ASSERT_EQUAL_FATAL(replay_file(path, &o, &s, &res), SIM_OK);
    CU_ASSERT_EQUAL(t.begun, 1);
    CU_ASSERT_EQUAL(t.state_seen, 10);
    CU_ASSERT_EQUAL(s.rows[EXIT_DTLBVIRT].sum, 50 * 250);
    CU_ASSERT_EQUAL(s.rows[EXIT_EMUL_MFMSR].sum, 49 * 120);
    CU_ASSERT_EQUAL(s.rows[EXIT_TIMEINGUEST].sum, 99 * 800);
    CU_ASSERT_EQUAL(stats_check(&s, NULL), SIM_OK);
}

static void test_missing_file_names_it(void)
{
    replay_opts o = {.unit = STATS_USEC, .ticks = REPLAY_MEASURED};
    static stats s;
    replay_result res;
    CU_ASSERT_NOT_EQUAL(replay_file("no-such-trace.bin", &o, &s, &res),
                        SIM_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "no-such-trace.bin"));
}


/* a cost model that returns the trace's own ticks */
static sim_err echo_cost(void *ctx, const trace_rec *r, uint32_t *handler,
                         uint32_t *guest)
{
    (void)ctx;
    *handler = r->handler;
    *guest = r->guest;
    return SIM_OK;
}

static void test_fast_path_equals_generic_accounting(void)
{
    /* the measured fast path keeps the kernel's bookkeeping in locals; it
     * must give exactly what stats_exit/stats_enter give, in both units */
    write_trace("equal", 3 * 65536 + 17, true, -1);
    replay_cost_model m = {"echo", NULL, NULL, echo_cost, NULL};
    for (int u = 0; u < 2; u++) {
        stats_unit unit = u ? STATS_TICKS : STATS_USEC;
        replay_opts a = {.unit = unit, .ticks = REPLAY_MEASURED};
        replay_opts b = {.unit = unit, .ticks = REPLAY_MODEL, .model = &m};
        static stats sa, sb;
        replay_result ra, rb;
        CU_ASSERT_EQUAL_FATAL(replay_file(path, &a, &sa, &ra), SIM_OK);
        CU_ASSERT_EQUAL_FATAL(replay_file(path, &b, &sb, &rb), SIM_OK);
        CU_ASSERT(memcmp(sa.rows, sb.rows, sizeof sa.rows) == 0);
        CU_ASSERT_EQUAL(sa.exits, sb.exits);
        CU_ASSERT_EQUAL(sa.entries, sb.entries);
        CU_ASSERT_EQUAL(sa.last_exit, sb.last_exit);
        CU_ASSERT_EQUAL(stats_check(&sa, NULL), SIM_OK);
    }
}

static void test_usec_division_is_exact(void)
{
    stats s;
    stats_init(&s, STATS_USEC, 667000000ULL);
    uint64_t v[] = {0, 1, 666, 667, 668, 1333, 1334, 667ULL * 1000000 - 1,
                    667ULL * 1000000, 0xffffffffULL, 1ULL << 52,
                    (1ULL << 52) + 666};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        CU_ASSERT_EQUAL(stats_ticks_to_usec(&s, v[i]), v[i] / 667);
}

/* rows_3x: the EMULINST mfspr/mtspr (SRR0, SPRG0: 2.6.29-2.6.37's
 * EMULINST) are accounted in EMUL_MFSPR/EMUL_MTSPR, as a 3.0+ kernel
 * counts them; an EMULINST of another word, and the rows of the trace
 * left as they are, are not moved; without the option nothing moves. */
static void test_rows_3x(void)
{
    tmp_path("rows3x");
    trace_header h = hdr();
    trace_writer *w;
    CU_ASSERT_FATAL(trace_writer_open(&w, path, &h) == SIM_OK);
    static const struct {
        exit_type t;
        uint32_t inst;
    } ex[] = {{EXIT_EMULINST, 0x7c7a02a6u},   /* mfspr SRR0 */
              {EXIT_EMULINST, 0x7c7043a6u},   /* mtspr SPRG0 */
              {EXIT_EMULINST, 0x7c00078cu},   /* not an SPR access */
              {EXIT_EMUL_MTSPR, 0x7c700ba6u}, /* PID */
              {EXIT_DTLBVIRT, 0},
              {EXIT_DTLBVIRT, 0}}; /* the last: charged by no next exit */
    uint64_t tb = 1000;
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        trace_rec r = {.kind = TREC_EXIT, .type = (uint8_t)ex[i].t,
                       .irq = 6, .inst = ex[i].inst, .tb = tb,
                       .flags = TRF_HANDLER_KNOWN | TRF_GUEST_KNOWN,
                       .handler = 100, .guest = 1000};
        tb += 1100;
        CU_ASSERT_FATAL(trace_writer_put(w, &r) == SIM_OK);
    }
    CU_ASSERT_FATAL(trace_writer_close(w) == SIM_OK);
    static stats s;
    replay_result res;
    replay_opts o = {.unit = STATS_TICKS, .ticks = REPLAY_MEASURED};
    CU_ASSERT_EQUAL_FATAL(replay_file(path, &o, &s, &res), SIM_OK);
    CU_ASSERT_EQUAL(s.rows[EXIT_EMULINST].count, 3);
    CU_ASSERT_EQUAL(s.rows[EXIT_EMUL_MTSPR].count, 1);
    CU_ASSERT_EQUAL(s.rows[EXIT_EMUL_MFSPR].count, 0);
    o.rows_3x = true;
    CU_ASSERT_EQUAL_FATAL(replay_file(path, &o, &s, &res), SIM_OK);
    CU_ASSERT_EQUAL(s.rows[EXIT_EMULINST].count, 1);
    CU_ASSERT_EQUAL(s.rows[EXIT_EMUL_MFSPR].count, 1);
    CU_ASSERT_EQUAL(s.rows[EXIT_EMUL_MTSPR].count, 2);
    CU_ASSERT_EQUAL(s.rows[EXIT_DTLBVIRT].count, 1);
    CU_ASSERT_EQUAL(s.rows[EXIT_EMUL_MFSPR].sum, 100);
    CU_ASSERT_EQUAL(stats_check(&s, NULL), SIM_OK);
}

static CU_TestInfo tests[] = {
    {"rows_3x: mfspr/mtspr in their 3.0+ rows", test_rows_3x},
    {"measured ticks are accounted", test_measured_ticks_are_accounted},
    {"inconsistent timestamps are counted",
     test_inconsistent_timestamps_are_counted},
    {"missing ticks are refused with the record", test_missing_ticks_are_refused},
    {"a cost model rebuilds the timeline", test_cost_model_rebuilds_timeline},
    {"a missing file is named", test_missing_file_names_it},
    {"fast path equals generic accounting",
     test_fast_path_equals_generic_accounting},
    {"usec division is exact", test_usec_division_is_exact},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("replay", tests)
