/* Tests of calibration (model/calib): a table made by the model itself at
 * known parameter values off the defaults is fitted back from the defaults
 * and the values are recovered within the reported uncertainties, while a
 * parameter the table cannot see is reported as such and held; the result
 * does not depend on the thread count; bad inputs are refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "cost.h"
#include "pdraw.h"
#include "replay.h"
#include "synth.h"
#include "testlib.h"
#include "trace.h"

static char tpath[512];

/* A 20k-exit synthetic trace (the built-in profile; guest ticks carried). */
static void make_trace(void)
{
    snprintf(tpath, sizeof tpath, "%s/calib_t.bin", test_tmp_dir());
    synth_profile prof;
    CU_ASSERT_EQUAL_FATAL(synth_profile_default(&prof), SIM_OK);
    synth_opts so = {.exits = 20000, .seed = 3};
    CU_ASSERT_EQUAL_FATAL(synth_write(tpath, &prof, &so), SIM_OK);
}

/* The table the model predicts for the trace with parameters p. */
static void model_table(const params *p, table *t)
{
    cost_model *m;
    CU_ASSERT_EQUAL_FATAL(cost_new(&m, p), SIM_OK);
    replay_cost_model hook;
    cost_replay_hook(m, &hook);
    /* 3.1+ accounting (ticks, divided when printed): a 2.6.29 table
     * truncates every sample to whole usec, which makes its rows step
     * functions of the costs (docs/calibration.md) */
    replay_opts o = {
        .unit = STATS_TICKS, .ticks = REPLAY_MODEL, .model = &hook};
    static stats s;
    replay_result res;
    CU_ASSERT_EQUAL_FATAL(replay_file(tpath, &o, &s, &res), SIM_OK);
    stats_to_table(&s, t);
    t->traced_usec = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        if (t->rows[i].present)
            t->traced_usec += t->rows[i].sum;
    cost_free(m);
}

static const calib_param *find(const calib_result *r, param_id id)
{
    for (int k = 0; k < r->nparam; k++)
        if (r->par[k].id == id)
            return &r->par[k];
    return NULL;
}

static void opts_for(calib_opts *o, unsigned threads)
{
    calib_opts_default(o);
    memset(o->fit, 0, sizeof o->fit);
    o->fit[PARAM_cpi] = o->fit[PARAM_qemu_mmio_usec] = true;
    o->fit[PARAM_gfn_to_page_cycles] = true;
    o->fit[PARAM_guest_cpi] = true; /* guest time comes from the trace */
    o->subsample = 0;
    o->unit = STATS_TICKS;
    o->threads = threads;
    o->full_check = false;
}

/* The parameters the tables are made with, off the defaults. */
static void known_truth(params *truth)
{
    params_init(truth);
    P(truth, cpi) = 1.5;              /* default 1.2 */
    P(truth, qemu_mmio_usec) = 120;   /* default 40 */
    P(truth, gfn_to_page_cycles) = 700; /* default 300 */
}

/* A fresh trace and the table the model makes of it at known_truth. */
static void truth_table(params *truth, table *t)
{
    make_trace();
    known_truth(truth);
    model_table(truth, t);
}

/* Each of known_truth's three values recovered within rel of the truth
 * (and the rounding of a whole number): a fixed tolerance, as the
 * reported sigma grows with a bad fit's residuals and would excuse it. */
static void check_recovered(const calib_result *r, const params *truth,
                            double rel)
{
    static const param_id ids[] = {PARAM_cpi, PARAM_qemu_mmio_usec,
                                   PARAM_gfn_to_page_cycles};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const calib_param *p = find(r, ids[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        double got = p->value, want = truth->v[ids[i]];
        double tol = rel * want + (param_kind(ids[i]) == PK_INT ? 1 : 0);
        if (!(fabs(got - want) <= tol))
            fprintf(stderr, "%s: %g, want %g +- %g (sigma %g)\n",
                    param_name(ids[i]), got, want, tol, p->sigma);
        CU_ASSERT(fabs(got - want) <= tol);
    }
}

/* Fits table t on the trace from the defaults (opts_for, 2 threads). */
static void fit_from_defaults(const table *t, calib_result *r)
{
    params start;
    params_init(&start);
    calib_opts o;
    opts_for(&o, 2);
    CU_ASSERT_EQUAL_FATAL(calib_run(tpath, t, &start, &o, r), SIM_OK);
}

static void test_recovers_known_parameters(void)
{
    make_trace();
    params truth;
    known_truth(&truth);
    static table t;
    model_table(&truth, &t);
    static calib_result r;
    fit_from_defaults(&t, &r);
    CU_ASSERT_TRUE(r.converged);
    CU_ASSERT(r.cost < 1e-3 * r.cost0);
    if (!(r.cost < 1e-3 * r.cost0))
        calib_write_report(stderr, &r);
    static const param_id ids[] = {PARAM_cpi, PARAM_qemu_mmio_usec,
                                   PARAM_gfn_to_page_cycles};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const calib_param *p = find(&r, ids[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        double want = truth.v[ids[i]];
        CU_ASSERT_EQUAL(p->state, CALIB_FITTED);
        CU_ASSERT_TRUE(isfinite(p->sigma));
        /* recovered within the reported uncertainty (2 sigma, and at least
         * the rounding of a whole-number parameter) ... */
        double tol = 2 * p->sigma + (param_kind(ids[i]) == PK_INT ? 1 : 0);
        if (fabs(p->value - want) > tol)
            fprintf(stderr, "%s: %g, want %g +- %g\n", param_name(ids[i]),
                    p->value, want, tol);
        CU_ASSERT(fabs(p->value - want) <= tol);
        /* ... and that uncertainty says something */
        CU_ASSERT(p->sigma < 0.1 * want);
        if (!(p->sigma < 0.1 * want))
            calib_write_report(stderr, &r);
        /* moved off the default */
        CU_ASSERT(fabs(p->value - param_default(ids[i])) > tol);
    }
    /* the table cannot see guest_cpi: held and said so, not "recovered" */
    const calib_param *g = find(&r, PARAM_guest_cpi);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_EQUAL(g->state, CALIB_UNSEEN);
    CU_ASSERT_EQUAL(g->value, param_default(PARAM_guest_cpi));
    CU_ASSERT_TRUE(isnan(g->sigma));

    /* the estimates' correlations: a correlation matrix over the fitted
     * values, written with them and read back by the parameter draws with
     * the sigmas as reported (docs/calibration.md, "Draws") */
    int ks[3];
    for (int i = 0; i < 3; i++)
        ks[i] = (int)(find(&r, ids[i]) - r.par);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double x = r.corr[ks[i]][ks[j]];
            CU_ASSERT(i == j ? x == 1 : fabs(x) <= 1);
            CU_ASSERT_EQUAL(x, r.corr[ks[j]][ks[i]]);
        }
    char ini[600];
    snprintf(ini, sizeof ini, "%s/calib_values.ini", test_tmp_dir());
    FILE *f = fopen(ini, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    calib_write_values(f, &r);
    fclose(f);
    static pdraw d;
    CU_ASSERT_EQUAL_FATAL(pdraw_load(&d, ini), SIM_OK);
    CU_ASSERT_EQUAL(d.n, 3);
    for (int k = 0; k < d.n; k++) {
        const calib_param *p = find(&r, d.id[k]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        CU_ASSERT(fabs(d.sigma[k] - p->sigma) <= 0.005 * p->sigma); /* %.3g */
    }
    /* the residual variance that scales them, read back for the draws'
     * weights */
    CU_ASSERT(isfinite(r.resvar) && r.resvar > 0);
    CU_ASSERT(fabs(d.resvar - r.resvar) <= 1e-8 * r.resvar);
    pdraw_free(&d);

    /* the objective alone (the draws' re-check) is the fit's own: the
     * fitted point's exactly (whole trace, subsample 0), the start's */
    calib_objective *ob;
    CU_ASSERT_EQUAL_FATAL(calib_objective_open(&ob, tpath, &t, STATS_TICKS),
                          SIM_OK);
    CU_ASSERT_EQUAL(calib_objective_nres(ob), r.nres);
    double at_fit, at_start;
    CU_ASSERT_EQUAL(calib_objective_at(ob, &r.fitted, &at_fit), SIM_OK);
    CU_ASSERT_EQUAL(at_fit, r.cost);
    CU_ASSERT_EQUAL(calib_objective_at(ob, &r.start, &at_start), SIM_OK);
    CU_ASSERT(fabs(at_start - r.cost0) <= 1e-9 * r.cost0);
    calib_objective_close(ob);
}

/* The extreme share by hand: 1, 2, 3 and 100 (avg 26.5, population
 * stddev 42.15): the 100 is 73.5 from the avg, 73.5^2 / (4 x 42.15^2) =
 * 0.760 of the squared deviations. */
static void test_extreme_share_by_hand(void)
{
    double sd = sqrt((1 + 4 + 9 + 10000) / 4.0 - 26.5 * 26.5);
    calib_sample s = {4, 26.5, sd, 1, 100};
    CU_ASSERT_DOUBLE_EQUAL(calib_extreme_share(&s),
                           73.5 * 73.5 / (4 * sd * sd), 1e-12);
    /* a row without spread, or without a max, has no extreme exit */
    calib_sample flat = {1000, 10, 0, 10, 10};
    CU_ASSERT_EQUAL(calib_extreme_share(&flat), 0);
    calib_sample nomax = {1000, 10, 2, 5, NAN};
    CU_ASSERT_EQUAL(calib_extreme_share(&nomax), 0);
}

/* A row of n - 1 exits of 13 usec and 1 of m usec, as a sample. */
static calib_sample one_long(double n, double m)
{
    double avg = ((n - 1) * 13 + m) / n;
    double var = ((n - 1) * 169 + m * m) / n - avg * avg;
    return (calib_sample){n, avg, sqrt(var > 0 ? var : 0), 13, m};
}

/* The weights of a row fall as its most extreme exit takes more of its
 * squared deviations: a stddev that is one exit (the recorded DTLBVIRT
 * of validation/README.md: 5.9 ms among 13-usec misses) is as uncertain
 * as that exit's presence, and the avg by that exit's share of it. A row
 * of many exits with a small spread keeps its weights. */
static void test_noise_weight_falls_with_the_extreme_share(void)
{
    static const double ms[] = {20, 100, 500, 2000, 5900};
    double prev_avg = 2, prev_sd = 2;
    for (size_t k = 0; k < sizeof ms / sizeof ms[0]; k++) {
        calib_sample hw = one_long(10000, ms[k]);
        /* the model's replay: the same row with a spread of its own */
        calib_sample m = {10000, 13.1, 2, 10, 20};
        double sa, ss, ga, gs;
        calib_noise(&hw, &m, &sa, &ss, &ga, &gs);
        CU_ASSERT(gs < prev_sd);
        CU_ASSERT(ga <= prev_avg);
        CU_ASSERT(ga > 0 && gs > 0);
        prev_avg = ga;
        prev_sd = gs;
    }
    /* the 5.9 ms exit is nearly all of the row's squared deviations: its
     * stddev counts less than a tenth of a noise-free row's */
    calib_sample big = one_long(10000, 5900);
    CU_ASSERT(calib_extreme_share(&big) > 0.99);
    CU_ASSERT(prev_sd < 0.1);
    /* many exits, a small spread (10 to 20 usec around 13, sd 2): the
     * weights stay nearly whole */
    calib_sample hw = {10000, 13, 2, 10, 20}, m = {10000, 13.1, 2.1, 10, 20};
    double sa, ss, ga, gs;
    calib_noise(&hw, &m, &sa, &ss, &ga, &gs);
    CU_ASSERT(ga > 0.95);
    CU_ASSERT(gs > 0.85);
    /* the same spread over 100 times fewer exits: the avg is 10 times less
     * certain */
    calib_sample hs = {100, 13, 2, 10, 20}, ms_ = {100, 13.1, 2.1, 10, 20};
    double sa2, ss2, ga2, gs2;
    calib_noise(&hs, &ms_, &sa2, &ss2, &ga2, &gs2);
    CU_ASSERT_DOUBLE_EQUAL(sa2, 10 * sa, 1e-9);
    CU_ASSERT(ga2 < ga);
}

/* The measured table of test_recovers_known_parameters with one DTLBVIRT
 * exit - its longest - 200 ms longer: a host preemption in the measured
 * run, a draw the model's own generator cannot be asked to repeat in the
 * same row. The row's avg is then 2.5 times the model's and its stddev
 * 100 times: with every residual weighted alike, the fit chased the one
 * exit with the costs. Weighted by how noisy each residual is, the row's
 * avg and stddev say what one such exit can say, and the values come
 * back as without it. */
static void test_one_rare_exit_is_weighted_by_its_noise(void)
{
    params truth;
    static table t;
    truth_table(&truth, &t);
    table_row *row = &t.rows[EXIT_DTLBVIRT];
    CU_ASSERT_FATAL(row->present && row->count > 1000 &&
                    isfinite(row->sum_sq));
    double d = 200000; /* usec */
    row->sum_sq += d * d + 2 * d * row->max;
    row->sum += d;
    row->max += d;
    t.traced_usec += d;
    table_finish(&t);
    CU_ASSERT_FATAL(row->avg > 2 * row->min);

    static calib_result r;
    fit_from_defaults(&t, &r);
    CU_ASSERT(r.row[EXIT_DTLBVIRT].xshare_hw > 0.99);
    CU_ASSERT(r.row[EXIT_DTLBVIRT].g_sd < 0.1);
    CU_ASSERT(r.row[EXIT_DTLBVIRT].g_avg < 0.1);
    check_recovered(&r, &truth, 0.05);
}

static void test_thread_count_does_not_change_the_result(void)
{
    make_trace();
    params truth;
    params_init(&truth);
    P(&truth, cpi) = 1.4;
    static table t;
    model_table(&truth, &t);
    params start;
    params_init(&start);
    static calib_result a, b;
    calib_opts o;
    opts_for(&o, 1);
    o.max_iter = 3;
    CU_ASSERT_EQUAL_FATAL(calib_run(tpath, &t, &start, &o, &a), SIM_OK);
    o.threads = 3;
    CU_ASSERT_EQUAL_FATAL(calib_run(tpath, &t, &start, &o, &b), SIM_OK);
    CU_ASSERT_EQUAL(memcmp(a.fitted.v, b.fitted.v, sizeof a.fitted.v), 0);
    CU_ASSERT_EQUAL(a.cost, b.cost);
    for (int k = 0; k < a.nparam; k++)
        CU_ASSERT(a.par[k].sigma == b.par[k].sigma ||
                  (isnan(a.par[k].sigma) && isnan(b.par[k].sigma)));
}

/* Started at the very values the table was made with, no step can lower
 * the objective: that is a converged fit (exit code 0), not an iteration
 * limit (GSL's driver reports it as GSL_EMAXITER with info GSL_ENOPROG). */
static void test_start_at_the_minimum_is_converged(void)
{
    make_trace();
    params truth;
    params_init(&truth);
    static table t;
    model_table(&truth, &t);
    calib_opts o;
    opts_for(&o, 2);
    static calib_result r;
    CU_ASSERT_EQUAL_FATAL(calib_run(tpath, &t, &truth, &o, &r), SIM_OK);
    CU_ASSERT_TRUE(r.converged);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.status, "converged"));
    CU_ASSERT_PTR_NULL(strstr(r.status, "NOT"));
    CU_ASSERT_TRUE(r.cost <= r.cost0);
    CU_ASSERT_TRUE(r.cost0 < 1e-6);
}

static void test_no_row_in_common_is_refused(void)
{
    make_trace();
    static table t;
    table_init(&t);
    /* a table of HCALL exits only: the trace has none */
    t.rows[EXIT_HCALL] = (table_row){.present = true, .count = 10, .min = 1,
                                     .max = 3, .sum = 20, .avg = 2,
                                     .stddev = 0.5};
    t.rows[EXIT_TIMEINGUEST] = (table_row){.present = true, .count = 10,
                                           .min = 1, .max = 3, .sum = 20,
                                           .avg = 2, .stddev = 0.5};
    params start;
    params_init(&start);
    calib_opts o;
    opts_for(&o, 1);
    static calib_result r;
    CU_ASSERT_EQUAL(calib_run(tpath, &t, &start, &o, &r), SIM_ERR_FORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "no exit row in common"));
}

static void test_range_excluding_start_is_refused(void)
{
    make_trace();
    static table t;
    params start;
    params_init(&start);
    model_table(&start, &t);
    calib_opts o;
    opts_for(&o, 1);
    o.lo[PARAM_cpi] = 2;
    o.hi[PARAM_cpi] = 3;
    static calib_result r;
    CU_ASSERT_EQUAL(calib_run(tpath, &t, &start, &o, &r), SIM_ERR_RANGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "excludes its start value"));
}

static void test_trace_without_exits_is_refused(void)
{
    char p[512];
    snprintf(p, sizeof p, "%s/calib_noexit.bin", test_tmp_dir());
    trace_header h;
    memset(&h, 0, sizeof h);
    h.source = TSRC_TEXT;
    h.tb_hz = h.core_hz = 667000000u;
    snprintf(h.workload, sizeof h.workload, "noexit");
    trace_writer *w;
    CU_ASSERT_EQUAL_FATAL(trace_writer_open(&w, p, &h), SIM_OK);
    trace_rec g = {.kind = TREC_GTLB_WRITE, .type = 1, .tb = 5};
    CU_ASSERT_EQUAL_FATAL(trace_writer_put(w, &g), SIM_OK);
    CU_ASSERT_EQUAL_FATAL(trace_writer_close(w), SIM_OK);
    make_trace();
    static table t;
    params start;
    params_init(&start);
    model_table(&start, &t);
    calib_opts o;
    opts_for(&o, 1);
    static calib_result r;
    CU_ASSERT_EQUAL(calib_run(p, &t, &start, &o, &r), SIM_ERR_FORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "no exits"));
}

/* Every 100th EMULINST exit of the trace at tpath made an idle wait
 * (EMUL_WAIT: the guest idles until its next tick). */
static void add_idle_waits(void)
{
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.waits", tpath);
    trace_reader *rd;
    trace_writer *wr;
    CU_ASSERT_EQUAL_FATAL(trace_reader_open(&rd, tpath), SIM_OK);
    CU_ASSERT_EQUAL_FATAL(
        trace_writer_open(&wr, tmp, trace_reader_header(rd)), SIM_OK);
    const trace_rec *recs;
    size_t n;
    unsigned k = 0;
    while (trace_reader_next(rd, &recs, &n) == SIM_OK && n)
        for (size_t i = 0; i < n; i++) {
            trace_rec r = recs[i];
            if (r.kind == TREC_EXIT && r.type == EXIT_EMULINST &&
                ++k % 100 == 0) {
                r.type = EXIT_EMUL_WAIT;
                r.inst = 0x7c600124; /* mtmsr r3 */
            }
            CU_ASSERT_EQUAL_FATAL(trace_writer_put(wr, &r), SIM_OK);
        }
    trace_reader_close(rd);
    CU_ASSERT_EQUAL_FATAL(trace_writer_close(wr), SIM_OK);
    CU_ASSERT_EQUAL_FATAL(rename(tmp, tpath), 0);
}

/* The measured table as test_recovers_known_parameters', but its idle
 * waits (EMUL_WAIT, its own row as in a 2.6.29+ table with EMUL_* rows)
 * 40% longer: a guest that idles earlier in its tick period than the
 * model's does. A wait lasts to the guest's next tick; no cost parameter
 * owns where in the period the guest idles, so the row is reported, not
 * fitted, and the costs are recovered as without it. Fitted, the row's
 * avg pulled every cost to shift the model's phase (on cpu440's boot
 * table, 8-9% off on every other row). */
static void test_idle_waits_are_not_fitted(void)
{
    make_trace();
    add_idle_waits();
    params truth;
    known_truth(&truth);
    static table t;
    model_table(&truth, &t);
    table_row *w = &t.rows[EXIT_EMUL_WAIT];
    CU_ASSERT_FATAL(w->present && w->count > 0 && isfinite(w->sum_sq));
    double k = 1.4;
    t.traced_usec += (k - 1) * w->sum;
    w->sum *= k;
    w->sum_sq *= k * k;
    w->min *= k;
    w->max *= k;
    table_finish(&t);
    /* the waits hold a share of the time that, fitted, would move costs */
    CU_ASSERT_FATAL(w->sum > 0.05 * t.traced_usec);

    static calib_result r;
    fit_from_defaults(&t, &r);
    /* in the report, with its error, but of no weight */
    CU_ASSERT_TRUE(r.row[EXIT_EMUL_WAIT].used);
    CU_ASSERT_EQUAL(r.row[EXIT_EMUL_WAIT].weight, 0);
    CU_ASSERT(r.row[EXIT_EMUL_WAIT].avg < 0.9 * w->avg);
    /* cpi, qemu_mmio_usec, gfn_to_page_cycles within 2% (a fixed
     * tolerance: the reported sigma grows with a bad fit's residuals, and
     * would excuse it) */
    double got[3], want[3] = {P(&truth, cpi), P(&truth, qemu_mmio_usec),
                              P(&truth, gfn_to_page_cycles)};
    got[0] = find(&r, PARAM_cpi)->value;
    got[1] = find(&r, PARAM_qemu_mmio_usec)->value;
    got[2] = find(&r, PARAM_gfn_to_page_cycles)->value;
    for (int i = 0; i < 3; i++) {
        double tol = 0.02 * want[i] + (i == 2 ? 1 : 0); /* a whole number */
        if (!(fabs(got[i] - want[i]) <= tol))
            fprintf(stderr, "parameter %d: %g, want %g +- %g\n", i, got[i],
                    want[i], tol);
        CU_ASSERT(fabs(got[i] - want[i]) <= tol);
    }
}

/* A 3.1+ kernel sums ticks but prints min, max and sum divided by its
 * timebase with do_div, truncated to whole usec: the table's min m says
 * the true minimum lies in [m, m + 1), as in a 2.6.29 table. Read as a
 * point, every row's min pulled the costs towards a model whose shortest
 * exit is exactly m. The table of test_recovers_known_parameters with
 * its minimums so printed: the same values come back. */
static void test_31_min_is_truncated_when_printed(void)
{
    params truth;
    static table t;
    truth_table(&truth, &t);
    int whole = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        if (t.rows[i].present && t.rows[i].count) {
            whole += t.rows[i].min != floor(t.rows[i].min);
            t.rows[i].min = floor(t.rows[i].min);
        }
    CU_ASSERT_FATAL(whole > 3); /* the model's minimums had fractions */
    static calib_result r;
    fit_from_defaults(&t, &r);
    CU_ASSERT(r.cost < 1e-3 * r.cost0);
    if (!(r.cost < 1e-3 * r.cost0))
        calib_write_report(stderr, &r);
    check_recovered(&r, &truth, 0.01);
}

/* A fitted CPI below the 440's dual-issue floor is a WARNING naming the
 * clock the table was read at (a 667 MHz board's table read at 400 MHz
 * fits with cpi 0.49, docs/validation.md); a value at the floor, or one
 * the fit held, is not. Each line stays an INI comment the reader takes
 * (under 200 characters). */
static void test_cpi_below_the_floor_is_warned(void)
{
    calib_result *r = calloc(1, sizeof *r);
    CU_ASSERT_FATAL(r != NULL);
    r->nparam = 3;
    r->clock_hz = 400e6;
    r->par[0] = (calib_param){.id = PARAM_cpi, .value = 0.49,
                              .state = CALIB_FITTED};
    r->par[1] = (calib_param){.id = PARAM_guest_cpi, .value = 0.5,
                              .state = CALIB_FITTED};
    r->par[2] = (calib_param){.id = PARAM_icache_miss_cycles, .value = 0.1,
                              .state = CALIB_FITTED};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_FATAL(f != NULL);
    calib_write_round(f, "; ", r);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "; WARNING: fitted cpi 0.49 is "
                                       "below 0.5"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "400 MHz"));
    CU_ASSERT_PTR_NULL(strstr(buf, "guest_cpi"));
    CU_ASSERT_PTR_NULL(strstr(buf, "icache"));
    free(buf);

    /* the guest's: the profile's runs named too; a held cpi is not the
     * fit's doing */
    r->par[0].state = CALIB_UNSEEN;
    r->par[1].value = 0.38;
    r->par[1].first_round = true;
    r->par[1].state = CALIB_COLLINEAR;
    f = open_memstream(&buf, &len);
    CU_ASSERT_FATAL(f != NULL);
    calib_write_round(f, "; ", r);
    fclose(f);
    CU_ASSERT_PTR_NULL(strstr(buf, "fitted cpi "));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "; WARNING: fitted guest_cpi 0.38"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "profile's guest runs"));
    for (char *l = buf; *l;) {
        size_t n = strcspn(l, "\n");
        CU_ASSERT(n < 200);
        l += n + (l[n] != 0);
    }
    free(buf);
    free(r);
}

static CU_TestInfo tests[] = {
    {"recovers known parameters, reports the unseen one",
     test_recovers_known_parameters},
    {"idle waits are reported, not fitted", test_idle_waits_are_not_fitted},
    {"the extreme share, by hand", test_extreme_share_by_hand},
    {"a row's weights fall with its extreme share",
     test_noise_weight_falls_with_the_extreme_share},
    {"one rare exit in the table is weighted by its noise",
     test_one_rare_exit_is_weighted_by_its_noise},
    {"a 3.1+ table's min is truncated when printed",
     test_31_min_is_truncated_when_printed},
    {"thread count does not change the result",
     test_thread_count_does_not_change_the_result},
    {"a start at the minimum is converged",
     test_start_at_the_minimum_is_converged},
    {"no row in common is refused", test_no_row_in_common_is_refused},
    {"a range excluding the start is refused",
     test_range_excluding_start_is_refused},
    {"a trace without exits is refused", test_trace_without_exits_is_refused},
    {"a fitted CPI below the dual-issue floor is warned",
     test_cpi_below_the_floor_is_warned},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("calib", tests)
