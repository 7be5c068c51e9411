/* Tests of the exit-timing accounting (model/stats): the kernel's booking
 * one exit late, the skipped first cycle, both unit conventions and the
 * invariants. Timebase 667 MHz unless said. */
#include <math.h>

#include "stats.h"
#include "testlib.h"

#define TB 667000000ULL
#define US 667ULL /* ticks per usec */

/* exit at tb, handled for h ticks, then the guest runs until the next */
static void cycle(stats *s, uint64_t tb, int type, uint64_t h)
{
    stats_exit(s, tb, type);
    stats_enter(s, tb + h);
}

static void test_first_cycle_skipped(void)
{
    stats s;
    stats_init(&s, STATS_TICKS, TB);
    cycle(&s, 1000, EXIT_DEC, 50);
    for (int i = 0; i < EXIT__COUNT; i++)
        CU_ASSERT_EQUAL(s.rows[i].count, 0);
    CU_ASSERT_EQUAL(s.exits, 1);
}

static void test_exit_charged_at_next_exit(void)
{
    stats s;
    stats_init(&s, STATS_TICKS, TB);
    cycle(&s, 1000, EXIT_DTLBVIRT, 300);
    cycle(&s, 2000, EXIT_EMULINST, 100);
    /* DTLBVIRT: 1000 -> 1300; guest: 1300 -> 2000 */
    CU_ASSERT_EQUAL(s.rows[EXIT_DTLBVIRT].count, 1);
    CU_ASSERT_EQUAL(s.rows[EXIT_DTLBVIRT].sum, 300);
    CU_ASSERT_EQUAL(s.rows[EXIT_TIMEINGUEST].count, 1);
    CU_ASSERT_EQUAL(s.rows[EXIT_TIMEINGUEST].sum, 700);
    /* the second exit is not charged until a third one */
    CU_ASSERT_EQUAL(s.rows[EXIT_EMULINST].count, 0);
}

static void test_usec_mode_truncates_each_sample(void)
{
    stats s;
    stats_init(&s, STATS_USEC, TB);
    uint64_t h = 19 * US / 10; /* 1.9 usec */
    cycle(&s, 0 + 1, EXIT_SYSCALL, h);
    cycle(&s, 10 * US, EXIT_SYSCALL, h);
    cycle(&s, 20 * US, EXIT_SYSCALL, h);
    CU_ASSERT_EQUAL(s.rows[EXIT_SYSCALL].count, 2);
    CU_ASSERT_EQUAL(s.rows[EXIT_SYSCALL].sum, 2); /* 1 + 1, not 3.8 */
    CU_ASSERT_EQUAL(s.rows[EXIT_SYSCALL].max, 1);
}

static void test_ticks_mode_keeps_fractions(void)
{
    stats s;
    stats_init(&s, STATS_TICKS, TB);
    uint64_t h = 19 * US / 10;
    cycle(&s, 1, EXIT_SYSCALL, h);
    cycle(&s, 10 * US, EXIT_SYSCALL, h);
    cycle(&s, 20 * US, EXIT_SYSCALL, h);
    table t;
    stats_to_table(&s, &t);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[EXIT_SYSCALL].sum, 2.0 * h / US, 1e-9);
}

static void test_min_max_sum_sq(void)
{
    stats s;
    stats_init(&s, STATS_TICKS, TB);
    uint64_t tb = 100;
    uint64_t hs[] = {30, 10, 20};
    for (int i = 0; i < 3; i++) {
        cycle(&s, tb, EXIT_MMIO, hs[i]);
        tb += 1000;
    }
    cycle(&s, tb, EXIT_MMIO, 5);
    const stats_row *r = &s.rows[EXIT_MMIO];
    CU_ASSERT_EQUAL(r->count, 3);
    CU_ASSERT_EQUAL(r->min, 10);
    CU_ASSERT_EQUAL(r->max, 30);
    CU_ASSERT_EQUAL(r->sum, 60);
    CU_ASSERT((uint64_t)r->sum_sq == 900 + 100 + 400);
}

static void test_sum_sq_does_not_overflow_64_bits(void)
{
    stats s;
    stats_init(&s, STATS_TICKS, TB);
    /* four samples of 2^32-1 ticks: sum of squares ~ 2^66 */
    for (int i = 0; i < 4; i++)
        stats_add(&s, EXIT_EXTINT, 0xffffffffULL);
    stats_u128 want = (stats_u128)0xffffffffULL * 0xffffffffULL * 4;
    CU_ASSERT(s.rows[EXIT_EXTINT].sum_sq == want);
    CU_ASSERT(want > (stats_u128)UINT64_MAX);
}

static void test_invariants_hold_on_ordered_run(void)
{
    stats s;
    stats_init(&s, STATS_TICKS, TB);
    uint64_t tb = 5000;
    for (int i = 0; i < 100; i++) {
        cycle(&s, tb, i % 3 ? EXIT_EMULINST : EXIT_ITLBVIRT, 40 + i);
        tb += 200 + 3 * i;
    }
    CU_ASSERT_EQUAL(stats_check(&s, NULL), SIM_OK);
    uint64_t sum = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        sum += s.rows[i].sum;
    CU_ASSERT_EQUAL(sum, stats_traced_ticks(&s));
}

static void test_invariants_hold_in_usec_mode(void)
{
    stats s;
    stats_init(&s, STATS_USEC, TB);
    uint64_t tb = 5000;
    for (int i = 0; i < 1000; i++) {
        cycle(&s, tb, EXIT_DTLBVIRT, 17 * US + 331);
        tb += 30 * US + 7 * (uint64_t)i;
    }
    CU_ASSERT_EQUAL(stats_check(&s, NULL), SIM_OK);
}

static void test_time_going_back_fails_check(void)
{
    stats s;
    stats_init(&s, STATS_TICKS, TB);
    cycle(&s, 1000, EXIT_DEC, 100);
    cycle(&s, 2000, EXIT_DEC, 100);
    cycle(&s, 1500, EXIT_DEC, 100); /* before the last entry */
    CU_ASSERT_EQUAL(stats_check(&s, NULL), SIM_ERR_CHECK);
    CU_ASSERT_EQUAL(s.first_order_error_index, 2);
}

static void test_exit_without_entry_fails_check(void)
{
    stats s;
    stats_init(&s, STATS_TICKS, TB);
    cycle(&s, 1000, EXIT_DEC, 100);
    stats_exit(&s, 2000, EXIT_DEC); /* no entry */
    cycle(&s, 3000, EXIT_DEC, 100);
    CU_ASSERT_EQUAL(stats_check(&s, NULL), SIM_ERR_CHECK);
}

static void test_table_is_in_usec(void)
{
    stats s;
    stats_init(&s, STATS_TICKS, TB);
    cycle(&s, 0 + 7, EXIT_DSI, 11 * US);
    cycle(&s, 100 * US, EXIT_DSI, 13 * US);
    cycle(&s, 200 * US, EXIT_DSI, 13 * US);
    table t;
    stats_to_table(&s, &t);
    CU_ASSERT_TRUE(t.rows[EXIT_DSI].present);
    CU_ASSERT_EQUAL(t.rows[EXIT_DSI].count, 2);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[EXIT_DSI].min, 11.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[EXIT_DSI].max, 13.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[EXIT_DSI].avg, 12.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t.rows[EXIT_DSI].stddev, 1.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t.traced_usec, (200.0 * US - 7) / US, 1e-9);
    CU_ASSERT_FALSE(t.rows[EXIT_DEC].present);
}

static CU_TestInfo tests[] = {
    {"first incomplete cycle is skipped", test_first_cycle_skipped},
    {"an exit is charged at the next exit", test_exit_charged_at_next_exit},
    {"usec mode truncates each sample", test_usec_mode_truncates_each_sample},
    {"ticks mode keeps fractions", test_ticks_mode_keeps_fractions},
    {"min max sum sum_sq", test_min_max_sum_sq},
    {"sum_sq has 128 bits", test_sum_sq_does_not_overflow_64_bits},
    {"invariants hold on an ordered run", test_invariants_hold_on_ordered_run},
    {"invariants hold in usec mode", test_invariants_hold_in_usec_mode},
    {"time going back fails the check", test_time_going_back_fails_check},
    {"exit without entry fails the check", test_exit_without_entry_fails_check},
    {"table values are usec", test_table_is_in_usec},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("stats", tests)
