/* cli_sweep: `sim sweep TRACE --param ... -o out.csv|json` - the cycle
 * model's prediction at every point of a grid or Latin hypercube of
 * parameter values (model/sweep.c), one row per point; docs/sweep.md. */
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "cli_progress.h"
#include "cli_sweep.h"
#include "outfile.h"
#include "params.h"
#include "simmpi.h"
#include "sweep.h"
#include "whatif.h"

static void help(FILE *f)
{
    fprintf(f,
        "usage: sim sweep TRACE --param SPEC [--param SPEC ...] -o OUT [options]\n"
        "\n"
        "Predicts the traced duration and every exit row of TRACE with the cycle\n"
        "model at each point of a parameter grid (or a Latin hypercube), one row\n"
        "per point, as CSV or JSON (columns: docs/sweep.md).\n"
        "\n"
        "SPEC:  NAME=LO:HI:STEP   LO, LO+STEP, ... up to HI\n"
        "       NAME=v1,v2,...    these values\n"
        "       NAME=LO:HI        a range for --samples\n"
        "NAME is a parameter of `sim params show`.\n"
        "\n"
        "options:\n"
        "  --param SPEC     a swept parameter (repeatable; first one slowest)\n"
        "  --samples N      N points of a Latin hypercube over the LO:HI ranges\n"
        "  --seed S         seed of the hypercube (GSL mt19937, 1 to 4294967295,\n"
        "                   default 1)\n"
        "  --params P       the other parameters from INI file P\n"
        "  --set K=V        override one parameter (repeatable, after --params)\n"
        "  --method M       auto (default): points of linear parameters from one\n"
        "                   replay's sufficient statistics where that equals a\n"
        "                   replay, else a replay per point; linear: from the\n"
        "                   statistics always (the base point's trajectory: fast,\n"
        "                   first order when host interrupts arrive in simulated\n"
        "                   time); replay: a full replay per point\n"
        "  --guest-time G   trace (default) | model, as in `sim replay`\n"
        "  --threads N      worker threads (default: the online CPUs)\n"
        "  --max-points N   refuse more points than N without --yes (default 10000)\n"
        "  --yes            run however many points there are\n"
        "  --format F       csv | json (default: from OUT's extension)\n"
        "  --plot FILE      draw the sweep with gnuplot (.png or .svg): total vs\n"
        "                   the parameter for one, a heat map for two\n"
        "  --transform T    predict the transformed trace at every point, as\n"
        "                   `sim whatif --transform T` (docs/whatif.md): every\n"
        "                   point is then a full prediction (no statistics)\n"
        "  -o OUT           output file (temporary name, renamed when complete)\n"
        "\n"
        "Under mpirun/srun the points are split over the ranks and rank 0 writes\n"
        "OUT, byte-identical to a single process. Ctrl-C (or SIGTERM, a batch\n"
        "scheduler's time limit, or SIGHUP, a closed terminal) writes the\n"
        "points done so far as a complete file and exits 130 (143, 129).\n"
        "exit codes: 0 ok, 2 bad usage or input, 130 interrupted, 143 terminated,\n"
        "129 hung up.\n");
}

static volatile sig_atomic_t stop_flag;
static void on_sigint(int sig)
{
    stop_flag = sig; /* SIGINT, SIGTERM or SIGHUP: 128 + it is the exit code */
}

static const char *const method_names[] = {"auto", "linear", "replay"};

/* Rows present in any finished point, in exit-type order. */
static void present_rows(const sweep_totals *out, const unsigned char *done,
                         size_t n, bool *row)
{
    for (int t = 0; t < EXIT__COUNT; t++) {
        row[t] = false;
        for (size_t i = 0; i < n && !row[t]; i++)
            row[t] = done[i] && out[i].count[t] > 0;
    }
}

static double usec(const sweep_totals *t, uint64_t ticks)
{
    return (double)ticks / (double)(t->tb_per_usec ? t->tb_per_usec : 1);
}

static void write_csv(FILE *f, const sweep_plan *pl, const sweep_totals *out,
                      const unsigned char *done)
{
    bool row[EXIT__COUNT];
    present_rows(out, done, pl->npoints, row);
    for (int a = 0; a < pl->naxes; a++)
        fprintf(f, "%s,", param_name(pl->axes[a].id));
    fprintf(f, "exact,total_ticks,total_usec");
    for (int t = 0; t < EXIT__COUNT; t++)
        if (row[t])
            fprintf(f, ",%s_count,%s_sum_usec,%s_avg_usec,%s_time_pct",
                    exit_name((exit_type)t), exit_name((exit_type)t),
                    exit_name((exit_type)t), exit_name((exit_type)t));
    fputc('\n', f);
    for (size_t i = 0; i < pl->npoints; i++) {
        if (!done[i])
            continue;
        const sweep_totals *p = &out[i];
        for (int a = 0; a < pl->naxes; a++)
            fprintf(f, "%.10g,", pl->values[i * (size_t)pl->naxes + (size_t)a]);
        fprintf(f, "%d,%llu,%.3f", p->exact ? 1 : 0,
                (unsigned long long)p->total, usec(p, p->total));
        for (int t = 0; t < EXIT__COUNT; t++) {
            if (!row[t])
                continue;
            double s = usec(p, p->sum[t]);
            fprintf(f, ",%llu,%.3f,%.4f,%.4f",
                    (unsigned long long)p->count[t], s,
                    p->count[t] ? s / (double)p->count[t] : 0.0,
                    p->total ? 100.0 * (double)p->sum[t] / (double)p->total
                             : 0.0);
        }
        fputc('\n', f);
    }
}

static sim_err write_json(FILE *f, const char *trace, sweep_method method,
                          const sweep_plan *pl, const sweep_totals *out,
                          const unsigned char *done, size_t ndone)
{
    bool row[EXIT__COUNT];
    present_rows(out, done, pl->npoints, row);
    json_t *root = json_object(), *names = json_array(), *pts = json_array();
    const char *slash = strrchr(trace, '/');
    json_object_set_new(root, "trace", json_string(slash ? slash + 1 : trace));
    json_object_set_new(root, "method", json_string(method_names[method]));
    json_object_set_new(root, "points_planned",
                        json_integer((json_int_t)pl->npoints));
    json_object_set_new(root, "points_written",
                        json_integer((json_int_t)ndone));
    for (int a = 0; a < pl->naxes; a++)
        json_array_append_new(names, json_string(param_name(pl->axes[a].id)));
    json_object_set_new(root, "params", names);
    for (size_t i = 0; i < pl->npoints; i++) {
        if (!done[i])
            continue;
        const sweep_totals *p = &out[i];
        json_t *pt = json_object(), *vals = json_object(), *rows = json_object();
        for (int a = 0; a < pl->naxes; a++)
            json_object_set_new(
                vals, param_name(pl->axes[a].id),
                json_real(pl->values[i * (size_t)pl->naxes + (size_t)a]));
        json_object_set_new(pt, "values", vals);
        json_object_set_new(pt, "exact", json_boolean(p->exact));
        json_object_set_new(pt, "total_ticks",
                            json_integer((json_int_t)p->total));
        json_object_set_new(pt, "total_usec", json_real(usec(p, p->total)));
        for (int t = 0; t < EXIT__COUNT; t++) {
            if (!row[t])
                continue;
            json_t *r = json_object();
            double s = usec(p, p->sum[t]);
            json_object_set_new(r, "count",
                                json_integer((json_int_t)p->count[t]));
            json_object_set_new(r, "sum_ticks",
                                json_integer((json_int_t)p->sum[t]));
            json_object_set_new(r, "sum_usec", json_real(s));
            json_object_set_new(
                r, "avg_usec",
                json_real(p->count[t] ? s / (double)p->count[t] : 0.0));
            json_object_set_new(
                r, "time_pct",
                json_real(p->total ? 100.0 * (double)p->sum[t] /
                                         (double)p->total
                                   : 0.0));
            json_object_set_new(rows, exit_name((exit_type)t), r);
        }
        json_object_set_new(pt, "rows", rows);
        json_array_append_new(pts, pt);
    }
    json_object_set_new(root, "points", pts);
    int rc = json_dumpf(root, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
                                     JSON_REAL_PRECISION(12));
    fputc('\n', f);
    json_decref(root);
    return rc == 0 ? SIM_OK : sim_fail(SIM_ERR_IO, "sweep: JSON output failed");
}

int cli_sweep_check_run(params *p, const char *trace, const char *out,
                        const char *plot, const char *pfile, char *const *sets,
                        int nsets, const char *transform)
{
    /* every output checked before the work (model/outfile) */
    int bad = cli_check_out_and_plot(out, plot, trace, pfile);
    if (bad)
        return bad;
    if (plot && plot_check_name(plot) != SIM_OK)
        return cli_report(SIM_ERR_USAGE);
    int rc = cli_params_resolve(p, pfile, sets, nsets);
    if (rc != 0)
        return rc;
    if (transform) { /* bad names stop here, before any replay */
        whatif_chain *chain;
        sim_err e = whatif_chain_parse(&chain, transform);
        if (e != SIM_OK)
            return cli_report(e);
        /* -o over pv:sites=FILE replaced the kernel's sites */
        bad = cli_check_chain_inputs(chain, out, plot);
        whatif_chain_free(chain);
        if (bad)
            return bad;
    }
    return 0;
}

unsigned cli_sweep_threads(unsigned long long n)
{
    if (n)
        return (unsigned)n;
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    return nc <= 0 ? 1 : nc > 64 ? 64 : (unsigned)nc;
}

int cli_sweep(int argc, char **argv)
{
    static const struct option opts[] = {
        {"param", required_argument, 0, 'p'},
        {"samples", required_argument, 0, 'n'},
        {"seed", required_argument, 0, 'S'},
        {"params", required_argument, 0, 'P'},
        {"set", required_argument, 0, 's'},
        {"method", required_argument, 0, 'm'},
        {"guest-time", required_argument, 0, 'g'},
        {"threads", required_argument, 0, 'j'},
        {"max-points", required_argument, 0, 'x'},
        {"yes", no_argument, 0, 'y'},
        {"format", required_argument, 0, 'f'},
        {"plot", required_argument, 0, 'G'},
        {"transform", required_argument, 0, 'T'},
        {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    char *specs[SWEEP_MAX_AXES + 1];
    int nspecs = 0;
    char *sets[64];
    int nsets = 0;
    const char *pfile = NULL, *out = NULL, *plot = NULL, *fmt = NULL;
    const char *transform = NULL;
    unsigned long long samples = 0, seed = 1, threads = 0, maxp = 10000;
    bool yes = false;
    sweep_method method = SWEEP_AUTO;
    cost_guest_mode guest = COST_GUEST_TRACE;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'p':
            if (nspecs == SWEEP_MAX_AXES)
                return cli_usage_error("sweep", "at most %d --param",
                                       SWEEP_MAX_AXES);
            specs[nspecs++] = optarg;
            break;
        case 'n':
            if (cli_parse_u64(optarg, &samples) || samples == 0)
                return cli_usage_error("sweep", "--samples: expected a "
                                       "positive number, not '%s'", optarg);
            break;
        case 'S':
            if (cli_parse_seed("sweep", optarg, &seed))
                return 2;
            break;
        case 'P':
            if (cli_once("sweep", "--params", &pfile, optarg))
                return 2;
            break;
        case 's':
            if (nsets == (int)(sizeof sets / sizeof sets[0]))
                return cli_usage_error("sweep", "too many --set");
            sets[nsets++] = optarg;
            break;
        case 'm': {
            int k = -1;
            for (int i = 0; i < 3; i++)
                if (!strcmp(optarg, method_names[i]))
                    k = i;
            if (k < 0)
                return cli_usage_error("sweep", "unknown method '%s' (auto, "
                                       "linear, replay)", optarg);
            method = (sweep_method)k;
            break;
        }
        case 'g':
            if (cli_parse_guest_time("sweep", optarg, &guest))
                return 2;
            break;
        case 'j':
            if (cli_parse_threads("sweep", optarg, &threads))
                return 2;
            break;
        case 'x':
            if (cli_parse_u64(optarg, &maxp))
                return cli_usage_error("sweep", "--max-points: expected a "
                                       "number, not '%s'", optarg);
            break;
        case 'y': yes = true; break;
        case 'f': fmt = optarg; break;
        case 'G':
            if (cli_once("sweep", "--plot", &plot, optarg))
                return 2;
            break;
        case 'T':
            if (cli_once("sweep", "--transform", &transform, optarg))
                return 2;
            break;
        case 'o':
            if (cli_once("sweep", "-o", &out, optarg))
                return 2;
            break;
        case 'h': help(stdout); return 0;
        default:
            return cli_bad_option("sweep", "o:h", opts, argv);
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("sweep", optind >= argc ? "missing TRACE"
                                                       : "one TRACE expected");
    const char *trace = argv[optind];
    if (!out)
        return cli_usage_error("sweep", "missing -o OUT");
    bool json;
    if (fmt) {
        if (strcmp(fmt, "csv") && strcmp(fmt, "json"))
            return cli_usage_error("sweep", "unknown format '%s' (csv, json)",
                                   fmt);
        json = !strcmp(fmt, "json");
    } else {
        size_t l = strlen(out);
        /* x.JSON too: it held CSV */
        json = l > 5 && !strcasecmp(out + l - 5, ".json");
    }
    if (nspecs == 0)
        return cli_usage_error("sweep", "missing --param");
    /* the grid sets a swept parameter at every point: a --set of it would
     * be overridden without a word */
    for (int i = 0; i < nsets; i++)
        for (int j = 0; j < nspecs; j++) {
            size_t n = strcspn(sets[i], "=");
            if (n && n == strcspn(specs[j], "=") &&
                !strncmp(sets[i], specs[j], n))
                return cli_usage_error("sweep", "--set %s: %.*s is swept "
                                       "(--param %s): the grid sets it at "
                                       "every point", sets[i], (int)n,
                                       sets[i], specs[j]);
        }
    static params base;
    int rc = cli_sweep_check_run(&base, trace, out, plot, pfile, sets, nsets,
                                 transform);
    if (rc != 0)
        return rc;
    sweep_plan pl;
    memset(&pl, 0, sizeof pl);
    sim_err e = SIM_OK;
    for (int i = 0; i < nspecs && e == SIM_OK; i++)
        e = sweep_plan_axis(&pl, specs[i]);
    if (e == SIM_OK)
        e = sweep_plan_points(&pl, samples, (unsigned long)seed,
                              yes ? UINT64_MAX : maxp);
    if (e != SIM_OK) {
        sweep_plan_free(&pl);
        return cli_report(e);
    }

    if (plot && pl.naxes > 2) {
        int naxes = pl.naxes; /* sweep_plan_free clears it: it printed 0 */
        sweep_plan_free(&pl);
        return cli_usage_error("sweep", "--plot: %d swept parameters; a plot "
                               "shows one (a line) or two (a heat map)",
                               naxes);
    }
    simmpi mp;
    simmpi_init(&mp);
    sweep_totals *res = calloc(pl.npoints + 1, sizeof *res);
    unsigned char *done = calloc(pl.npoints + 1, 1);
    if (!res || !done) {
        free(res);
        free(done);
        sweep_plan_free(&pl);
        return cli_report(sim_fail(SIM_ERR_NOMEM, "sweep: out of memory"));
    }
    cli_progress prog;
    cli_progress_init(&prog, "sweep", "replays");
    if (mp.rank != 0)
        prog.enabled = false;
    stop_flag = 0;
    struct sigaction sa, old, oldterm, oldhup;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, &old);
    sigaction(SIGTERM, &sa, &oldterm);
    sigaction(SIGHUP, &sa, &oldhup);
    sweep_run_opts ro = {.method = method,
                         .guest = guest,
                         .transform = transform,
                         .threads = cli_sweep_threads(threads),
                         .rank = mp.rank,
                         .nranks = mp.size,
                         .stop = &stop_flag,
                         .progress = cli_progress_update,
                         .progress_ctx = &prog};
    e = sweep_run(trace, &base, &pl, &ro, res, done);
    cli_progress_done(&prog);
    sigaction(SIGINT, &old, NULL);
    sigaction(SIGTERM, &oldterm, NULL);
    sigaction(SIGHUP, &oldhup, NULL);
    if (e == SIM_OK)
        e = simmpi_gather(&mp, res, sizeof *res, done, pl.npoints);
    size_t ndone = 0, nreplayed = 0, nexact = 0;
    for (size_t i = 0; i < pl.npoints; i++)
        if (done[i]) {
            ndone++;
            nreplayed += res[i].replayed;
            nexact += res[i].exact;
        }
    if (e == SIM_OK && mp.rank == 0) {
        outfile of;
        e = outfile_open(&of, out);
        if (e == SIM_OK) {
            if (json)
                e = write_json(of.f, trace, method, &pl, res, done, ndone);
            else
                write_csv(of.f, &pl, res, done);
            if (e == SIM_OK && ferror(of.f))
                e = sim_fail(SIM_ERR_IO, "%s: write failed", out);
            /* the plot before -o is committed: a plot that failed left
             * OUT written under an exit code 2 */
            if (e == SIM_OK && plot)
                e = sweep_plot(plot, &pl, res, done);
            e = outfile_finish(&of, e);
        }
        if (e == SIM_OK && mp.size > 1)
            fprintf(stderr, "sweep: points split over %u MPI ranks\n",
                    mp.size);
        if (e == SIM_OK)
            fprintf(stderr,
                    "sweep: %zu of %zu points written to %s (%zu replayed, "
                    "%zu from one replay's statistics; %zu equal a replay)\n",
                    ndone, pl.npoints, out, nreplayed, ndone - nreplayed,
                    nexact);
        if (e == SIM_OK && nexact < ndone)
            fprintf(stderr,
                    "sweep: note: %zu points are first-order predictions on "
                    "the base point's trajectory (host interrupts caught in "
                    "handler windows or modelled guest time feed back into "
                    "it; docs/sweep.md)\n",
                    ndone - nexact);
    }
    simmpi_finish(&mp);
    free(res);
    free(done);
    sweep_plan_free(&pl);
    if (e != SIM_OK)
        return cli_report(e);
    if (stop_flag) {
        fprintf(stderr, "sim sweep: %s\n",
                stop_flag == SIGTERM   ? "terminated"
                : stop_flag == SIGHUP ? "hung up"
                                      : "interrupted");
        return 128 + stop_flag;
    }
    return 0;
}
