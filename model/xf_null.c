/* xf_null: no change to the workload or the kernel, a measurement of the
 * lockstep itself (docs/whatif.md "null"). With no options the prediction
 * is the baseline, exit for exit. `cycles=N` makes every exit's handler N
 * core cycles longer on the predicting side (its dispatch stage: a price;
 * no exit, page or policy changes), `seed=N` gives the predicting model
 * another host-noise seed: either moves the host's fills inside the exits
 * (a tick or preemption lands in another exit), and with them the shared
 * round-robin index, without any change a real optimization would make.
 * What the re-derivation of the VIRT misses then removes is divergence of
 * the two soft TLBs, not the transform's doing. */
#include <stdlib.h>
#include <string.h>

#include "whatif.h"

typedef struct null_xf {
    unsigned long cycles;
    unsigned long seed;
    bool has_seed;
} null_xf;

static sim_err null_bad(const char *opts)
{
    return sim_fail(SIM_ERR_USAGE,
                    "whatif: null:%s: expected options cycles=N (0..1000) "
                    "and seed=N, each at most once",
                    opts);
}

static sim_err null_parse(void **state, const char *opts)
{
    null_xf *s = calloc(1, sizeof *s);
    if (!s)
        return sim_fail(SIM_ERR_NOMEM, "whatif: out of memory");
    bool has_cycles = false;
    const char *o = opts;
    while (o && *o) {
        size_t len = strcspn(o, ":");
        bool cyc = len > 7 && !strncmp(o, "cycles=", 7);
        bool sd = len > 5 && !strncmp(o, "seed=", 5);
        const char *v = o + (cyc ? 7 : 5);
        char *end = NULL;
        unsigned long n = 0;
        /* digits only (strtoul alone takes "-5", " 5" and "+5") */
        if ((cyc || sd) && *v >= '0' && *v <= '9')
            n = strtoul(v, &end, 10);
        if (!end || end != o + len || (cyc && (has_cycles || n > 1000)) ||
            (sd && (s->has_seed || n > 4294967295UL))) {
            free(s);
            return null_bad(opts);
        }
        if (cyc) {
            s->cycles = n;
            has_cycles = true;
        } else {
            s->seed = n;
            s->has_seed = true;
        }
        o += len + (o[len] == ':');
        if (o[-1] == ':' && !*o) { /* "cycles=1:" */
            free(s);
            return null_bad(opts);
        }
    }
    *state = s;
    return SIM_OK;
}

static sim_err null_params(void *state, params *p)
{
    const null_xf *s = state;
    if (s->has_seed)
        return params_set(p, PARAM_seed, (double)s->seed, "whatif null");
    return SIM_OK;
}

static void null_model(void *state, cost_model *m)
{
    const null_xf *s = state;
    if (s->cycles)
        cost_set_handler_extra(m, s->cycles);
}

const xf_ops xf_null = {
    .name = "null",
    .options = "cycles=N:seed=N",
    .summary = "no change: a measurement of the lockstep (every handler N "
               "cycles longer; another noise seed)",
    .parse = null_parse,
    .params = null_params,
    .model = null_model,
    .free = free,
};
