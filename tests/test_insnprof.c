/* test_insnprof: the emulation exits by instruction word
 * (`sim replay --by-insn`, model/insnprof.h) on hand-made records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "insnprof.h"
#include "testlib.h"

/* timebase 100 MHz: 100 ticks a usec */
#define TB_HZ 100000000ull

static trace_rec emul(exit_type t, uint32_t inst)
{
    return (trace_rec){.kind = TREC_EXIT, .type = (uint8_t)t, .inst = inst};
}

static const insnprof_row *row_of(const insnprof *p, uint32_t inst)
{
    for (int i = 0; i < p->n; i++)
        if (p->rows[i].inst == inst)
            return &p->rows[i];
    return NULL;
}

/* Each sample is truncated to usec (2.6.29) before it is added; an exit is
 * counted when the next one comes, so the last is in no line; state
 * records and non-emulation exits are in none either. */
static void test_samples_charged_as_the_kernel_does(void)
{
    static insnprof p;
    insnprof_init(&p, true, TB_HZ);
    trace_rec mfmsr = emul(EXIT_EMUL_MFMSR, 0x7c6000a6u);
    trace_rec gtlb = {.kind = TREC_GTLB_WRITE};
    trace_rec miss = {.kind = TREC_EXIT, .type = EXIT_DTLBVIRT};
    insnprof_add(&p, &mfmsr, 1099); /* 10.99 usec: 10 */
    insnprof_add(&p, &gtlb, 0);
    insnprof_add(&p, &mfmsr, 250); /* 2 */
    insnprof_add(&p, &miss, 5000);
    insnprof_add(&p, &mfmsr, 700); /* the last exit: not charged */
    const insnprof_row *r = row_of(&p, 0x7c6000a6u);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->count, 2);
    CU_ASSERT_EQUAL(r->sum, 12);
    CU_ASSERT_EQUAL(p.exits, 2);
    CU_ASSERT_EQUAL(p.n, 1);
    /* 3.1: ticks added */
    insnprof_init(&p, false, TB_HZ);
    insnprof_add(&p, &mfmsr, 1099);
    insnprof_add(&p, &mfmsr, 250);
    insnprof_add(&p, &miss, 1);
    CU_ASSERT_EQUAL(p.sum, 1349);
}

/* The lines are the distinctions pv's patching makes: an mfspr per SPR,
 * wrteei 0 apart from wrteei 1, idle's mtmsr apart from the others; user
 * mode and wordless exits on lines of their own. */
static void test_lines_are_what_pv_tells_apart(void)
{
    static insnprof p;
    insnprof_init(&p, true, TB_HZ);
    uint32_t words[] = {
        0x7c7042a6u, /* mfspr r3,SPRG0 */
        0x7c7a02a6u, /* mfspr r3,SRR0 */
        0x7c7042a6u, /* mfspr r3,SPRG0 again */
        0x7c000146u, /* wrteei 0 */
        0x7c008146u, /* wrteei 1 */
        0x7c7603a6u, /* mtspr DEC,r3 */
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        trace_rec r = emul(EXIT_EMULINST, words[i]);
        insnprof_add(&p, &r, 100);
    }
    trace_rec wait = emul(EXIT_EMUL_WAIT, 0x7c600124u);
    trace_rec mtmsr = emul(EXIT_EMUL_MTMSR, 0x7c600124u);
    trace_rec user = emul(EXIT_EMULINST, 0x7c6000a6u);
    user.flags = TRF_GUEST_PR;
    trace_rec none = emul(EXIT_EMULINST, 0);
    trace_rec end = {.kind = TREC_EXIT, .type = EXIT_SYSCALL};
    insnprof_add(&p, &wait, 100);
    insnprof_add(&p, &mtmsr, 100);
    insnprof_add(&p, &user, 100);
    insnprof_add(&p, &none, 100);
    insnprof_add(&p, &end, 100);
    CU_ASSERT_EQUAL(p.n, 7); /* SPRG0, SRR0, wrteei 0/1, DEC, mtmsr x2 */
    CU_ASSERT_EQUAL(row_of(&p, 0x7c7042a6u)->count, 2);
    CU_ASSERT_EQUAL(p.user, 1);
    CU_ASSERT_EQUAL(p.no_word, 1);
    CU_ASSERT_EQUAL(p.exits, 10);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    insnprof_write(f, &p);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "# mfspr SPRG0 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "lwz of the page (removed)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "# wrteei 0 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "# wrteei 1 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "template (traps if an interrupt is "
                                       "pending)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "# mtspr DEC "));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "template, traps (MSR[WE])"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "# (user mode) "));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "# (no word) "));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, ": 10 exits, their handlers 10 usec"));
    free(buf);
}

static CU_TestInfo tests[] = {
    {"samples charged as the kernel does",
     test_samples_charged_as_the_kernel_does},
    {"lines are what pv tells apart", test_lines_are_what_pv_tells_apart},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("insnprof", tests)
