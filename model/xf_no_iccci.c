/* xf_no_iccci: no I-cache invalidate on guest entry (docs/whatif.md
 * "no-iccci"). KVM/440's lightweight_exit (booke_interrupts.S, 2.6.29 to
 * 3.10) runs `iccci` before every return to the guest, marked "XXX hack";
 * the what-if drops it. The kernel change is the predicting model's
 * cost_set_iccci(m, false): the iccci's own cycles go, and the handler's code lines and the
 * guest's survive the exit unless evicted - the handler's lines decay with
 * the guest run like its data lines do (and are all lost after host work
 * or QEMU), the guest refills only the share of its lines the handler's
 * code displaced. The exit stream is unchanged; the shorter exits shorten
 * the run, so the time-driven exits follow. */
#include <stdlib.h>

#include "whatif.h"

static sim_err noiccci_parse(void **state, const char *opts)
{
    return xf_parse_none("no-iccci", state, opts);
}

static void noiccci_model(void *state, cost_model *m)
{
    (void)state;
    cost_set_iccci(m, false);
}

const xf_ops xf_no_iccci = {
    .name = "no-iccci",
    .options = "",
    .summary = "no I-cache invalidate (iccci) on every guest entry",
    .parse = noiccci_parse,
    .model = noiccci_model,
};
