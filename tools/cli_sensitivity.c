/* cli_sensitivity: `sim sensitivity TRACE` - every parameter ranked by how
 * much a 10% change moves the predicted run (model/sensitivity.c), said
 * the way a kernel developer asks it; --target: the single change that
 * cuts the run by that much. docs/sweep.md. */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "cli_sweep.h"
#include "outfile.h"
#include "params.h"
#include "sensitivity.h"

static void help(FILE *f)
{
    fprintf(f,
        "usage: sim sensitivity TRACE [--params P] [--set K=V] [--target -10%%]\n"
        "\n"
        "Moves every cycle-model parameter one at a time a step below and above\n"
        "its value (default 10%%; whole parameters by at least 1) and ranks them\n"
        "by how much the predicted run of TRACE changes: \"10%% cheaper X saves\n"
        "Y%% of the run\", the elasticity of the total (run change / parameter\n"
        "change, both relative) and the row that moves most.\n"
        "\n"
        "options:\n"
        "  --params P      the point: parameters from INI file P (e.g. calibrated)\n"
        "  --set K=V       override one parameter (repeatable)\n"
        "  --step PCT      the probe, in %% of each value (default 10)\n"
        "  --target PCT    e.g. -10%%: how far each single parameter would have to\n"
        "                  move to change the run by PCT, or that no value in its\n"
        "                  range can\n"
        "  --replay        probe the linear parameters by full replays too (default:\n"
        "                  from one replay's statistics, on the base trajectory)\n"
        "  --guest-time G  trace (default) | model, as in `sim replay`\n"
        "  --threads N     worker threads (default: the online CPUs)\n"
        "  --top N         parameters listed (default 15; 0: all that move the run)\n"
        "  -o FILE         every parameter with its per-row elasticities, CSV or\n"
        "                  .json (- is stdout: the report then goes to stderr)\n"
        "  --plot FILE     tornado chart (.png or .svg) of the top parameters\n"
        "  --transform T   the point is the transformed trace (`sim whatif\n"
        "                  --transform T`, docs/whatif.md); every probe is then\n"
        "                  a full prediction\n"
        "\n"
        "exit codes: 0 ok, 2 bad usage or input, 130 interrupted (Ctrl-C:\n"
        "nothing written).\n");
}

static bool is_cost_unit(const char *u)
{
    return strstr(u, "insn") || strstr(u, "cycles") || strstr(u, "usec") ||
           strstr(u, "lines") || strstr(u, "pages") || strstr(u, "calls");
}

/* The help text up to its first ';' (or a late " (") - what the
 * parameter is. */
static void what(param_id id, char *buf, size_t n)
{
    const char *h = param_help(id);
    size_t l = strcspn(h, ";");
    const char *par = strstr(h, " (");
    if (par && par - h >= 24 && (size_t)(par - h) < l)
        l = (size_t)(par - h);
    while (l > 0 && h[l - 1] == ' ')
        l--;
    if (l > 70) { /* cut at a list's comma, else between words */
        size_t c = 70, w = 0;
        while (c > 0 && h[c] != ',')
            c--;
        for (size_t i = 70; i > 0 && !w; i--)
            if (h[i] == ' ')
                w = i;
        l = c > 24 ? c : w ? w : 70;
        while (l > 0 && h[l - 1] == ' ')
            l--;
    }
    snprintf(buf, n, "%.*s", (int)l, h);
}

/* The run moves the same way for the lower and the higher probe. */
static bool non_monotone(const sens_entry *x)
{
    return (x->lo_pct > 0 && x->hi_pct > 0) || (x->lo_pct < 0 && x->hi_pct < 0);
}

static int cmp_effect(const void *a, const void *b)
{
    const sens_entry *x = *(const sens_entry *const *)a,
                     *y = *(const sens_entry *const *)b;
    /* the number the sentence says: the lower value's effect (the higher
     * one's for a parameter at its minimum) */
    double ex = fabs(x->lo != x->base ? x->lo_pct : x->hi_pct),
           ey = fabs(y->lo != y->base ? y->lo_pct : y->hi_pct);
    if (ex != ey)
        return ex < ey ? 1 : -1;
    return (int)x->id - (int)y->id;
}

static double rel_change(const sens_entry *e, double v)
{
    return e->base != 0 ? 100.0 * (v - e->base) / e->base : 0;
}

static int cmp_target(const void *a, const void *b)
{
    const sens_entry *x = *(const sens_entry *const *)a,
                     *y = *(const sens_entry *const *)b;
    int fx = x->target == SENS_T_FOUND, fy = y->target == SENS_T_FOUND;
    if (fx != fy)
        return fy - fx;
    double cx = fabs(rel_change(x, x->target_value)),
           cy = fabs(rel_change(y, y->target_value));
    if (fx && cx != cy)
        return cx < cy ? -1 : 1;
    if (!fx && x->target_pct != y->target_pct) /* closest first */
        return x->target_pct < y->target_pct ? -1 : 1;
    return (int)x->id - (int)y->id;
}

/* The row whose time moves most (relative to the whole run) at lo. */
/* The probe the ranking and its sentence use: the lower value, or the
 * higher one for a parameter already at its minimum (cmp_effect). */
static bool use_hi(const sens_entry *e)
{
    return e->lo == e->base;
}

static int top_row(const sens_entry *e, const sweep_totals *at, double *pct)
{
    int best = -1;
    double bd = 0;
    const sweep_totals *p = use_hi(e) ? &e->t_hi : &e->t_lo;
    for (int t = 0; t < EXIT__COUNT; t++) {
        double d = (double)p->sum[t] - (double)at->sum[t];
        if (fabs(d) > fabs(bd)) {
            bd = d;
            best = t;
        }
    }
    *pct = best >= 0 && at->sum[best]
               ? 100.0 * bd / (double)at->sum[best]
               : 0;
    return best;
}

static double row_elasticity(const sens_entry *e, const sweep_totals *at,
                             int t)
{
    double dv = (e->hi - e->lo) / (e->base ? e->base : 1);
    if (!at->sum[t] || dv == 0)
        return 0;
    return ((double)e->t_hi.sum[t] - (double)e->t_lo.sum[t]) /
           (double)at->sum[t] / dv;
}

static sim_err write_table(FILE *f, bool json, const sens_entry *e, size_t n,
                           const sweep_totals *at, bool target)
{
    bool row[EXIT__COUNT];
    for (int t = 0; t < EXIT__COUNT; t++)
        row[t] = at->count[t] > 0;
    if (json) {
        fprintf(f, "{\n \"base_total_ticks\": %llu,\n \"params\": [",
                (unsigned long long)at->total);
        for (size_t i = 0; i < n; i++) {
            fprintf(f,
                    "%s\n  {\"name\": \"%s\", \"linear\": %s, \"value\": %.10g, "
                    "\"lower\": %.10g, \"higher\": %.10g, \"lower_run_pct\": "
                    "%.6f, \"higher_run_pct\": %.6f, \"elasticity\": %.6f, "
                    "\"exact\": %s",
                    i ? "," : "", param_name(e[i].id),
                    e[i].linear ? "true" : "false", e[i].base, e[i].lo,
                    e[i].hi, e[i].lo_pct, e[i].hi_pct, e[i].elasticity,
                    e[i].exact ? "true" : "false");
            if (target)
                fprintf(f,
                        ", \"target\": \"%s\", \"target_value\": %.10g, "
                        "\"target_run_pct\": %.6f",
                        e[i].target == SENS_T_FOUND      ? "found"
                        : e[i].target == SENS_T_RANGE    ? "out of range"
                        : e[i].target == SENS_T_NOEFFECT ? "no effect"
                                                         : "none",
                        e[i].target_value, e[i].target_pct);
            fprintf(f, ", \"row_elasticity\": {");
            bool first = true;
            for (int t = 0; t < EXIT__COUNT; t++)
                if (row[t]) {
                    fprintf(f, "%s\"%s\": %.6f", first ? "" : ", ",
                            exit_name((exit_type)t),
                            row_elasticity(&e[i], at, t));
                    first = false;
                }
            fprintf(f, "}}");
        }
        fprintf(f, "\n ]\n}\n");
        return SIM_OK;
    }
    fprintf(f, "param,linear,value,lower,higher,lower_run_pct,higher_run_pct,"
               "elasticity,exact");
    if (target)
        fprintf(f, ",target,target_value,target_run_pct");
    for (int t = 0; t < EXIT__COUNT; t++)
        if (row[t])
            fprintf(f, ",%s_elasticity", exit_name((exit_type)t));
    fputc('\n', f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s,%d,%.10g,%.10g,%.10g,%.6f,%.6f,%.6f,%d",
                param_name(e[i].id), e[i].linear, e[i].base, e[i].lo, e[i].hi,
                e[i].lo_pct, e[i].hi_pct, e[i].elasticity, e[i].exact);
        if (target)
            fprintf(f, ",%s,%.10g,%.6f",
                    e[i].target == SENS_T_FOUND      ? "found"
                    : e[i].target == SENS_T_RANGE    ? "out_of_range"
                    : e[i].target == SENS_T_NOEFFECT ? "no_effect"
                                                     : "none",
                    e[i].target_value, e[i].target_pct);
        for (int t = 0; t < EXIT__COUNT; t++)
            if (row[t])
                fprintf(f, ",%.6f", row_elasticity(&e[i], at, t));
        fputc('\n', f);
    }
    return SIM_OK;
}

static volatile sig_atomic_t stop_flag;
static void on_sigint(int sig)
{
    (void)sig;
    stop_flag = 1;
}

/* "-10%", "-10", "-0.1" is not accepted (ambiguous): percent only. */
static int parse_pct(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    if (end == s || (*end && strcmp(end, "%")) || !isfinite(*v))
        return -1;
    return 0;
}

int cli_sensitivity(int argc, char **argv)
{
    static const struct option opts[] = {
        {"params", required_argument, 0, 'P'},
        {"set", required_argument, 0, 's'},
        {"step", required_argument, 0, 'd'},
        {"target", required_argument, 0, 'T'},
        {"replay", no_argument, 0, 'R'},
        {"guest-time", required_argument, 0, 'g'},
        {"threads", required_argument, 0, 'j'},
        {"top", required_argument, 0, 'n'},
        {"plot", required_argument, 0, 'G'},
        {"transform", required_argument, 0, 'X'},
        {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    char *sets[64];
    int nsets = 0;
    const char *pfile = NULL, *out = NULL, *plot = NULL;
    sens_opts so = {.step = 0.10, .guest = COST_GUEST_TRACE};
    unsigned long long threads = 0, top = 15;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        double v;
        switch (c) {
        case 'P':
            if (cli_once("sensitivity", "--params", &pfile, optarg))
                return 2;
            break;
        case 's':
            if (nsets == (int)(sizeof sets / sizeof sets[0]))
                return cli_usage_error("sensitivity", "too many --set");
            sets[nsets++] = optarg;
            break;
        case 'd':
            if (parse_pct(optarg, &v) || v <= 0 || v >= 100)
                return cli_usage_error("sensitivity", "--step: expected a "
                                       "percentage in (0, 100), not '%s'",
                                       optarg);
            so.step = v / 100;
            break;
        case 'T':
            if (parse_pct(optarg, &v) || v == 0 || v <= -100 || v > 1000)
                return cli_usage_error("sensitivity", "--target: expected a "
                                       "run change like -10%%, not '%s'",
                                       optarg);
            so.target = v / 100;
            break;
        case 'R': so.replay = true; break;
        case 'g':
            if (cli_parse_guest_time("sensitivity", optarg, &so.guest))
                return 2;
            break;
        case 'j':
            if (cli_parse_threads("sensitivity", optarg, &threads))
                return 2;
            break;
        case 'n':
            if (cli_parse_u64(optarg, &top))
                return cli_usage_error("sensitivity", "--top: expected a "
                                       "number, not '%s'", optarg);
            break;
        case 'G':
            if (cli_once("sensitivity", "--plot", &plot, optarg))
                return 2;
            break;
        case 'X':
            if (cli_once("sensitivity", "--transform", &so.transform, optarg))
                return 2;
            break;
        case 'o':
            if (cli_once("sensitivity", "-o", &out, optarg))
                return 2;
            break;
        case 'h': help(stdout); return 0;
        default:
            return cli_bad_option("sensitivity", "o:h", opts, argv);
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("sensitivity", optind >= argc
                               ? "missing TRACE" : "one TRACE expected");
    const char *trace = argv[optind];
    static params base;
    int rc = cli_sweep_check_run(&base, trace, out, plot, pfile, sets, nsets,
                                 so.transform);
    if (rc != 0)
        return rc;
    so.threads = cli_sweep_threads(threads);
    stop_flag = 0;
    so.stop = &stop_flag;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, &old);
    static sweep_base b;
    static sens_entry e[PARAM__COUNT];
    size_t n = 0;
    sim_err err = sens_run(trace, &base, &so, &b, e, &n);
    sigaction(SIGINT, &old, NULL);
    if (err != SIM_OK)
        return cli_report(err);
    if (stop_flag) {
        fprintf(stderr, "sim sensitivity: interrupted\n");
        return 130;
    }

    const sweep_totals *at = &b.at;
    /* the table on stdout (-o -, /dev/stdout): the report goes to stderr,
     * or the CSV would start with it */
    FILE *rs = out && outfile_is_stdout(out) ? stderr : stdout;
    const char *slash = strrchr(trace, '/');
    double tpu = (double)(at->tb_per_usec ? at->tb_per_usec : 1);
    fprintf(rs, "# sim sensitivity of %s: predicted run %.6f s (cycle model, "
           "traced duration)\n",
           slash ? slash + 1 : trace, (double)at->total / tpu / 1e6);
    bool all_exact = true;
    for (size_t i = 0; i < n; i++)
        all_exact = all_exact && (!e[i].probed || e[i].exact);
    fprintf(rs, "# each parameter %g%% lower and higher, one at a time; %s\n",
           100 * so.step,
           so.transform ? "every probe a full what-if prediction"
           : so.replay  ? "every probe a full replay"
                     : "linear parameters from one replay's unit counts, "
                       "stateful ones by a replay each");
    if (!all_exact)
        fprintf(rs, "# note: host interrupts arrive inside handler windows "
               "here, so probes of linear parameters are first order, on the "
               "base point's trajectory: they leave out the host work a "
               "longer handler catches (--replay includes it; "
               "docs/sweep.md)\n");
    size_t nflat = 0;
    for (size_t i = 0; i < n; i++)
        nflat += e[i].probed && non_monotone(&e[i]);
    if (nflat)
        fprintf(rs, "# note: %zu parameter(s) marked NOT MONOTONE move the run "
               "the same way whether %s or raised: a discrete effect of "
               "this trace (e.g. EMUL_WAIT exits idling until the next "
               "guest tick), not a cost of their path; read their line as "
               "noise, not as a saving\n",
               nflat, "lowered");
    const sens_entry *rank[PARAM__COUNT];
    size_t nr = 0, nzero = 0;
    for (size_t i = 0; i < n; i++) {
        if (e[i].probed && (e[i].lo_pct != 0 || e[i].hi_pct != 0))
            rank[nr++] = &e[i];
        else
            nzero++;
    }
    qsort(rank, nr, sizeof rank[0], cmp_effect);
    size_t shown = top && top < nr ? (size_t)top : nr;
    fprintf(rs, "\n");
    for (size_t k = 0; k < shown; k++) {
        const sens_entry *x = rank[k];
        char w[96];
        what(x->id, w, sizeof w);
        const char *u = param_unit(x->id);
        bool cost = is_cost_unit(u), hi = use_hi(x);
        double v = hi ? x->hi : x->lo, run = hi ? x->hi_pct : x->lo_pct;
        double step_pct = rel_change(x, v);
        double rp;
        int tr = top_row(x, at, &rp);
        /* lower and higher both move the run the same way: no slope
         * here, a discrete effect (e.g. an EMUL_WAIT idling to the next
         * guest tick), so no "saves"/"costs" claim */
        bool flat = non_monotone(x);
        fprintf(rs, "%2zu. %.0f%% %s %s (%s %.6g -> %.6g%s%s): %s %.3f%% of the "
               "run%s",
               k + 1, fabs(step_pct),
               hi ? (cost ? "dearer" : "higher") : (cost ? "cheaper" : "lower"),
               w, param_name(x->id), x->base, v, strcmp(u, "1") ? " " : "",
               strcmp(u, "1") ? u : "",
               flat ? "moves" : run <= 0 ? "saves" : "costs", fabs(run),
               flat ? " either way (NOT MONOTONE)" : "");
        if (tr >= 0)
            fprintf(rs, "; %s time %+.2f%%", exit_name((exit_type)tr), rp);
        fprintf(rs, "; elasticity %.4f%s\n", x->elasticity,
               x->linear ? "" : " (replayed)");
    }
    if (nzero)
        fprintf(rs, "\n%zu parameters do not move this run (0, or no exit takes "
               "their path)\n",
               nzero);

    if (so.target != 0) {
        const sens_entry *tg[PARAM__COUNT];
        size_t nt = 0;
        for (size_t i = 0; i < n; i++)
            if (e[i].target == SENS_T_FOUND || e[i].target == SENS_T_RANGE)
                tg[nt++] = &e[i];
        qsort(tg, nt, sizeof tg[0], cmp_target);
        fprintf(rs, "\nTo change the run by %+g%%, one parameter at a time:\n",
               100 * so.target);
        /* the heading alone read as an answer left out */
        if (nt == 0)
            fprintf(rs, "  none: no parameter moves this run\n");
        size_t lim = top && top < nt ? (size_t)top : nt;
        for (size_t k = 0; k < lim; k++) {
            const sens_entry *x = tg[k];
            const char *u = param_unit(x->id); /* "1": no unit */
            if (x->target == SENS_T_FOUND)
                fprintf(rs, "  %-22s %.6g -> %.6g%s%s (%+.1f%%): run %+.2f%%%s\n",
                       param_name(x->id), x->base, x->target_value,
                       strcmp(u, "1") ? " " : "", strcmp(u, "1") ? u : "",
                       rel_change(x, x->target_value),
                       x->target_pct, x->target_exact ? "" : " (first order)");
            else
                fprintf(rs, "  %-22s no value in its range %g .. %g can: at %.6g "
                       "the run changes by only %+.2f%%\n",
                       param_name(x->id), param_min(x->id), param_max(x->id),
                       x->target_value, x->target_pct);
        }
    }
    /* -o is committed after the plot: a plot that failed left the table
     * written under an exit code 2 ("an error means no output") */
    outfile of;
    if (out) {
        err = outfile_open(&of, out);
        if (err != SIM_OK)
            return cli_report(err);
        size_t l = strlen(out);
        /* x.JSON too: it held CSV */
        bool json = l > 5 && !strcasecmp(out + l - 5, ".json");
        err = write_table(of.f, json, e, n, at, so.target != 0);
    }
    if (err == SIM_OK && plot) {
        const char *labels[PARAM__COUNT];
        char named[PARAM__COUNT][96];
        double lo[PARAM__COUNT], hi[PARAM__COUNT];
        size_t np = shown, others = 0;
        for (size_t k = 0; k < np; k++) {
            const sens_entry *x = rank[k];
            /* a probe that is not the nominal step (a whole number, a
             * power of two, a range's end: 2 -> 1 is 50%) says its values
             * on its bar, or the legend's "10%" would be false for it */
            double nominal = 100 * so.step;
            bool other = (x->lo != x->base &&
                          fabs(fabs(rel_change(x, x->lo)) - nominal) > 0.5) ||
                         (x->hi != x->base &&
                          fabs(fabs(rel_change(x, x->hi)) - nominal) > 0.5);
            if (other) {
                snprintf(named[k], sizeof named[k], "%s (%.6g / %.6g / %.6g)",
                         param_name(x->id), x->lo, x->base, x->hi);
                labels[k] = named[k];
                others++;
            } else
                labels[k] = param_name(x->id);
            lo[k] = x->lo_pct;
            hi[k] = x->hi_pct;
        }
        char title[200];
        snprintf(title, sizeof title,
                 "sim sensitivity: each parameter %g%% lower / higher%s",
                 100 * so.step, others ? " (or as named)" : "");
        err = tornado_plot(plot, title, labels, lo, hi, np);
    }
    if (out)
        err = outfile_finish(&of, err);
    return err == SIM_OK ? 0 : cli_report(err);
}
