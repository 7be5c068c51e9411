/* xf_tlb_slots: N hardware UTLB slots for the round robin that guest
 * shadow entries and the host's own fills share (docs/whatif.md
 * "tlb-slots"): tlb_44x_hwater = N - 1 (kernel 44x_tlb.c, head_44x.S), the
 * pinned host entries above. The 440 has 63 (64 slots, one pinned); a
 * larger N is a hypothetical core. The model's utlb_entries becomes N +
 * utlb_pinned; the soft TLB then decides, miss by miss, which of the
 * trace's VIRT misses a larger array would have kept resident (whatif.c).
 * A smaller array cannot add misses the trace does not show (the trace has
 * no hits), so shrinking predicts too few misses. */
#include <stdlib.h>
#include <string.h>

#include "tlb440.h"
#include "whatif.h"

typedef struct slots {
    unsigned n;
} slots;

static sim_err slots_parse(void **state, const char *opts)
{
    /* digits only: strtoul alone would take "-5" (as a huge number),
     * " 12" and "+12" */
    char *end = NULL;
    unsigned long n = 0;
    if (opts && opts[0] >= '0' && opts[0] <= '9')
        n = strtoul(opts, &end, 10);
    if (!end || *end || n < 8 || n > TLB440_MAX - 1)
        return sim_fail(SIM_ERR_USAGE,
                        "whatif: tlb-slots=%s: expected N, the UTLB slots of "
                        "the round robin, 8..%d (the 440 has 63)",
                        opts ? opts : "", TLB440_MAX - 1);
    slots *s = malloc(sizeof *s);
    if (!s)
        return sim_fail(SIM_ERR_NOMEM, "whatif: out of memory");
    s->n = (unsigned)n;
    *state = s;
    return SIM_OK;
}

static sim_err slots_params(void *state, params *p)
{
    const slots *s = state;
    double entries = (double)s->n + P(p, utlb_pinned);
    if (entries > TLB440_MAX)
        return sim_fail(SIM_ERR_RANGE,
                        "whatif: tlb-slots=%u with %g pinned slots exceeds "
                        "the %d UTLB entries the model holds",
                        s->n, P(p, utlb_pinned), TLB440_MAX);
    return params_set(p, PARAM_utlb_entries, entries, "whatif tlb-slots");
}

const xf_ops xf_tlb_slots = {
    .name = "tlb-slots",
    .options = "N",
    .summary = "N UTLB slots shared by guest shadows and host fills (440: 63)",
    .parse = slots_parse,
    .params = slots_params,
    .free = free,
};
