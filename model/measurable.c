/* measurable: trap count x per-trap cost against the noise of measured
 * runs (Welch t-test, GSL). */
#include "measurable.h"

#include <ctype.h>
#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Published costs of one trap, cheapest first (docs/measurable.md). The
 * cycle counts are converted at the 2.4 GHz of the APM X-Gene they were
 * measured on. */
static const meas_cost costs[] = {
    {"bare EL2 trap handled in EL2 (Xen ARM hypercall, X-Gene, 376 cycles)",
     376 / 2.4, "Dall et al., ISCA 2016, Table 3"},
    {"KVM arm64 hvc round trip to the host (VHE, Ampere Altra)", 306,
     "kvm-unit-tests micro-bench, LKML 2024-10-29"},
    {"full world switch to the host (KVM/ARM hypercall, X-Gene, 6,500 "
     "cycles)",
     6500 / 2.4, "Dall et al., ISCA 2016, Table 3"},
};

const meas_cost *meas_costs(size_t *n)
{
    *n = sizeof costs / sizeof costs[0];
    return costs;
}

/* Decimal digits up to a ':' or the end; the seconds (fraction) may have
 * a '.' and an exponent: strtod alone also takes hex (0x10 = 16 s). */
static bool plain_decimal(const char *p, bool fraction)
{
    size_t n = strspn(p, "0123456789");
    if (n == 0)
        return false;
    if (p[n] == '.' && fraction)
        n += 1 + strspn(p + n + 1, "0123456789");
    if ((p[n] == 'e' || p[n] == 'E') && fraction) {
        n += 1 + (p[n + 1] == '+' || p[n + 1] == '-');
        size_t d = strspn(p + n, "0123456789");
        if (d == 0)
            return false;
        n += d;
    }
    return p[n] == '\0' || p[n] == ':';
}

/* "186.11", "3:06.11", "1:03:06.11" -> seconds (only the seconds have a
 * fraction; a run takes some time: 0 is no wall time). */
static int parse_time(const char *s, double *out)
{
    double parts[3];
    int np = 0;
    const char *p = s;
    for (;;) {
        char *end;
        if (!plain_decimal(p, !strchr(p, ':')))
            return -1;
        errno = 0;
        double v = strtod(p, &end);
        if (errno || np == 3)
            return -1;
        parts[np++] = v;
        if (*end == ':') {
            p = end + 1;
            continue;
        }
        if (*end)
            return -1;
        break;
    }
    double t = 0;
    for (int i = 0; i < np; i++) {
        if (i > 0 && parts[i] >= 60)
            return -1;
        t = t * 60 + parts[i];
    }
    if (!(t > 0))
        return -1;
    *out = t;
    return 0;
}

/* The kernel called name, added if new; NULL with *e set if there is no
 * room (path:ln in the message). */
static meas_kernel *kernel(meas_data *d, const char *name, const char *path,
                           unsigned ln, sim_err *e)
{
    for (size_t i = 0; i < d->nk; i++)
        if (!strcmp(d->k[i].name, name))
            return &d->k[i];
    if (d->nk == sizeof d->k / sizeof d->k[0]) {
        *e = sim_fail(SIM_ERR_FORMAT, "%s:%u: too many kernels", path, ln);
        return NULL;
    }
    meas_kernel *k = &d->k[d->nk++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    k->traps = -1;
    return k;
}

sim_err meas_load(meas_data *d, const char *path)
{
    memset(d, 0, sizeof *d);
    snprintf(d->path, sizeof d->path, "%s", path);
    FILE *f = fopen(path, "r");
    if (!f)
        return sim_fail(SIM_ERR_IO, "%s: cannot open: %s", path,
                        strerror(errno));
    char line[1024];
    unsigned ln = 0;
    sim_err e = SIM_OK;
    while (e == SIM_OK && fgets(line, sizeof line, f)) {
        ln++;
        if (!strchr(line, '\n') && !feof(f)) {
            e = sim_fail(SIM_ERR_FORMAT, "%s:%u: line too long", path, ln);
            break;
        }
        char *save, *w = strtok_r(line, " \t\r\n", &save);
        if (!w || w[0] == '#')
            continue;
        if (!strcmp(w, "kernel")) {
            char *name = strtok_r(NULL, " \t\r\n", &save);
            char *kw = strtok_r(NULL, " \t\r\n", &save);
            if (!name || !kw || strcmp(kw, "wall")) {
                e = sim_fail(SIM_ERR_FORMAT, "%s:%u: expected 'kernel NAME "
                             "wall T1 T2 ...'", path, ln);
                break;
            }
            meas_kernel *k = kernel(d, name, path, ln, &e);
            if (!k)
                break;
            if (k->wall_line) {
                e = sim_fail(SIM_ERR_FORMAT, "%s:%u: kernel '%s' already has "
                             "its wall times (line %u): one line per kernel",
                             path, ln, name, k->wall_line);
                break;
            }
            k->wall_line = ln;
            for (char *t; (t = strtok_r(NULL, " \t\r\n", &save));) {
                double s;
                if (parse_time(t, &s)) {
                    e = sim_fail(SIM_ERR_FORMAT, "%s:%u: '%s' is not a wall "
                                 "time (s, m:ss or h:mm:ss)", path, ln, t);
                    break;
                }
                if (s > MEAS_MAX_WALL_S) {
                    e = sim_fail(SIM_ERR_RANGE, "%s:%u: wall time '%s' is "
                                 "above %.0f s", path, ln, t,
                                 MEAS_MAX_WALL_S);
                    break;
                }
                if (k->n == MEAS_MAX_RUNS) {
                    e = sim_fail(SIM_ERR_FORMAT, "%s:%u: more than %d runs",
                                 path, ln, MEAS_MAX_RUNS);
                    break;
                }
                k->wall[k->n++] = s;
            }
        } else if (!strcmp(w, "traps")) {
            char *name = strtok_r(NULL, " \t\r\n", &save);
            char *ev = strtok_r(NULL, " \t\r\n", &save);
            char *cnt = strtok_r(NULL, " \t\r\n", &save);
            char *end = NULL;
            /* a count: whole and decimal (strtod took 10.5 and 0x10) */
            double c = cnt && isdigit((unsigned char)cnt[0]) &&
                               cnt[strspn(cnt, "0123456789eE+")] == '\0'
                           ? strtod(cnt, &end)
                           : -1;
            if (c != floor(c))
                c = -1;
            if (!name || !ev || !cnt || (end && *end) || !(c >= 0) ||
                strtok_r(NULL, " \t\r\n", &save)) {
                e = sim_fail(SIM_ERR_FORMAT, "%s:%u: expected 'traps NAME "
                             "EVENT COUNT' (COUNT a whole decimal number)",
                             path, ln);
                break;
            }
            if (c > MEAS_MAX_TRAPS) {
                e = sim_fail(SIM_ERR_RANGE, "%s:%u: %s traps is above %.0e",
                             path, ln, cnt, MEAS_MAX_TRAPS);
                break;
            }
            meas_kernel *k = kernel(d, name, path, ln, &e);
            if (!k)
                break;
            if (k->traps_line) {
                e = sim_fail(SIM_ERR_FORMAT, "%s:%u: kernel '%s' already has "
                             "a trap count (line %u): one line per kernel",
                             path, ln, name, k->traps_line);
                break;
            }
            k->traps_line = ln;
            k->traps = c;
            snprintf(k->event, sizeof k->event, "%s", ev);
        } else {
            e = sim_fail(SIM_ERR_FORMAT, "%s:%u: unknown line '%s' "
                         "(expected kernel or traps)", path, ln, w);
        }
    }
    /* a directory opens and fails at the first read: not "needs two
     * kernels" */
    if (e == SIM_OK && ferror(f))
        e = sim_fail(SIM_ERR_IO, "%s: read failed: %s", path,
                     strerror(errno));
    fclose(f);
    if (e == SIM_OK && d->nk < 2)
        e = sim_fail(SIM_ERR_FORMAT, "%s: needs two kernels (a baseline "
                     "and a changed one)", path);
    return e;
}

sim_err meas_judge(const meas_data *d, size_t changed, const meas_opts *o,
                   meas_result *r)
{
    memset(r, 0, sizeof *r);
    if (changed == 0 || changed >= d->nk)
        return sim_fail(SIM_ERR_USAGE, "no kernel %zu to compare",
                        changed);
    const meas_kernel *a = &d->k[0], *b = &d->k[changed];
    const char *path = d->path[0] ? d->path : "the data";
    r->base = a;
    r->changed = b;
    if (a->n < 2 || b->n < 2)
        return sim_fail(SIM_ERR_USAGE, "%s: %s and %s need at least "
                        "2 runs each (%zu, %zu)", path, a->name, b->name,
                        a->n, b->n);
    if (o->extra_traps >= 0)
        r->extra_traps = o->extra_traps;
    else if (a->traps >= 0 && b->traps >= 0 && strcmp(a->event, b->event))
        return sim_fail(SIM_ERR_USAGE, "%s:%u,%u: %s counts %s, %s counts "
                        "%s: the difference of two events is no count of "
                        "extra traps; give --traps", path, a->traps_line,
                        b->traps_line, a->name, a->event, b->name, b->event);
    else if (a->traps >= 0 && b->traps >= 0)
        r->extra_traps = b->traps - a->traps;
    else if (a->traps < 0 && b->traps < 0)
        return sim_fail(SIM_ERR_USAGE, "%s: no trap counts for %s "
                        "and %s; give --traps", path, a->name, b->name);
    else
        return sim_fail(SIM_ERR_USAGE, "%s: no trap count for %s (%s has "
                        "one); give --traps", path,
                        a->traps < 0 ? a->name : b->name,
                        a->traps < 0 ? b->name : a->name);
    if (fabs(r->extra_traps) > MEAS_MAX_TRAPS)
        return sim_fail(SIM_ERR_RANGE, "%.3g extra traps is above %.0e",
                        r->extra_traps, MEAS_MAX_TRAPS);
    if (o->cost_hi_ns > MEAS_MAX_COST_NS)
        return sim_fail(SIM_ERR_RANGE, "a per-trap cost of %.3g ns is above "
                        "%.0e ns", o->cost_hi_ns, MEAS_MAX_COST_NS);
    size_t nc;
    const meas_cost *c = meas_costs(&nc);
    r->cost_lo_ns = o->cost_lo_ns > 0 ? o->cost_lo_ns : c[0].ns;
    r->cost_hi_ns = o->cost_hi_ns > 0 ? o->cost_hi_ns : c[nc - 1].ns;
    unsigned v = o->vcpus ? o->vcpus : 1;
    /* low: the traps spread evenly over the vCPUs of a parallel build;
     * high: every trap on the critical path */
    r->pred_lo_s = r->extra_traps * r->cost_lo_ns * 1e-9 / v;
    r->pred_hi_s = r->extra_traps * r->cost_hi_ns * 1e-9;

    r->mean_base = gsl_stats_mean(a->wall, 1, a->n);
    r->mean_changed = gsl_stats_mean(b->wall, 1, b->n);
    r->sd_base = gsl_stats_sd(a->wall, 1, a->n);
    r->sd_changed = gsl_stats_sd(b->wall, 1, b->n);
    double va = r->sd_base * r->sd_base / (double)a->n;
    double vb = r->sd_changed * r->sd_changed / (double)b->n;
    if (va + vb == 0)
        return sim_fail(SIM_ERR_RANGE, "%s: the runs of %s and %s do not vary "
                        "(standard deviation 0 in both): the Welch test "
                        "needs the runs' spread; give the times as measured, "
                        "unrounded", path, a->name, b->name);
    r->diff_s = r->mean_changed - r->mean_base;
    r->se_s = sqrt(va + vb);
    r->df = (va + vb) * (va + vb) /
            (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
    if (r->se_s > 0) {
        r->t = r->diff_s / r->se_s;
        r->p = 2 * gsl_cdf_tdist_Q(fabs(r->t), r->df);
    } else {
        r->t = 0;
        r->p = r->diff_s == 0 ? 1 : 0;
    }
    /* the smallest true change these runs would show at level alpha with
     * the given power: (t_{1-alpha/2} + t_{power}) x SE */
    r->mde_s = (gsl_cdf_tdist_Pinv(1 - o->alpha / 2, r->df) +
                gsl_cdf_tdist_Pinv(o->power, r->df)) *
               r->se_s;
    /* runs per kernel for the high prediction (normal approximation, the
     * two kernels' variances pooled) */
    double s2 = (r->sd_base * r->sd_base + r->sd_changed * r->sd_changed) / 2;
    double z = gsl_cdf_ugaussian_Pinv(1 - o->alpha / 2) +
               gsl_cdf_ugaussian_Pinv(o->power);
    /* a kernel with fewer traps predicts a decrease: its size is what
     * the runs can show or not, its sign what they must agree with */
    double hi = fabs(r->pred_hi_s);
    r->runs_needed = hi > 0 ? ceil(2 * s2 * z * z / (hi * hi)) : INFINITY;
    r->predicted_visible = hi > 0 && hi >= r->mde_s;
    r->measured_visible = r->p < o->alpha;
    /* both say "no visible change", or both see one (the measured one in
     * the direction of the predicted one: more traps, a longer run) */
    r->agree = r->predicted_visible == r->measured_visible &&
               (!r->measured_visible || r->diff_s * r->pred_hi_s > 0);
    return SIM_OK;
}
