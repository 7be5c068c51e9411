/* guest_stages: the guest-side stages of an entry in round numbers, so
 * that a test can work TIMEINGUEST out by hand (test_cost, test_whatif):
 * stub 32 instructions + 4 cold lines, tail 22 + 3 lines, a line refill
 * 10 cycles, at most 8 guest lines, a shadow TLB refill 3 cycles. */
#ifndef GUEST_STAGES_H
#define GUEST_STAGES_H

#include "params.h"

static inline void test_guest_stages(params *p)
{
    P(p, stub_insns) = 32;
    P(p, entry_tail_insns) = 22;
    P(p, stub_code_lines) = 4;
    P(p, tail_code_lines) = 3;
    P(p, icache_miss_cycles) = 10;
    P(p, guest_code_lines) = 8;
    P(p, shadow_refill_cycles) = 3;
}

#endif
