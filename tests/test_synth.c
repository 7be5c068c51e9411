/* Tests of the synthetic trace generator (model/synth): determinism, the
 * exit mix and per-type distributions of the profile, and profile errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "synth.h"
#include "testlib.h"

static void synth_to(const char *name, uint64_t exits, uint64_t seed,
                     char *out, size_t cap)
{
    snprintf(out, cap, "%s/synth_%s.bin", test_tmp_dir(), name);
    synth_profile p;
    CU_ASSERT_FATAL(synth_profile_default(&p) == SIM_OK);
    synth_opts o = {.exits = exits, .seed = seed};
    CU_ASSERT_FATAL(synth_write(out, &p, &o) == SIM_OK);
}

static void test_same_seed_same_bytes(void)
{
    char a[512], b[512];
    synth_to("a", 20000, 7, a, sizeof a);
    synth_to("b", 20000, 7, b, sizeof b);
    size_t na, nb;
    unsigned char *x = test_slurp(a, &na), *y = test_slurp(b, &nb);
    CU_ASSERT_FATAL(x && y);
    CU_ASSERT_EQUAL(na, nb);
    CU_ASSERT(na == nb && memcmp(x, y, na) == 0);
    free(x);
    free(y);
}

static void test_other_seed_other_bytes(void)
{
    char a[512], b[512];
    synth_to("c", 1000, 1, a, sizeof a);
    synth_to("d", 1000, 2, b, sizeof b);
    size_t na, nb;
    unsigned char *x = test_slurp(a, &na), *y = test_slurp(b, &nb);
    CU_ASSERT_FATAL(x && y);
    CU_ASSERT(na != nb || memcmp(x, y, na) != 0);
    free(x);
    free(y);
}

/* 300k exits of the default (seed no-PV) profile, replayed in usec mode */
static stats s;
static synth_profile prof;

static int ready = -1;

static int replay_default(void)
{
    if (ready >= 0)
        return ready;
    char p[512];
    snprintf(p, sizeof p, "%s/synth_mix.bin", test_tmp_dir());
    if (synth_profile_default(&prof) != SIM_OK)
        return 1;
    synth_opts o = {.exits = 300000, .seed = 42};
    if (synth_write(p, &prof, &o) != SIM_OK)
        return 1;
    replay_opts ro = {.unit = STATS_USEC, .ticks = REPLAY_MEASURED};
    replay_result res;
    ready = replay_file(p, &ro, &s, &res) == SIM_OK ? 0 : 1;
    return ready;
}

static void test_exit_mix_follows_profile(void)
{
    CU_ASSERT_FATAL(replay_default() == 0);
    double total = 0, n = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        total += prof.weight[i];
    for (int i = 0; i < EXIT__COUNT; i++)
        if (i != EXIT_TIMEINGUEST)
            n += (double)s.rows[i].count;
    /* EMULINST is 64.24 % of the seed's exits; binomial sd at 300k ~0.09 % */
    double want = prof.weight[EXIT_EMULINST] / total;
    double got = (double)s.rows[EXIT_EMULINST].count / n;
    CU_ASSERT_DOUBLE_EQUAL(got, want, 0.005);
    want = prof.weight[EXIT_DTLBREAL] / total;
    got = (double)s.rows[EXIT_DTLBREAL].count / n;
    CU_ASSERT_DOUBLE_EQUAL(got, want, 0.002);
    CU_ASSERT_EQUAL(s.rows[EXIT_HCALL].count, 0); /* never hit in the seed */
}

static void test_durations_follow_profile(void)
{
    /* rows with a light tail: mean within 2 %, bounds respected */
    CU_ASSERT_FATAL(replay_default() == 0);
    int rows[] = {EXIT_DTLBREAL, EXIT_ITLBREAL, EXIT_DSI, EXIT_ISI};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        const stats_row *r = &s.rows[rows[k]];
        const synth_dist *d = &prof.dist[rows[k]];
        CU_ASSERT_FATAL(r->count > 100);
        double avg = (double)r->sum / (double)r->count;
        CU_ASSERT_DOUBLE_EQUAL(avg, d->avg, d->avg * 0.02);
        CU_ASSERT((double)r->min >= d->min);
        CU_ASSERT((double)r->max <= d->max);
    }
}

static void test_profile_needs_guest_time(void)
{
    table t;
    table_init(&t);
    t.rows[EXIT_DEC].present = true;
    t.rows[EXIT_DEC].count = 10;
    t.rows[EXIT_DEC].min = 50;
    t.rows[EXIT_DEC].max = 60;
    t.rows[EXIT_DEC].avg = 55;
    t.rows[EXIT_DEC].stddev = 1;
    synth_profile p;
    CU_ASSERT_EQUAL(synth_profile_from_table(&p, &t, "x"), SIM_ERR_FORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "TIMEINGUEST"));
}

static void test_profile_rejects_avg_below_min(void)
{
    table t;
    table_init(&t);
    t.rows[EXIT_DEC] = (table_row){.present = true, .count = 10, .min = 50,
                                   .max = 60, .avg = 40, .stddev = 1};
    t.rows[EXIT_TIMEINGUEST] = (table_row){.present = true, .count = 10,
                                           .min = 0, .max = 9, .avg = 1,
                                           .stddev = 1};
    synth_profile p;
    CU_ASSERT_EQUAL(synth_profile_from_table(&p, &t, "x"), SIM_ERR_RANGE);
}

static CU_TestInfo tests[] = {
    {"same seed, same bytes", test_same_seed_same_bytes},
    {"other seed, other bytes", test_other_seed_other_bytes},
    {"exit mix follows the profile", test_exit_mix_follows_profile},
    {"durations follow the profile", test_durations_follow_profile},
    {"a profile needs TIMEINGUEST", test_profile_needs_guest_time},
    {"a profile rejects avg below min", test_profile_rejects_avg_below_min},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("synth", tests)
