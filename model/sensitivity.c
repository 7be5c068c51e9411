/* sensitivity: one-at-a-time probes of every parameter around a point and
 * the single-parameter change that reaches a target run change. */
#include "sensitivity.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct sens_ctx {
    const char *trace;
    const params *base;
    const sens_opts *o;
    const sweep_base *b;
    sens_entry *e;
    pthread_mutex_t lock;
    sim_err err;
    char errmsg[512];
} sens_ctx;

/* The run at `base` with parameter id set to v. */
static sim_err predict(sens_ctx *c, const sens_entry *en, double v,
                       sweep_totals *t)
{
    params q = *c->base;
    q.v[en->id] = v;
    q.origin[en->id] = PO_SET;
    if (en->linear)
        return sweep_eval(c->b, &q, t);
    sweep_replay_opts ro = {.guest = c->o->guest,
                            .transform = c->o->transform};
    return sweep_replay(c->trace, &q, &ro, NULL, t);
}

static double run_pct(const sens_ctx *c, const sweep_totals *t)
{
    double t0 = (double)c->b->at.total;
    return t0 > 0 ? 100.0 * ((double)t->total - t0) / t0 : 0.0;
}

/* A probe value `dir` (-1, +1) steps from v, whole for integer
 * parameters, inside the range; returns false if there is none. */
static bool probe(const params *base, param_id id, double v, double step,
                  int dir, double *out)
{
    double x = v * (1 + dir * step);
    int kind = param_kind(id);
    if (kind == PK_INT) {
        x = round(x);
        if (x == v)
            x = v + dir;
    } else if (kind == PK_POW2) {
        x = dir < 0 ? v / 2 : v * 2;
    } else if (kind == PK_LINES) { /* whole cache lines */
        double line = P(base, cache_line_bytes);
        x = round(x / line) * line;
        if (x == v)
            x = v + dir * line;
    }
    if (x < param_min(id))
        x = param_min(id);
    if (x > param_max(id))
        x = param_max(id);
    *out = x;
    params q = *base;
    q.v[id] = x;
    if (params_check(&q) != SIM_OK) { /* a line size the caches do not fit */
        sim_clear_error();
        return false;
    }
    return x != v;
}

/* Bisection for the value between a (run change fa, on the near side of
 * the target) and z (beyond it) whose change reaches `want` (in %). */
static sim_err bisect(sens_ctx *c, sens_entry *en, double a, double z,
                      double want)
{
    bool whole = param_kind(en->id) != PK_REAL;
    int iters = en->linear ? 60 : 10;
    sweep_totals t;
    for (int i = 0; i < iters; i++) {
        if (whole && fabs(z - a) <= 1)
            break;
        double m = whole ? round((a + z) / 2) : (a + z) / 2;
        if (m == a || m == z)
            break;
        sim_err e = predict(c, en, m, &t);
        if (e != SIM_OK)
            return e;
        double p = run_pct(c, &t);
        if ((want < 0 && p <= want) || (want > 0 && p >= want))
            z = m;
        else
            a = m;
    }
    sim_err e = predict(c, en, z, &t);
    if (e != SIM_OK)
        return e;
    en->target = SENS_T_FOUND;
    en->target_value = z;
    en->target_pct = run_pct(c, &t);
    en->target_exact = t.exact;
    return SIM_OK;
}

static sim_err find_target(sens_ctx *c, sens_entry *en)
{
    double want = 100.0 * c->o->target;
    int kind = param_kind(en->id);
    if (kind == PK_POW2 || kind == PK_LINES)
        return SIM_OK; /* no bisection over powers of two or cache lines */
    if (en->elasticity == 0 || !isfinite(en->elasticity)) {
        en->target = SENS_T_NOEFFECT;
        return SIM_OK;
    }
    /* toward the bound where the run moves the wanted way */
    bool up = (en->elasticity > 0) == (want > 0);
    double bound = up ? param_max(en->id) : param_min(en->id);
    sweep_totals t;
    sim_err e = predict(c, en, bound, &t);
    if (e != SIM_OK)
        return e;
    double p = run_pct(c, &t);
    if ((want < 0 && p > want) || (want > 0 && p < want)) {
        en->target = SENS_T_RANGE;
        en->target_value = bound;
        en->target_pct = p;
        en->target_exact = t.exact;
        return SIM_OK;
    }
    return bisect(c, en, en->base, bound, want);
}

static sim_err probe_one(sens_ctx *c, sens_entry *en)
{
    en->lo = en->hi = en->base;
    en->probed = en->base != 0;
    if (!en->probed)
        return SIM_OK;
    double step = c->o->step;
    bool has_lo = probe(c->base, en->id, en->base, step, -1, &en->lo);
    bool has_hi = probe(c->base, en->id, en->base, step, +1, &en->hi);
    if (!has_lo)
        en->lo = en->base;
    if (!has_hi)
        en->hi = en->base;
    en->t_lo = en->t_hi = c->b->at;
    en->exact = true;
    sim_err e = SIM_OK;
    if (has_lo && (e = predict(c, en, en->lo, &en->t_lo)) != SIM_OK)
        return e;
    if (has_hi && (e = predict(c, en, en->hi, &en->t_hi)) != SIM_OK)
        return e;
    en->exact = en->t_lo.exact && en->t_hi.exact;
    en->lo_pct = run_pct(c, &en->t_lo);
    en->hi_pct = run_pct(c, &en->t_hi);
    double dv = (en->hi - en->lo) / en->base;
    en->elasticity = dv != 0 ? (en->hi_pct - en->lo_pct) / 100.0 / dv : 0;
    if (c->o->target != 0)
        e = find_target(c, en);
    return e;
}

static void task(void *ctx, size_t i)
{
    sens_ctx *c = ctx;
    pthread_mutex_lock(&c->lock);
    bool skip = c->err != SIM_OK;
    pthread_mutex_unlock(&c->lock);
    if (skip)
        return;
    sim_err e = probe_one(c, &c->e[i]);
    if (e != SIM_OK) {
        pthread_mutex_lock(&c->lock);
        if (c->err == SIM_OK) {
            c->err = e;
            snprintf(c->errmsg, sizeof c->errmsg, "%s", sim_errmsg());
        }
        pthread_mutex_unlock(&c->lock);
    }
}

sim_err sens_run(const char *trace, const params *base, const sens_opts *o,
                 sweep_base *b, sens_entry *e, size_t *n)
{
    sweep_replay_opts ro = {.guest = o->guest, .transform = o->transform};
    sweep_totals at;
    memset(b, 0, sizeof *b);
    sim_err err = sweep_replay(trace, base, &ro, o->transform ? NULL : b, &at);
    if (err != SIM_OK)
        return err;
    if (o->transform) { /* no statistics: every probe is a prediction */
        b->p = *base;
        b->at = at;
    }
    size_t k = 0;
    for (int i = 0; i < PARAM__COUNT; i++) {
        if (i == PARAM_seed || i == PARAM_core_hz)
            continue;
        memset(&e[k], 0, sizeof e[k]);
        e[k].id = (param_id)i;
        e[k].linear =
            param_is_linear((param_id)i) && !o->replay && !o->transform;
        e[k].base = base->v[i];
        k++;
    }
    *n = k;
    sens_ctx c = {.trace = trace, .base = base, .o = o, .b = b, .e = e,
                  .err = SIM_OK};
    pthread_mutex_init(&c.lock, NULL);
    sweep_parallel(k, o->threads, task, &c, o->stop);
    pthread_mutex_destroy(&c.lock);
    if (c.err != SIM_OK)
        return sim_fail(c.err, "%s", c.errmsg);
    return SIM_OK;
}
