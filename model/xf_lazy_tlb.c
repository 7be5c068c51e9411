/* xf_lazy_tlb: 2.6.28's shadow TLB policy on today's trace (docs/whatif.md
 * "lazy-tlb"; kernel 2.6.28 arch/powerpc/kvm/44x_tlb.c and
 * booke_interrupts.S, commit 83aae4a8 "Write only modified shadow entries
 * into the TLB on exit"). KVM kept the guest's shadow entries in its own
 * array; on every guest entry the entries flagged in shadow_tlb_mod[] were
 * written to the hardware ("typically only a single guest TLB entry ... per
 * exit"), vcpu_put flushed the whole TLB (_tlbia) and vcpu_load flagged
 * every entry, so the first entry after a heavy exit rewrote them all.
 * 2.6.29 replaced this with direct hardware writes plus a save/restore at
 * vcpu_put/vcpu_load - faster exits, more TLB misses.
 * The model's cost_set_lazy_tlb: every entry pays the flag scan (hwater+1
 * tests), a heavy exit loses the host's own UTLB entries too (the host
 * refills its pages, advancing the shared round-robin index) and pays no
 * tlbre save. Effect on the exit stream: the trace's exits all stay (the
 * shadow entries are rewritten, never lost, so no VIRT miss disappears or
 * appears from the policy itself); the longer entries lengthen the run and
 * the time-driven exits follow; the host refills after heavy exits evict
 * guest shadows the baseline kept, but a trace shows no hits, so misses the
 * lockstep cannot see are not added (docs/whatif.md). */
#include <stdlib.h>

#include "whatif.h"

static sim_err lazy_parse(void **state, const char *opts)
{
    return xf_parse_none("lazy-tlb", state, opts);
}

static void lazy_model(void *state, cost_model *m)
{
    (void)state;
    cost_set_lazy_tlb(m, true);
}

const xf_ops xf_lazy_tlb = {
    .name = "lazy-tlb",
    .options = "",
    .summary = "2.6.28: modified shadow entries written at entry, _tlbia at "
               "vcpu_put",
    .parse = lazy_parse,
    .model = lazy_model,
};
