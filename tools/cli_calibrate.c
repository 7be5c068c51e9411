/* cli_calibrate: `sim calibrate --trace T --table HW -o params.ini` - the
 * cycle model's parameters fitted so that replaying T reproduces the
 * hardware table HW (model/calib.c, docs/calibration.md); params.ini is what
 * `--params` reads, headed by the inputs' SHA-256 and the fit's summary. */
#include <getopt.h>
#include <math.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib.h"
#include "cli.h"
#include "outfile.h"
#include "params.h"
#include "sim_config.h"
#include "table.h"

static void help(FILE *f)
{
    fprintf(f,
        "usage: sim calibrate --trace T --table HW -o params.ini [options]\n"
        "\n"
        "Fits the cycle model's parameters so that replaying trace T through the\n"
        "model reproduces the exit-timing table HW row by row: avg, stddev and min\n"
        "of every row both have (TIMEINGUEST included), each row weighted by the\n"
        "square root of its share of the traced time and less where the row's\n"
        "count, spread and most extreme exit make its avg or stddev noisy (a\n"
        "stddev that one rare exit sets). Counts are not fitted (they\n"
        "come from the trace; rows whose mix differs are listed first). GSL trust\n"
        "region over each parameter's range; finite differences with the model's\n"
        "seed fixed. Parameters the table cannot determine (no effect, or collinear\n"
        "with others: Jacobian singular values, pivoted QR) are named and held;\n"
        "the choice is made again at the fitted point, and the fit goes on\n"
        "when it picks another set (kept when its objective is lower).\n"
        "Whole-number parameters are rounded; when that more than doubles the\n"
        "objective, their other whole neighbours are tried.\n"
        "Prints the fitted values with 1-sigma uncertainties, the per-row table of\n"
        "measured vs fitted and the total duration error; writes params.ini for\n"
        "--params, with each fitted value's 1-sigma, the estimates'\n"
        "correlations and the residual variance scaling them as ; comments\n"
        "(what sim validate's param_draws draws from and weighs the draws\n"
        "by). Objective, weights, identifiability and how to read the\n"
        "uncertainties: docs/calibration.md.\n"
        "\n"
        "options:\n"
        "  --trace T          trace.bin to replay (sim record, import, trace synth)\n"
        "  --table HW         hardware exit-timing table (any format sim table reads)\n"
        "  -o FILE            params.ini to write (temporary name, then renamed;\n"
        "                     - is stdout, and the report then goes to stderr)\n"
        "  --params P         start from the parameters in INI file P\n"
        "  --set K=V          start value of one parameter (repeatable)\n"
        "  --fit A,B,...      fit exactly these parameters (default: every cost\n"
        "                     whose default is an assumption; `sim params show`)\n"
        "  --fix A,B,...      keep these at their start values\n"
        "  --range K=LO:HI    fit K within [LO, HI] (default: its declared range)\n"
        "  --subsample N      exits per replay, in 64 evenly spread blocks (default\n"
        "                     2M; 0 = the whole trace); the fit then goes on from\n"
        "                     its point on the whole trace (--refine-iter) and\n"
        "                     the subsample's bias is printed\n"
        "  --refine-iter N    at most N iterations on the whole trace after a\n"
        "                     subsample fit (default 6; 0 = none: the result is\n"
        "                     the subsample's, checked on the whole trace)\n"
        "  --threads N        threads for the finite differences (default 2; the\n"
        "                     result does not depend on it)\n"
        "  --max-iter N       trust-region iterations (default 40)\n"
        "  --rank-tol X       relative pivot below which a direction is undetermined\n"
        "                     (default 1e-2)\n"
        "  --fd-step X        finite-difference step in each parameter's logit\n"
        "                     coordinate (default 0.05: about 5%% near the range's\n"
        "                     lower end)\n"
        "  --accounting A     the table's accounting: 2.6.29 (2.6.29-2.6.37,\n"
        "                     default) or 3.1 (3.1+), as sim replay (--unit\n"
        "                     usec|ticks: deprecated)\n"
        "  --tb-per-usec N    HW is debugfs in the 3.1+ form: timebase ticks per\n"
        "                     usec (e.g. 667), as sim table show; implies\n"
        "                     --accounting 3.1\n"
        "                     (a json table that states its accounting, as\n"
        "                     sim replay writes it, is fitted in that one;\n"
        "                     --accounting must not contradict it)\n"
        "\n"
        "exit codes: 0 fitted, 1 the fit did not converge (params.ini holds the\n"
        "best point and says so), 2 bad usage or input.\n");
}

static void progress_line(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
}

/* SHA-256 of a file as hex; 0 or -1 if unreadable. */
static int sha256_file(const char *path, char hex[65])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    struct sha256_ctx c;
    sha256_init(&c);
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(&c, n, buf);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return -1;
    unsigned char d[SHA256_DIGEST_SIZE];
    sha256_digest(&c, sizeof d, d);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    return 0;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Applies a comma-separated list of names to fit[] (set = on/off). */
static int name_list(const char *opt, const char *list, bool *fit, bool on)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    int n = 0;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        while (*t == ' ')
            t++;
        int id = param_from_name(t);
        if (id < 0) {
            fprintf(stderr, "sim calibrate: %s: unknown parameter '%s' (did "
                    "you mean '%s'? see `sim params show`)\n", opt, t,
                    param_nearest_name(t));
            return 2;
        }
        if (on && id == PARAM_seed) {
            fprintf(stderr, "sim calibrate: %s: seed is the generator's, "
                    "not a cost: it cannot be fitted\n", opt);
            return 2;
        }
        if (on && id == PARAM_core_hz) {
            fprintf(stderr, "sim calibrate: %s: core_hz is the trace's own "
                    "clock (its header), not a cost: it cannot be fitted\n",
                    opt);
            return 2;
        }
        fit[id] = on;
        n++;
    }
    if (n == 0)
        return cli_usage_error("calibrate", "%s: expected NAME[,NAME...]", opt);
    return 0;
}

static int parse_range(const char *arg, calib_opts *o, bool *ranged)
{
    const char *eq = strchr(arg, '=');
    char name[64];
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof name)
        return cli_usage_error("calibrate", "--range %s: expected NAME=LO:HI",
                               arg);
    memcpy(name, arg, (size_t)(eq - arg));
    name[eq - arg] = '\0';
    int id = param_from_name(name);
    if (id < 0) {
        fprintf(stderr, "sim calibrate: --range: unknown parameter '%s' (did "
                "you mean '%s'?)\n", name, param_nearest_name(name));
        return 2;
    }
    char *end;
    double lo = strtod(eq + 1, &end);
    if (end == eq + 1 || *end != ':')
        return cli_usage_error("calibrate", "--range %s: expected NAME=LO:HI",
                               arg);
    const char *h = end + 1;
    double hi = strtod(h, &end);
    if (end == h || *end || !isfinite(lo) || !isfinite(hi))
        return cli_usage_error("calibrate", "--range %s: expected NAME=LO:HI",
                               arg);
    if (ranged[id])
        return cli_usage_error("calibrate", "--range %s: %s has a range "
                               "already (one --range per parameter)", arg,
                               name);
    ranged[id] = true;
    o->lo[id] = lo;
    o->hi[id] = hi;
    return 0;
}

int cli_calibrate(int argc, char **argv)
{
    static const struct option opts[] = {
        {"trace", required_argument, 0, 'T'},
        {"table", required_argument, 0, 'H'},
        {"output", required_argument, 0, 'o'},
        {"params", required_argument, 0, 'P'},
        {"set", required_argument, 0, 's'},
        {"fit", required_argument, 0, 'F'},
        {"fix", required_argument, 0, 'X'},
        {"range", required_argument, 0, 'R'},
        {"subsample", required_argument, 0, 'S'},
        {"threads", required_argument, 0, 'j'},
        {"max-iter", required_argument, 0, 'I'},
        {"refine-iter", required_argument, 0, 'i'},
        {"rank-tol", required_argument, 0, 'r'},
        {"fd-step", required_argument, 0, 'd'},
        {"accounting", required_argument, 0, 'a'},
        {"tb-per-usec", required_argument, 0, 'B'},
        {"unit", required_argument, 0, 'u'}, /* deprecated */
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    static calib_opts o;
    calib_opts_default(&o);
    const char *trace = NULL, *hwpath = NULL, *out = NULL, *pfile = NULL;
    char *sets[64];
    int nsets = 0, tb_given = 0;
    bool acc_given = false;
    double tb_per_usec = 0;
    const char *fitlist = NULL;
    char *fixes[16];
    int nfix = 0;
    bool ranged[PARAM__COUNT] = {false};
    int c, rc;
    unsigned long long v;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'T':
            if (cli_once("calibrate", "--trace", &trace, optarg))
                return 2;
            break;
        case 'H':
            if (cli_once("calibrate", "--table", &hwpath, optarg))
                return 2;
            break;
        case 'o':
            if (cli_once("calibrate", "-o", &out, optarg))
                return 2;
            break;
        case 'P':
            if (cli_once("calibrate", "--params", &pfile, optarg))
                return 2;
            break;
        case 's':
            if (nsets == 64)
                return cli_usage_error("calibrate", "too many --set");
            sets[nsets++] = optarg;
            break;
        case 'F':
            if (cli_once("calibrate", "--fit", &fitlist, optarg))
                return 2;
            break;
        case 'X':
            if (nfix == 16)
                return cli_usage_error("calibrate", "too many --fix");
            fixes[nfix++] = optarg;
            break;
        case 'R':
            if ((rc = parse_range(optarg, &o, ranged)) != 0)
                return rc;
            break;
        case 'S':
            if (cli_parse_u64(optarg, &v) != 0)
                return cli_usage_error("calibrate", "--subsample '%s': "
                                       "expected a number of exits", optarg);
            o.subsample = v;
            break;
        case 'j':
            if (cli_parse_u64(optarg, &v) != 0 || v < 1 || v > 64)
                return cli_usage_error("calibrate", "--threads '%s': expected "
                                       "1 to 64", optarg);
            o.threads = (unsigned)v;
            break;
        case 'I':
            if (cli_parse_u64(optarg, &v) != 0 || v < 1 || v > 10000)
                return cli_usage_error("calibrate", "--max-iter '%s': "
                                       "expected 1 to 10000", optarg);
            o.max_iter = (unsigned)v;
            break;
        case 'i':
            if (cli_parse_u64(optarg, &v) != 0 || v > 10000)
                return cli_usage_error("calibrate", "--refine-iter '%s': "
                                       "expected 0 to 10000", optarg);
            o.refine_iter = (unsigned)v;
            break;
        case 'r': {
            char *end;
            double x = strtod(optarg, &end);
            if (end == optarg || *end || !(x > 0 && x < 1))
                return cli_usage_error("calibrate", "--rank-tol '%s': "
                                       "expected a number in (0, 1)", optarg);
            o.rank_tol = x;
            break;
        }
        case 'd': {
            char *end;
            double x = strtod(optarg, &end);
            if (end == optarg || *end || !(x > 0 && x <= 2))
                return cli_usage_error("calibrate", "--fd-step '%s': "
                                       "expected a number in (0, 2]", optarg);
            o.fd_step = x;
            break;
        }
        case 'B':
            if (tb_given++) /* one value: a second replaced the first */
                return cli_usage_error("calibrate", "--tb-per-usec given "
                                                    "twice");
            if (cli_parse_tb_per_usec("calibrate", optarg, &tb_per_usec))
                return 2;
            break;
        case 'a':
            if (cli_parse_accounting("calibrate", optarg, &o.unit))
                return 2;
            acc_given = true;
            break;
        case 'u':
            if (cli_parse_unit("calibrate", optarg, &o.unit))
                return 2;
            acc_given = true;
            break;
        case 'h': help(stdout); return 0;
        default:
            return cli_bad_option("calibrate", "o:h", opts, argv);
        }
    }
    if (optind != argc)
        return cli_usage_error("calibrate", "unexpected argument '%s'",
                               argv[optind]);
    if (!trace || !hwpath || !out)
        return cli_usage_error("calibrate", "--trace, --table and -o are "
                               "required");
    if (fitlist) {
        for (int i = 0; i < PARAM__COUNT; i++)
            o.fit[i] = false;
        if ((rc = name_list("--fit", fitlist, o.fit, true)) != 0)
            return rc;
    }
    for (int i = 0; i < nfix; i++)
        if ((rc = name_list("--fix", fixes[i], o.fit, false)) != 0)
            return rc;
    /* a range bounds a fit: on a parameter held at its start value it
     * would do nothing, silently */
    for (int i = 0; i < PARAM__COUNT; i++)
        if (ranged[i] && !o.fit[i])
            return cli_usage_error("calibrate", "--range %s: %s is not "
                                   "fitted (see --fit, --fix): its range "
                                   "would do nothing", param_name(i),
                                   param_name(i));

    /* a table read with its ticks per usec is a 3.1+ kernel's: fitted in
     * that accounting (it was fitted with each sample truncated to usec,
     * 2.6.29's, unless --accounting 3.1 was given as well) */
    if (tb_given && acc_given && o.unit == STATS_USEC)
        return cli_usage_error("calibrate", "--accounting 2.6.29 and "
                               "--tb-per-usec contradict each other (a table "
                               "in ticks per usec is a 3.1+ kernel's)");
    if (tb_given) {
        o.unit = STATS_TICKS;
        acc_given = true;
    }
    /* params.ini must not replace what the fit reads: the trace, the
     * hardware table or the starting parameters */
    if ((rc = cli_check_output_of(out, trace)) ||
        (rc = cli_check_output_of(out, hwpath)) ||
        (rc = cli_check_output_of(out, pfile)))
        return rc;
    static params start;
    if ((rc = cli_params_resolve(&start, pfile, sets, nsets)) != 0)
        return rc;
    static table hw;
    sim_err e = table_read_file_tb(&hw, hwpath, TFMT_AUTO, tb_per_usec);
    if (e != SIM_OK)
        return cli_report(e);
    if ((rc = cli_table_accounting("calibrate", &hw, hwpath, acc_given,
                                   &o.unit)))
        return rc;
    char sh_trace[65], sh_table[65];
    if (sha256_file(trace, sh_trace) != 0)
        return cli_report(sim_fail(SIM_ERR_IO, "%s: cannot read the trace",
                                   trace));
    if (sha256_file(hwpath, sh_table) != 0)
        return cli_report(sim_fail(SIM_ERR_IO, "%s: cannot read the table",
                                   hwpath));
    /* the output's directory is checked before the work */
    outfile of;
    e = outfile_open(&of, out);
    if (e != SIM_OK)
        return cli_report(e);

    if (isatty(STDERR_FILENO)) {
        o.progress = progress_line;
        o.progress_ctx = NULL;
    }
    static calib_result r;
    e = calib_run(trace, &hw, &start, &o, &r);
    if (o.progress)
        fputs("\r\033[K", stderr);
    if (e != SIM_OK) {
        outfile_abort(&of);
        return cli_report(e);
    }
    /* params.ini on stdout (-o -, /dev/stdout): the report goes to stderr,
     * or its rows would be INI lines the reader refuses */
    FILE *rs = of.f == stdout ? stderr : stdout;
    fprintf(rs, "# sim calibrate: trace %s, table %s\n", base_name(trace),
            base_name(hwpath));
    calib_write_mix(rs, &r);
    cli_table_notes(rs, "# note: ", &hw);
    calib_write_report(rs, &r);
    if (r.hw_exits && r.trace_exits < r.hw_exits / 10 &&
        r.trace_exits < 1000000)
        fprintf(rs, "# note: the trace has %llu exits, the table %llu: the "
                    "rare long exits (host work, preemptions) behind the "
                    "table's averages and spreads come in few or none of "
                    "them, so the fit is rough; use a trace of 1M exits or "
                    "more (docs/calibration.md, \"How big a trace\")\n",
                (unsigned long long)r.trace_exits,
                (unsigned long long)r.hw_exits);

    /* the worst row among those holding >= 1% of the time */
    double worst = 0;
    int wi = -1;
    for (int i = 0; i < EXIT__COUNT; i++) {
        const calib_row *w = &r.row[i];
        if (!w->used || w->time_share < 0.01)
            continue;
        double d = fabs(w->avg - w->avg_hw) / w->avg_hw;
        if (d > worst) {
            worst = d;
            wi = i;
        }
    }
    FILE *f = of.f;
    fprintf(f, "; cycle-model parameters fitted by `sim calibrate` (sim440 %s)"
               "\n", SIM_VERSION);
    /* a name cut to 100 bytes: the reader of params.ini takes lines of at
     * most 198 (a 150-byte trace name made this file unreadable) */
    const char *bt = base_name(trace), *bh = base_name(hwpath);
    fprintf(f, "; trace: %.100s%s sha256 %s\n", bt,
            strlen(bt) > 100 ? "..." : "", sh_trace);
    fprintf(f, "; table: %.100s%s sha256 %s\n", bh,
            strlen(bh) > 100 ? "..." : "", sh_table);
    fprintf(f, "; fit: %s; %d of %d candidates fitted, the others held at "
               "their start values\n", r.status, r.nfit, r.nparam);
    if (r.refined)
        fprintf(f, "; refined on the whole trace from a %llu-exit subsample "
                   "fit (its bias %+.2f%%)\n",
                (unsigned long long)r.sub_exits,
                100 * (r.sub_total - r.sub_total_full) / r.sub_total_full);
    fprintf(f, "; residuals: %d (avg, stddev, min of %d rows, weights sqrt "
               "of the time share)\n", r.nres, r.nres / 3);
    fprintf(f, "; objective %.6g at the start, %.6g fitted; residual "
               "variance ", r.cost0, r.cost);
    calib_write_resvar(f, &r);
    fputc('\n', f);
    calib_write_round(f, "; ", &r);
    fprintf(f, "; %s: %+.2f%% against the table",
            r.total_handled ? "handled time (no guest time in the table)"
                            : "traced duration",
            100 * (r.total - r.total_hw) / r.total_hw);
    if (isfinite(r.total_full))
        fprintf(f, " (%+.2f%% on the whole trace)",
                100 * (r.total_full - r.total_hw) / r.total_hw);
    fprintf(f, "\n");
    calib_write_unfitted(f, "; ", &r);
    if (wi >= 0)
        fprintf(f, "; worst avg error of the rows with >= 1%% of the time: "
                   "%s %+.2f%%\n", exit_name((exit_type)wi),
                100 * (r.row[wi].avg - r.row[wi].avg_hw) / r.row[wi].avg_hw);
    if (!r.converged)
        fprintf(f, "; NOT CONVERGED: these are the best values found\n");
    /* (lines stay short: the INI reader takes at most 200 characters) */
    fprintf(f, "; held at their start values (the table cannot determine "
               "them):\n");
    int col = 0;
    for (int k = 0; k < r.nparam; k++) {
        if (r.par[k].state == CALIB_FITTED || r.par[k].first_round)
            continue;
        const char *n = param_name(r.par[k].id);
        if (col == 0)
            col = fprintf(f, ";  ");
        col += fprintf(f, " %s", n);
        if (col > 70) {
            fputc('\n', f);
            col = 0;
        }
    }
    if (col)
        fputc('\n', f);
    calib_write_values(f, &r);
    /* the start's own values (--params, --set) that were not fitted: the
     * fit was made with them, and a replay of this file alone took the
     * defaults instead (a held cpi = 2 came back as 1.5) */
    bool head = false;
    for (int id = 0; id < PARAM__COUNT; id++) {
        bool fitted = false;
        for (int k = 0; k < r.nparam; k++)
            fitted |= (int)r.par[k].id == id &&
                      (r.par[k].state == CALIB_FITTED ||
                       r.par[k].first_round);
        if (start.origin[id] == PO_DEFAULT || fitted)
            continue;
        if (!head)
            fprintf(f, "; not fitted, as given at the start (--params, "
                       "--set): the fit was made with them\n");
        head = true;
        fprintf(f, param_kind((param_id)id) == PK_INT ? "%s = %.0f\n"
                                                      : "%s = %.9g\n",
                param_name((param_id)id), start.v[id]);
    }
    e = outfile_commit(&of);
    if (e != SIM_OK)
        return cli_report(e);
    fprintf(rs, "# wrote %s%s\n", out,
            r.converged ? "" : " (NOT CONVERGED: the best point found)");
    return r.converged ? 0 : 1;
}
