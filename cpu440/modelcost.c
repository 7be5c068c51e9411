/* modelcost: the cycle model (model/cost.h, docs/kvm440.md §8) pricing
 * cpu440's exits while they are recorded, in the order a replay would feed
 * it (the exit, then the state records of its handling). */
#include <stdint.h>

#include "cost.h"
#include "cpu440.h"

static uint32_t cap32(uint64_t x)
{
    return x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
}

/* cost_exit is given the guest run before this exit (the next one is not
 * known yet): it only keeps the model's clock and cache decay going. The
 * guest's own instructions are timed by cpu440, so the model's guest stage
 * is taken out of the guest ticks returned, and its idle estimate out of
 * EMUL_WAIT (cpu440 measured the idle time). */
static void model_exit(void *ctx, const trace_rec *r, uint64_t insns,
                       uint32_t *handler, uint32_t *guest_extra)
{
    cost_model *m = ctx;
    exit_type t = (exit_type)r->type;
    uint64_t w0 = cost_stage_sum(m, t, CSTAGE_wait);
    uint64_t g0 = cost_stage_sum(m, t, CSTAGE_guest);
    uint64_t h, g;
    cost_guest_before(m, insns); /* the warmth this exit finds */
    cost_exit(m, r, insns, &h, &g);
    uint64_t wait = cost_stage_sum(m, t, CSTAGE_wait) - w0;
    uint64_t own = cost_stage_sum(m, t, CSTAGE_guest) - g0;
    *handler = cap32(cost_to_ticks(m, h > wait ? h - wait : 0));
    *guest_extra = cap32(cost_to_ticks(m, g > own ? g - own : 0));
}

static void model_state(void *ctx, const trace_rec *r)
{
    cost_state(ctx, r);
}

void cpu440_model_coster(cpu440_coster *k, struct cost_model *m)
{
    *k = (cpu440_coster){m, model_exit, model_state};
}
