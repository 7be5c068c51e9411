/* sweep: points of a parameter sweep predicted by replay or from one
 * replay's unit-cost feature counts (model/cost.h), the plan of points (grid
 * or Latin hypercube) and its parallel run. docs/sweep.md says when the
 * two paths agree and why they can differ. */
#include "sweep.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "stats.h"
#include "whatif.h"

static void totals_from_stats(const stats *s, sweep_totals *out)
{
    memset(out, 0, sizeof *out);
    for (int t = 0; t < EXIT__COUNT; t++) {
        out->count[t] = s->rows[t].count;
        out->sum[t] = s->rows[t].sum;
    }
    out->total = stats_traced_ticks(s);
    out->tb_per_usec = s->tb_per_usec;
}

/* The point through a what-if chain: its predicted side. */
static sim_err whatif_point(const char *trace, const params *p,
                            const char *spec, sweep_totals *out)
{
    whatif_chain *chain;
    sim_err e = whatif_chain_parse(&chain, spec);
    if (e != SIM_OK)
        return e;
    stats *s = malloc(2 * sizeof *s);
    if (!s) {
        whatif_chain_free(chain);
        return sim_fail(SIM_ERR_NOMEM, "out of memory");
    }
    whatif_opts wo = {.unit = STATS_TICKS};
    whatif_result res;
    e = whatif_run(trace, chain, p, &wo, &s[0], &s[1], &res);
    if (e == SIM_OK) {
        totals_from_stats(&s[1], out);
        out->exact = out->replayed = true;
    }
    free(s);
    whatif_chain_free(chain);
    return e;
}

sim_err sweep_replay(const char *trace, const params *p,
                     const sweep_replay_opts *o, sweep_base *b,
                     sweep_totals *out)
{
    if (o->transform) {
        if (b)
            return sim_fail(SIM_ERR_USAGE, "no sufficient statistics "
                                           "through a transform");
        return whatif_point(trace, p, o->transform, out);
    }
    cost_model *m;
    sim_err e = cost_new(&m, p);
    if (e != SIM_OK)
        return e;
    cost_set_guest_mode(m, o->guest);
    cost_track_features(m, b != NULL);
    replay_cost_model hook;
    cost_replay_hook(m, &hook);
    replay_opts ro = {.unit = STATS_TICKS, .ticks = REPLAY_MODEL,
                      .model = &hook, .progress = o->progress,
                      .progress_ctx = o->progress_ctx};
    stats *s = malloc(sizeof *s);
    if (!s) {
        cost_free(m);
        return sim_fail(SIM_ERR_NOMEM, "out of memory");
    }
    replay_result res;
    e = replay_file(trace, &ro, s, &res);
    if (e == SIM_OK) {
        totals_from_stats(s, out);
        out->exact = out->replayed = true;
    }
    if (e == SIM_OK && b) {
        b->p = *p;
        b->at = *out;
        bool capped = false;
        for (int t = 0; t < EXIT__COUNT; t++) {
            if (s->rows[t].count && s->rows[t].max >= UINT32_MAX)
                capped = true;
            for (int j = 0; j < CFEAT__COUNT; j++) {
                b->feat[t][j] = cost_feature_sum(m, (exit_type)t,
                                                 (cost_feature)j);
                b->unit[t][j] = cost_feature_unit(m, (exit_type)t,
                                                  (cost_feature)j);
            }
        }
        uint64_t tb = res.header.tb_hz;
        b->ticks_are_cycles = !capped && (tb == 0 || tb == cost_core_hz(m));
        b->time_coupled = P(p, host_tick_hz) > 0 || P(p, host_irq_hz) > 0 ||
                          s->rows[EXIT_EMUL_WAIT].count > 0;
        uint64_t from_trace, modelled;
        cost_guest_counts(m, &from_trace, &modelled);
        b->guest_coupled = modelled > 0 && P(p, dcache_miss_cycles) > 0;
    }
    free(s);
    cost_free(m);
    return e;
}

static bool same_state(const params *a, const params *b)
{
    for (int i = 0; i < PARAM__COUNT; i++)
        if (!param_is_linear((param_id)i) && a->v[i] != b->v[i])
            return false;
    return true;
}

sim_err sweep_eval(const sweep_base *b, const params *q, sweep_totals *out)
{
    if (!same_state(&b->p, q))
        return sim_fail(SIM_ERR_USAGE, "a stateful parameter differs "
                                       "from the replayed point");
    cost_model *m;
    sim_err e = cost_new_units(&m, q);
    if (e != SIM_OK)
        return e;
    *out = b->at;
    out->replayed = false;
    bool dh = false, dg = false, rounded = false;
    double guest = 0;
    for (int t = 0; t < EXIT__COUNT; t++) {
        double d = 0;
        for (int j = 0; j < CFEAT__COUNT; j++) {
            uint64_t n = b->feat[t][j];
            if (!n)
                continue;
            double u = cost_feature_unit(m, (exit_type)t, (cost_feature)j);
            double du = u - b->unit[t][j];
            if (du == 0)
                continue;
            /* n x unit rounded per exit: linear only in whole units */
            if (cost_feature_rounded((cost_feature)j) &&
                (u != floor(u) || b->unit[t][j] != floor(b->unit[t][j])))
                rounded = true;
            if (cost_feature_guest_side((cost_feature)j)) {
                guest += (double)n * du;
                dg = true;
            } else {
                d += (double)n * du;
                dh = true;
            }
        }
        /* whole units: every product and partial sum is an exact integer
         * below 2^53 */
        out->sum[t] = (uint64_t)((int64_t)out->sum[t] + (int64_t)llround(d));
    }
    out->sum[EXIT_TIMEINGUEST] = (uint64_t)(
        (int64_t)out->sum[EXIT_TIMEINGUEST] + (int64_t)llround(guest));
    out->total = 0;
    for (int t = 0; t < EXIT__COUNT; t++)
        out->total += out->sum[t];
    cost_free(m);
    /* Costs feed back into the trajectory through the clock (host
     * interrupts land in handler windows, EMUL_WAIT idles to the next tick)
     * and through modelled guest time (D-cache decay). */
    out->exact = b->ticks_are_cycles && !rounded &&
                 ((!dh && !dg) ||
                  (!b->time_coupled && (!dg || !b->guest_coupled)));
    return SIM_OK;
}

/* ---- plans ---- */

static sim_err check_value(param_id id, double v, const char *spec)
{
    if (!(v >= param_min(id) && v <= param_max(id)))
        return sim_fail(SIM_ERR_USAGE,
                        "'%s': %s = %g is outside its range %g .. %g",
                        spec, param_name(id), v, param_min(id), param_max(id));
    if (param_kind(id) != PK_REAL && v != floor(v))
        return sim_fail(SIM_ERR_USAGE,
                        "'%s': %s takes whole numbers, not %g", spec,
                        param_name(id), v);
    params scratch;
    params_init(&scratch);
    if (params_set(&scratch, id, v, spec) != SIM_OK) /* powers of two */
        return SIM_ERR_USAGE; /* its message names spec */
    return SIM_OK;
}

static int parse_num(const char *s, const char *end, double *v)
{
    char buf[64];
    size_t n = (size_t)(end - s);
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *e;
    *v = strtod(buf, &e);
    double mul = 1;
    if (*e == 'k' || *e == 'K')
        mul = 1e3, e++;
    else if (*e == 'M')
        mul = 1e6, e++;
    else if (*e == 'G')
        mul = 1e9, e++;
    if (*e || !isfinite(*v))
        return -1;
    *v *= mul;
    return 0;
}

sim_err sweep_plan_axis(sweep_plan *pl, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq)
        return sim_fail(SIM_ERR_USAGE, "'%s': expected NAME=LO:HI:STEP "
                                       "or NAME=v1,v2,...", spec);
    char name[64];
    size_t nl = (size_t)(eq - spec);
    if (nl >= sizeof name)
        nl = sizeof name - 1;
    memcpy(name, spec, nl);
    name[nl] = 0;
    int id = param_from_name(name);
    if (id < 0)
        return sim_fail(SIM_ERR_USAGE,
                        "unknown parameter '%s' (did you mean '%s'?)",
                        name, param_nearest_name(name));
    if (pl->naxes == SWEEP_MAX_AXES)
        return sim_fail(SIM_ERR_USAGE, "at most %d parameters",
                        SWEEP_MAX_AXES);
    for (int a = 0; a < pl->naxes; a++)
        if (pl->axes[a].id == (param_id)id)
            return sim_fail(SIM_ERR_USAGE, "%s given twice", name);
    sweep_axis ax = {.id = (param_id)id};
    const char *v = eq + 1;
    sim_err e = SIM_OK;
    if (strchr(v, ':')) {
        const char *c1 = strchr(v, ':'), *c2 = strchr(c1 + 1, ':');
        const char *end = v + strlen(v);
        if (parse_num(v, c1, &ax.lo) ||
            parse_num(c1 + 1, c2 ? c2 : end, &ax.hi) ||
            (c2 && parse_num(c2 + 1, end, &ax.step)))
            return sim_fail(SIM_ERR_USAGE, "'%s': expected numbers in "
                                           "LO:HI:STEP", spec);
        if (ax.lo > ax.hi)
            return sim_fail(SIM_ERR_USAGE, "'%s': LO %g > HI %g", spec,
                            ax.lo, ax.hi);
        if (c2 && !(ax.step > 0))
            return sim_fail(SIM_ERR_USAGE, "'%s': STEP must be > 0",
                            spec);
        if ((e = check_value(ax.id, ax.lo, spec)) != SIM_OK ||
            (e = check_value(ax.id, ax.hi, spec)) != SIM_OK)
            return e;
        ax.range = true;
        if (c2) {
            double k = floor((ax.hi - ax.lo) / ax.step * (1 + 1e-12) + 1e-9);
            if (k + 1 > SWEEP_MAX_AXIS_VALUES)
                return sim_fail(SIM_ERR_USAGE, "'%s': %.0f values, more "
                                "than %d on one axis (whatever --yes says)",
                                spec, k + 1, SWEEP_MAX_AXIS_VALUES);
            ax.n = (size_t)k + 1;
            ax.values = malloc(ax.n * sizeof *ax.values);
            if (!ax.values)
                return sim_fail(SIM_ERR_NOMEM, "out of memory");
            for (size_t i = 0; i < ax.n; i++) {
                double x = ax.lo + (double)i * ax.step;
                if (x > ax.hi)
                    x = ax.hi;
                if (param_kind(ax.id) != PK_REAL && x != floor(x)) {
                    free(ax.values);
                    return sim_fail(SIM_ERR_USAGE,
                                    "'%s': %s takes whole numbers, "
                                    "not %g",
                                    spec, name, x);
                }
                ax.values[i] = x;
            }
        }
    } else {
        size_t cap = 1;
        for (const char *s = v; *s; s++)
            cap += *s == ',';
        ax.values = malloc(cap * sizeof *ax.values);
        if (!ax.values)
            return sim_fail(SIM_ERR_NOMEM, "out of memory");
        const char *s = v;
        for (;;) {
            const char *c = strchr(s, ',');
            const char *end = c ? c : s + strlen(s);
            double x;
            if (parse_num(s, end, &x)) {
                free(ax.values);
                return sim_fail(SIM_ERR_USAGE,
                                "'%s': expected a number at '%.*s'",
                                spec, (int)(end - s), s);
            }
            if ((e = check_value(ax.id, x, spec)) != SIM_OK) {
                free(ax.values);
                return e;
            }
            ax.values[ax.n++] = x;
            if (!c)
                break;
            s = c + 1;
        }
    }
    pl->axes[pl->naxes++] = ax;
    return SIM_OK;
}

sim_err sweep_plan_points(sweep_plan *pl, uint64_t samples,
                          unsigned long seed, uint64_t max_points)
{
    if (pl->naxes == 0)
        return sim_fail(SIM_ERR_USAGE, "no --param given");
    int k = pl->naxes;
    double n = 1;
    if (samples) {
        for (int a = 0; a < k; a++) {
            if (!pl->axes[a].range)
                return sim_fail(SIM_ERR_USAGE,
                                "--samples needs LO:HI ranges, %s has "
                                "a list",
                                param_name(pl->axes[a].id));
            if (pl->axes[a].step > 0)
                return sim_fail(SIM_ERR_USAGE,
                                "--samples draws over LO:HI, and "
                                "%s=%g:%g:%g has a STEP (drop it, or "
                                "drop --samples for the grid)",
                                param_name(pl->axes[a].id),
                                pl->axes[a].lo, pl->axes[a].hi,
                                pl->axes[a].step);
            int kind = param_kind(pl->axes[a].id);
            if (kind == PK_POW2 || kind == PK_LINES)
                return sim_fail(SIM_ERR_USAGE,
                                "--samples cannot draw %s (%s); give "
                                "it as a list or grid",
                                param_name(pl->axes[a].id),
                                kind == PK_POW2 ? "powers of two"
                                                : "whole cache lines");
        }
        n = (double)samples;
    } else {
        for (int a = 0; a < k; a++) {
            if (!pl->axes[a].values)
                return sim_fail(SIM_ERR_USAGE,
                                "%s=LO:HI has no STEP (a grid needs "
                                "LO:HI:STEP; LO:HI is for --samples)",
                                param_name(pl->axes[a].id));
            n *= (double)pl->axes[a].n;
        }
    }
    /* whatever --yes says: --samples 2^61 wrapped the values' size to 8
     * bytes (a heap overflow as they were drawn), and a grid's product
     * can pass what a size_t holds */
    if (n > 1e9)
        return sim_fail(SIM_ERR_USAGE,
                        "%.0f points, more than 1000000000 (whatever --yes "
                        "says)", n);
    if (n > (double)max_points)
        return sim_fail(SIM_ERR_USAGE,
                        "%.0f points, more than %llu (--max-points); "
                        "pass --yes to run them anyway",
                        n, (unsigned long long)max_points);
    pl->npoints = (size_t)n;
    pl->values = malloc(pl->npoints * (size_t)k * sizeof *pl->values + 1);
    if (!pl->values)
        return sim_fail(SIM_ERR_NOMEM, "out of memory");
    if (!samples) {
        for (size_t i = 0; i < pl->npoints; i++) {
            size_t r = i;
            for (int a = k - 1; a >= 0; a--) {
                const sweep_axis *ax = &pl->axes[a];
                pl->values[i * (size_t)k + (size_t)a] = ax->values[r % ax->n];
                r /= ax->n;
            }
        }
        return SIM_OK;
    }
    /* Latin hypercube: each axis cut into N strata, one point per stratum,
     * strata paired at random; uniform inside the stratum. */
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    size_t *perm = malloc(pl->npoints * sizeof *perm);
    if (!rng || !perm) {
        gsl_rng_free(rng);
        free(perm);
        return sim_fail(SIM_ERR_NOMEM, "out of memory");
    }
    gsl_rng_set(rng, seed);
    for (int a = 0; a < k; a++) {
        const sweep_axis *ax = &pl->axes[a];
        for (size_t i = 0; i < pl->npoints; i++)
            perm[i] = i;
        gsl_ran_shuffle(rng, perm, pl->npoints, sizeof *perm);
        for (size_t i = 0; i < pl->npoints; i++) {
            double u = ((double)perm[i] + gsl_rng_uniform(rng)) /
                       (double)pl->npoints;
            double x = ax->lo + u * (ax->hi - ax->lo);
            if (param_kind(ax->id) != PK_REAL)
                x = round(x);
            if (x > ax->hi)
                x = ax->hi;
            pl->values[i * (size_t)k + (size_t)a] = x;
        }
    }
    free(perm);
    gsl_rng_free(rng);
    return SIM_OK;
}

void sweep_plan_free(sweep_plan *pl)
{
    for (int a = 0; a < pl->naxes; a++)
        free(pl->axes[a].values);
    free(pl->values);
    memset(pl, 0, sizeof *pl);
}

void sweep_plan_params(const sweep_plan *pl, size_t i, const params *base,
                       params *out)
{
    *out = *base;
    for (int a = 0; a < pl->naxes; a++) {
        param_id id = pl->axes[a].id;
        out->v[id] = pl->values[i * (size_t)pl->naxes + (size_t)a];
        out->origin[id] = PO_SET;
    }
}

/* ---- running ---- */

typedef struct pool {
    size_t n, next;
    void (*fn)(void *ctx, size_t i);
    void *ctx;
    volatile sig_atomic_t *stop;
    pthread_mutex_t lock;
} pool;

static void *pool_worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        bool quit = p->next >= p->n || (p->stop && *p->stop);
        size_t k = quit ? 0 : p->next++;
        pthread_mutex_unlock(&p->lock);
        if (quit)
            return NULL;
        p->fn(p->ctx, k);
    }
}

void sweep_parallel(size_t n, unsigned threads, void (*fn)(void *ctx, size_t i),
                    void *ctx, volatile sig_atomic_t *stop)
{
    pool p = {.n = n, .fn = fn, .ctx = ctx, .stop = stop};
    pthread_mutex_init(&p.lock, NULL);
    unsigned nt = threads ? threads : 1;
    if (nt > n)
        nt = (unsigned)n;
    if (nt > 64)
        nt = 64;
    pthread_t th[64];
    unsigned started = 0;
    if (nt > 1)
        for (; started < nt; started++)
            if (pthread_create(&th[started], NULL, pool_worker, &p) != 0)
                break;
    if (started == 0)
        pool_worker(&p);
    for (unsigned i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_destroy(&p.lock);
}

typedef struct run_ctx {
    const char *trace;
    const params *base;
    const sweep_plan *pl;
    const sweep_run_opts *o;
    sweep_totals *out;
    unsigned char *done;
    /* groups of points sharing their stateful values */
    size_t ngroups;
    size_t *group_of;   /* per point */
    size_t *group_rep;  /* per group: its first point */
    sweep_base *bases;  /* per group */
    unsigned char *group_needed, *group_ok;
    size_t *tasks; /* phase 1: groups, phase 2: points */
    pthread_mutex_t lock;
    sim_err err;
    char errmsg[512];
    uint64_t tasks_done, tasks_total;
} run_ctx;

static void group_params(const run_ctx *c, size_t g, params *q)
{
    /* the group's stateful values, every linear parameter at the base */
    sweep_plan_params(c->pl, c->group_rep[g], c->base, q);
    for (int a = 0; a < c->pl->naxes; a++) {
        param_id id = c->pl->axes[a].id;
        if (param_is_linear(id)) {
            q->v[id] = c->base->v[id];
            q->origin[id] = c->base->origin[id];
        }
    }
}

/* A replay finished (or failed): record it under the lock. */
static void task_done(run_ctx *c, sim_err e, unsigned char *flag)
{
    pthread_mutex_lock(&c->lock);
    if (e != SIM_OK && c->err == SIM_OK) {
        c->err = e;
        snprintf(c->errmsg, sizeof c->errmsg, "%s", sim_errmsg());
    }
    if (e == SIM_OK)
        *flag = 1;
    c->tasks_done++;
    if (c->o->progress)
        c->o->progress(c->o->progress_ctx, c->tasks_done, c->tasks_total);
    pthread_mutex_unlock(&c->lock);
}

static bool failed(run_ctx *c)
{
    pthread_mutex_lock(&c->lock);
    bool f = c->err != SIM_OK;
    pthread_mutex_unlock(&c->lock);
    return f;
}

static void base_task(void *ctx, size_t i)
{
    run_ctx *c = ctx;
    if (failed(c))
        return;
    size_t g = c->tasks[i];
    params q;
    group_params(c, g, &q);
    sweep_replay_opts ro = {.guest = c->o->guest};
    sweep_totals t;
    sim_err e = sweep_replay(c->trace, &q, &ro, &c->bases[g], &t);
    task_done(c, e, &c->group_ok[g]);
}

static void point_task(void *ctx, size_t i)
{
    run_ctx *c = ctx;
    if (failed(c))
        return;
    size_t k = c->tasks[i];
    params q;
    sweep_plan_params(c->pl, k, c->base, &q);
    sweep_replay_opts ro = {.guest = c->o->guest,
                            .transform = c->o->transform};
    sim_err e = sweep_replay(c->trace, &q, &ro, NULL, &c->out[k]);
    task_done(c, e, &c->done[k]);
}

static sim_err run_phase(run_ctx *c, size_t ntasks,
                         void (*fn)(void *ctx, size_t i))
{
    sweep_parallel(ntasks, c->o->threads, fn, c, c->o->stop);
    if (c->err != SIM_OK)
        return sim_fail(c->err, "%s", c->errmsg);
    return SIM_OK;
}

static bool mine(const sweep_run_opts *o, size_t i)
{
    return o->nranks <= 1 || i % o->nranks == o->rank;
}

sim_err sweep_run(const char *trace, const params *base, const sweep_plan *pl,
                  const sweep_run_opts *o, sweep_totals *out,
                  unsigned char *done)
{
    size_t np = pl->npoints;
    memset(done, 0, np);
    for (size_t i = 0; i < np; i++) { /* cache sizes in whole lines */
        params q;
        sweep_plan_params(pl, i, base, &q);
        if (params_check(&q) != SIM_OK) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", sim_errmsg());
            return sim_fail(SIM_ERR_USAGE, "point %zu: %s", i + 1, msg);
        }
    }
    run_ctx c = {.trace = trace, .base = base, .pl = pl, .o = o, .out = out,
                 .done = done, .err = SIM_OK};
    pthread_mutex_init(&c.lock, NULL);
    sim_err e = SIM_OK;
    c.group_of = calloc(np + 1, sizeof *c.group_of);
    c.group_rep = calloc(np + 1, sizeof *c.group_rep);
    c.tasks = calloc(np + 1, sizeof *c.tasks);
    if (!c.group_of || !c.group_rep || !c.tasks) {
        e = sim_fail(SIM_ERR_NOMEM, "out of memory");
        goto out;
    }
    /* groups: points with equal stateful axis values (first come first) */
    bool replay_all = o->method == SWEEP_REPLAY || o->transform;
    for (size_t i = 0; i < np && !replay_all; i++) {
        size_t g;
        for (g = 0; g < c.ngroups; g++) {
            size_t r = c.group_rep[g];
            bool same = true;
            for (int a = 0; a < pl->naxes && same; a++)
                if (!param_is_linear(pl->axes[a].id) &&
                    pl->values[i * (size_t)pl->naxes + (size_t)a] !=
                        pl->values[r * (size_t)pl->naxes + (size_t)a])
                    same = false;
            if (same)
                break;
        }
        if (g == c.ngroups)
            c.group_rep[c.ngroups++] = i;
        c.group_of[i] = g;
    }
    c.bases = calloc(c.ngroups + 1, sizeof *c.bases);
    c.group_needed = calloc(c.ngroups + 1, 1);
    c.group_ok = calloc(c.ngroups + 1, 1);
    if (!c.bases || !c.group_needed || !c.group_ok) {
        e = sim_fail(SIM_ERR_NOMEM, "out of memory");
        goto out;
    }
    /* phase 1: one replay per group this rank has points in */
    if (!replay_all) {
        for (size_t i = 0; i < np; i++)
            if (mine(o, i))
                c.group_needed[c.group_of[i]] = 1;
        size_t nb = 0;
        for (size_t g = 0; g < c.ngroups; g++)
            if (c.group_needed[g])
                c.tasks[nb++] = g;
        c.tasks_total = nb;
        e = run_phase(&c, nb, base_task);
        if (e != SIM_OK)
            goto out;
    }
    /* evaluate; what cannot be evaluated exactly (auto) is replayed */
    size_t nrep = 0;
    for (size_t i = 0; i < np; i++) {
        if (o->stop && *o->stop)
            break; /* Ctrl-C: the points so far are kept */
        if (!mine(o, i))
            continue;
        if (!replay_all) {
            size_t g = c.group_of[i];
            if (!c.group_ok[g])
                continue; /* stopped before its replay */
            params q;
            sweep_plan_params(pl, i, base, &q);
            e = sweep_eval(&c.bases[g], &q, &out[i]);
            if (e != SIM_OK)
                goto out;
            if (!memcmp(q.v, c.bases[g].p.v, sizeof q.v))
                out[i].replayed = true; /* the group's own replay */
            if (out[i].exact || o->method == SWEEP_LINEAR) {
                done[i] = 1;
                continue;
            }
        }
        c.tasks[nrep++] = i;
    }
    c.tasks_total = c.tasks_done + nrep;
    e = run_phase(&c, nrep, point_task);
out:
    pthread_mutex_destroy(&c.lock);
    free(c.group_of);
    free(c.group_rep);
    free(c.tasks);
    free(c.bases);
    free(c.group_needed);
    free(c.group_ok);
    return e;
}
