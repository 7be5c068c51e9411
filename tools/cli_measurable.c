/* cli_measurable: `sim measurable DATA` - is a change in the number of
 * traps visible in measured wall times? (model/measurable.c,
 * docs/measurable.md) */
#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "measurable.h"

static void help(FILE *f)
{
    size_t n;
    const meas_cost *c = meas_costs(&n);
    fprintf(f,
        "usage: sim measurable DATA [options]\n"
        "\n"
        "Would the extra traps of a changed kernel show in the measured wall\n"
        "times? Predicts the wall-time increase (extra traps x per-trap cost,\n"
        "over a range of published costs), takes the runs' standard error and\n"
        "the smallest change they could detect (Welch t-test), and prints the\n"
        "verdict of the prediction, of the measurement, and whether they agree.\n"
        "DATA: lines 'kernel NAME wall T1 T2 ...' and 'traps NAME EVENT COUNT'\n"
        "(e.g. validation/hw/arm64-mair-kernel-compile.txt; docs/measurable.md).\n"
        "\n"
        "options:\n"
        "  --changed NAME   the kernel compared with the first one (default:\n"
        "                   the second)\n"
        "  --traps N        extra traps (default: the difference of the counts)\n"
        "  --cost-ns LO:HI  per-trap cost range in ns (default: the published\n"
        "                   range below)\n"
        "  --vcpus V        the traps spread over V vCPUs in the low bound\n"
        "                   (default 1: every trap on the critical path)\n"
        "  --alpha A        test level, two-sided (default 0.05)\n"
        "  --power P        power for the smallest detectable change (0.8)\n"
        "  --check          exit 1 if prediction and measurement disagree\n"
        "\n"
        "published per-trap costs (docs/measurable.md):\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "  %8.1f ns  %s [%s]\n", c[i].ns, c[i].what, c[i].source);
    fprintf(f, "\nexit codes: 0 ok, 1 --check failed, 2 bad usage or input.\n");
}

/* A decimal number as written: digits first (strtod alone also takes
 * " 5", "+5" and hex: 0x10 = 16). */
static int parse_double(const char *s, double *v)
{
    char *end;
    const char *d = s[0] == '.' ? s + 1 : s; /* .05 too */
    if (!isdigit((unsigned char)d[0]) || strpbrk(s, "xX"))
        return -1;
    *v = strtod(s, &end);
    return end == s || *end || !isfinite(*v) ? -1 : 0;
}

int cli_measurable(int argc, char **argv)
{
    static const struct option opts[] = {
        {"changed", required_argument, 0, 'c'},
        {"traps", required_argument, 0, 'n'},
        {"cost-ns", required_argument, 0, 'C'},
        {"vcpus", required_argument, 0, 'v'},
        {"alpha", required_argument, 0, 'a'},
        {"power", required_argument, 0, 'p'},
        {"check", no_argument, 0, 'k'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    meas_opts o = {.extra_traps = -1, .vcpus = 1, .alpha = 0.05,
                   .power = 0.8};
    const char *changed = NULL;
    bool check = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        double v;
        switch (c) {
        case 'c': changed = optarg; break;
        case 'n':
            /* whole: 10.5 was used as 10.5 and printed as 10 */
            if (parse_double(optarg, &v) || v < 0 || v > MEAS_MAX_TRAPS ||
                v != floor(v))
                return cli_usage_error("measurable", "--traps: expected a "
                                       "whole count from 0 to %.0e, not '%s'",
                                       MEAS_MAX_TRAPS, optarg);
            o.extra_traps = v;
            break;
        case 'C': {
            char *colon = strchr(optarg, ':');
            char lo[64];
            if (!colon || (size_t)(colon - optarg) >= sizeof lo)
                return cli_usage_error("measurable", "--cost-ns: expected "
                                       "LO:HI, not '%s'", optarg);
            memcpy(lo, optarg, (size_t)(colon - optarg));
            lo[colon - optarg] = 0;
            if (parse_double(lo, &o.cost_lo_ns) ||
                parse_double(colon + 1, &o.cost_hi_ns) ||
                !(o.cost_lo_ns > 0) || o.cost_hi_ns < o.cost_lo_ns ||
                o.cost_hi_ns > MEAS_MAX_COST_NS)
                return cli_usage_error("measurable", "--cost-ns: expected "
                                       "0 < LO <= HI <= %.0e, not '%s'",
                                       MEAS_MAX_COST_NS, optarg);
            break;
        }
        case 'v':
            if (parse_double(optarg, &v) || v < 1 || v > 4096 ||
                v != floor(v))
                return cli_usage_error("measurable", "--vcpus: expected "
                                       "1..4096, not '%s'", optarg);
            o.vcpus = (unsigned)v;
            break;
        case 'a':
            if (parse_double(optarg, &o.alpha) || !(o.alpha > 0) ||
                !(o.alpha < 0.5))
                return cli_usage_error("measurable", "--alpha: expected a "
                                       "level in (0, 0.5), not '%s'", optarg);
            break;
        case 'p':
            if (parse_double(optarg, &o.power) || !(o.power >= 0.5) ||
                !(o.power < 1))
                return cli_usage_error("measurable", "--power: expected "
                                       "[0.5, 1), not '%s'", optarg);
            break;
        case 'k': check = true; break;
        case 'h': help(stdout); return 0;
        default:
            return cli_bad_option("measurable", "h", opts, argv);
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("measurable", optind >= argc
                               ? "missing DATA" : "one DATA file expected");
    const char *path = argv[optind];
    static meas_data d;
    sim_err e = meas_load(&d, path);
    if (e != SIM_OK)
        return cli_report(e);
    size_t k = 1;
    if (changed) {
        for (k = 1; k < d.nk && strcmp(d.k[k].name, changed); k++)
            ;
        if (k == d.nk && !strcmp(d.k[0].name, changed))
            return cli_usage_error("measurable", "--changed %s: %s is the "
                                   "baseline (the first kernel of %s); the "
                                   "changed one is another", changed,
                                   changed, path);
        if (k == d.nk)
            return cli_usage_error("measurable", "%s has no kernel '%s'",
                                   path, changed);
    }
    meas_result r;
    e = meas_judge(&d, k, &o, &r);
    if (e != SIM_OK)
        return cli_report(e);

    const char *slash = strrchr(path, '/');
    printf("# sim measurable: %s, kernel %s against %s\n",
           slash ? slash + 1 : path, r.changed->name, r.base->name);
    printf("extra traps            %.0f", r.extra_traps);
    if (o.extra_traps < 0)
        printf(" (%s: %.0f - %.0f)", r.changed->event, r.changed->traps,
               r.base->traps);
    printf("\nper-trap cost          %.1f .. %.1f ns%s\n", r.cost_lo_ns,
           r.cost_hi_ns,
           o.cost_lo_ns > 0 ? " (given)"
                            : " (bare EL2 trap .. full world switch, "
                              "docs/measurable.md)");
    printf("predicted change       %+.4f .. %+.4f s (%+.4f%% .. %+.4f%% of "
           "the %.2f s baseline)%s\n",
           r.pred_lo_s, r.pred_hi_s, 100 * r.pred_lo_s / r.mean_base,
           100 * r.pred_hi_s / r.mean_base, r.mean_base,
           o.vcpus > 1 ? "; low bound spread over the vCPUs" : "");
    printf("measured %-13s %.3f s mean of %zu runs, sd %.3f s\n",
           r.base->name, r.mean_base, r.base->n, r.sd_base);
    printf("measured %-13s %.3f s mean of %zu runs, sd %.3f s\n",
           r.changed->name, r.mean_changed, r.changed->n, r.sd_changed);
    printf("measured change        %+.3f s (%+.3f%%)\n", r.diff_s,
           100 * r.diff_s / r.mean_base);
    printf("standard error         %.3f s (Welch, %.2f degrees of freedom)\n",
           r.se_s, r.df);
    printf("Welch t-test           t = %.3f, p = %.3f (two-sided)\n", r.t,
           r.p);
    printf("smallest detectable    %.3f s (%.2f%%) at alpha %.2g with power "
           "%.2g\n",
           r.mde_s, 100 * r.mde_s / r.mean_base, o.alpha, o.power);
    printf("runs needed            %.0f per kernel to detect %+.4f s\n",
           r.runs_needed, r.pred_hi_s);
    if (r.predicted_visible)
        printf("prediction             visible: the high bound is %.1fx the "
               "smallest detectable change\n",
               fabs(r.pred_hi_s) / r.mde_s);
    else
        printf("prediction             not visible: even the high bound is "
               "%.1fx below the smallest detectable change\n",
               r.pred_hi_s != 0 ? r.mde_s / fabs(r.pred_hi_s) : INFINITY);
    printf("measurement            %s (p %s %.2g)\n",
           r.measured_visible ? "a significant change"
                              : "no significant change",
           r.measured_visible ? "<" : ">=", o.alpha);
    printf("verdict                %s\n",
           r.agree ? (r.predicted_visible
                          ? "agree: the change is visible in these runs"
                          : "agree: these runs cannot show the change")
                   : "DISAGREE: prediction and measurement differ");
    return check && !r.agree ? 1 : 0;
}
