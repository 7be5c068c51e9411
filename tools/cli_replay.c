/* cli_replay: `sim replay TRACE` - the trace through the accounting (and,
 * when it lacks ticks or --model is given, the cycle model, directly or in
 * the SystemC timed platform), printed as an exit-timing table with the
 * accounting invariants checked; --compare puts measured and predicted side
 * by side. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_progress.h"
#include "cost.h"
#include "insnprof.h"
#include "outfile.h"
#include "params.h"
#include "platform/platform.h"
#include "replay.h"
#include "stats.h"
#include "table.h"
#include "tcmp.h"

static void help(FILE *f)
{
    fprintf(f,
        "usage: sim replay TRACE [options]\n"
        "\n"
        "Replays TRACE (a trace.bin) through the kernel's exit-timing accounting\n"
        "(CONFIG_KVM_EXIT_TIMING: an exit is charged from exit to the next guest\n"
        "entry, TIMEINGUEST from entry to the next exit, the first incomplete cycle\n"
        "skipped) and prints the table, then the accounting invariants.\n"
        "Ticks the trace carries (measured, or drawn by `sim trace synth`) are used\n"
        "as they are; a trace without them is costed by the cycle model (stages\n"
        "and parameters: `sim params show`, docs/parameters.md).\n"
        "\n"
        "options:\n"
        "  --model        predict every exit with the cycle model even when the\n"
        "                 trace has ticks\n"
        "  --compare      measured and predicted tables side by side (per-row\n"
        "                 differences); needs a trace with ticks\n"
        "  --stages       after the table, average cycles per stage per exit type\n"
        "                 (implies --model)\n"
        "  --by-insn      after the table, the emulation exits (EMULINST, EMUL_*)\n"
        "                 by instruction word (mfmsr, mtspr SPRG0, wrteei 1 ...):\n"
        "                 exits, handler usec in the table's accounting, and what\n"
        "                 whatif pv does with each; kvm and perf formats only\n"
        "                 (docs/tables.md, \"By instruction\")\n"
        "  --guest-time G trace (default): a predicted replay keeps the guest time\n"
        "                 (TIMEINGUEST) of records that carry guest ticks and models\n"
        "                 only the others (guest_insns x guest_cpi + refills);\n"
        "                 model: model every guest interval. The output says which\n"
        "                 was used (docs/cost-model.md, \"Guest time\")\n"
        "  --params P     cycle-model parameters from INI file P\n"
        "  --set K=V      override one parameter (repeatable, after --params);\n"
        "                 they act on a prediction only: a trace whose records\n"
        "                 all carry ticks needs --model with them (refused\n"
        "                 without: its measured table ignores them)\n"
        "  --platform PL  c (default): the cycle model called per record;\n"
        "                 systemc: the SystemC timed platform (implies --model):\n"
        "                 DEC, EXTINT and SIGNAL exits arrive at rates per\n"
        "                 simulated second (the trace's own are dropped), a guest\n"
        "                 DEC expiring during an exit is delivered at its entry\n"
        "  --format FMT   kvm (default, the seed's layout), debugfs, perf, csv, json;\n"
        "                 csv and json are one document each: the table, or the\n"
        "                 comparison (--compare), or with --stages the stage\n"
        "                 report (csv) / {\"table\"|\"compare\", \"stages\"} (json);\n"
        "                 docs/tables.md\n"
        "  --accounting A how samples add up (the table is in usec either way,\n"
        "                 docs/tables.md): 2.6.29 (default) truncates every\n"
        "                 sample to whole usec before adding it, as kernels\n"
        "                 2.6.29-2.6.37 did; 3.1 adds timebase ticks and divides\n"
        "                 once when printing, as 3.1+ did (debugfs then prints\n"
        "                 sum_squared in tick*usec). --unit usec|ticks: the old,\n"
        "                 deprecated name\n"
        "  --fold-emul    one EMULINST row for all emulated instructions (the seed's\n"
        "                 layout), with the EMUL_* breakdown beneath it (kvm, json)\n"
        "  --title TEXT   first line of a kvm table (default: the trace's workload)\n"
        "  -o FILE        write the table to FILE (temporary name, then renamed)\n"
        "\n"
        "The invariant checks go to stdout after a kvm/perf table, else to stderr.\n"
        "exit codes: 0 ok, 1 an accounting invariant failed, 2 bad usage or input.\n");
}

static const char k_measured[] = "measured (trace ticks)";
static const char k_predicted[] = "predicted (cycle model)";

/* --by-insn (model/insnprof.h): the predicting hook wrapped, so that each
 * exit's handler ticks are the ones the table adds up. */
typedef struct by_insn_hook {
    replay_cost_model inner;
    insnprof *prof;
    bool usec;
} by_insn_hook;

static sim_err by_insn_begin(void *ctx, const trace_header *h)
{
    by_insn_hook *w = ctx;
    insnprof_init(w->prof, w->usec, h->tb_hz);
    return w->inner.begin ? w->inner.begin(w->inner.ctx, h) : SIM_OK;
}

static sim_err by_insn_cost(void *ctx, const trace_rec *r, uint32_t *handler,
                            uint32_t *guest)
{
    by_insn_hook *w = ctx;
    sim_err e = w->inner.cost(w->inner.ctx, r, handler, guest);
    if (e == SIM_OK)
        insnprof_add(w->prof, r, *handler);
    return e;
}

static sim_err by_insn_cost_many(void *ctx, const trace_rec *r, size_t n,
                                 uint32_t *handler, uint32_t *guest,
                                 size_t *done)
{
    by_insn_hook *w = ctx;
    sim_err e = w->inner.cost_many(w->inner.ctx, r, n, handler, guest, done);
    for (size_t i = 0; i < *done; i++)
        insnprof_add(w->prof, &r[i], handler[i]);
    return e;
}

/* a measured trace's pass: the same context, without a hook inside */
static sim_err by_insn_header(void *ctx, const trace_header *h)
{
    by_insn_hook *b = ctx;
    insnprof_init(b->prof, b->usec, h->tb_hz);
    return SIM_OK;
}

static sim_err by_insn_chunk(void *ctx, const trace_rec *recs, size_t n)
{
    by_insn_hook *b = ctx;
    for (size_t i = 0; i < n; i++)
        insnprof_add(b->prof, &recs[i], recs[i].handler);
    return SIM_OK;
}

/* A measured trace: the handler ticks its records carry (the replay
 * before it has checked that every exit has them). */
static sim_err by_insn_measured(const char *path, insnprof *prof, bool usec)
{
    by_insn_hook b = {.prof = prof, .usec = usec};
    trace_pass p = {.ctx = &b,
                    .header = by_insn_header,
                    .chunk = by_insn_chunk};
    return trace_pass_file(path, &p, NULL);
}

/* The table (or, with `measured`, the comparison) and the stage report
 * (with `cm`): a text format prints them one after the other; csv is one
 * document, the stages' when asked for, else the comparison's or the
 * table's; json is one document, the table's or the comparison's, or with
 * stages {"table" or "compare": ..., "stages": ...}. */
static sim_err write_output(FILE *f, table_fmt fmt, const table *measured,
                            const table *t, const table_write_opts *wo,
                            const cost_model *cm)
{
    tcmp c;
    if (measured)
        tcmp_make(&c, measured, t, wo->fold_emul, 1.0);
    if (fmt == TFMT_CSV) {
        if (cm)
            return cost_write_stages(cm, f, TFMT_CSV);
        if (measured)
            return tcmp_write(f, &c, k_measured, k_predicted, TFMT_CSV);
        return table_write(f, t, fmt, wo);
    }
    if (fmt == TFMT_JSON) {
        if (!cm)
            return measured
                       ? tcmp_write(f, &c, k_measured, k_predicted, TFMT_JSON)
                       : table_write(f, t, fmt, wo);
        json_t *root = json_object(), *main = NULL;
        if (measured) {
            main = tcmp_to_json(&c);
            if (main) {
                json_object_set_new(main, "ref", json_string(k_measured));
                json_object_set_new(main, "new", json_string(k_predicted));
                json_object_set_new(main, "unit", json_string("usec"));
            }
        } else
            main = table_to_json(t, wo);
        json_t *st = cost_stages_json(cm);
        if (!root || !main || !st ||
            json_object_set_new(root, measured ? "compare" : "table", main) ||
            json_object_set_new(root, "stages", st)) {
            json_decref(root);
            return sim_fail(SIM_ERR_NOMEM, "json: out of memory");
        }
        return table_json_dump(f, root);
    }
    sim_err e;
    if (measured) {
        table fm, fp;
        const table *a = measured, *b = t;
        if (wo->fold_emul) {
            table_fold_emul(measured, &fm);
            table_fold_emul(t, &fp);
            a = &fm;
            b = &fp;
        }
        e = table_diff(f, a, k_measured, b, k_predicted, false);
    } else
        e = table_write(f, t, fmt, wo);
    if (e == SIM_OK && cm) {
        fputc('\n', f);
        e = cost_write_stages(cm, f, fmt);
    }
    return e;
}

int cli_replay(int argc, char **argv)
{
    static const struct option opts[] = {
        {"format", required_argument, 0, 'f'},
        {"accounting", required_argument, 0, 'a'},
        {"unit", required_argument, 0, 'u'}, /* deprecated */
        {"fold-emul", no_argument, 0, 'F'},
        {"title", required_argument, 0, 't'},
        {"output", required_argument, 0, 'o'},
        {"model", no_argument, 0, 'M'},
        {"compare", no_argument, 0, 'C'},
        {"stages", no_argument, 0, 'S'},
        {"by-insn", no_argument, 0, 'I'},
        {"params", required_argument, 0, 'P'},
        {"set", required_argument, 0, 's'},
        {"platform", required_argument, 0, 'L'},
        {"guest-time", required_argument, 0, 'G'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    table_fmt fmt = TFMT_KVM;
    stats_unit unit = STATS_USEC;
    bool fold = false;
    const char *title = NULL, *out = NULL, *pfile = NULL;
    bool model = false, compare = false, stages = false, systemc = false;
    bool byinsn = false;
    cost_guest_mode gmode = COST_GUEST_TRACE;
    bool gmode_set = false;
    char *sets[64];
    int nsets = 0;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (cli_parse_table_fmt("replay", optarg, &fmt))
                return 2;
            break;
        case 'a':
            if (cli_parse_accounting("replay", optarg, &unit))
                return 2;
            break;
        case 'u':
            if (cli_parse_unit("replay", optarg, &unit))
                return 2;
            break;
        case 'F': fold = true; break;
        case 't':
            /* the first line of a kvm table (kept to 127 characters) */
            if (cli_check_text("replay", "--title", optarg, 127, false))
                return 2;
            title = optarg;
            break;
        case 'o':
            if (cli_once("replay", "-o", &out, optarg))
                return 2;
            break;
        case 'M': model = true; break;
        case 'C': compare = true; break;
        case 'S': stages = true; break;
        case 'I': byinsn = true; break;
        case 'P':
            if (cli_once("replay", "--params", &pfile, optarg))
                return 2;
            break;
        case 's':
            if (nsets == (int)(sizeof sets / sizeof sets[0]))
                return cli_usage_error("replay", "too many --set");
            sets[nsets++] = optarg;
            break;
        case 'L':
            if (cli_parse_platform("replay", optarg, &systemc))
                return 2;
            break;
        case 'G':
            gmode_set = true;
            if (cli_parse_guest_time("replay", optarg, &gmode))
                return 2;
            break;
        case 'h': help(stdout); return 0;
        default:
            return cli_bad_option("replay", "o:h", opts, argv);
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("replay", optind >= argc
                               ? "missing TRACE" : "one TRACE expected");
    if (!out)
        out = "-";
    const char *path = argv[optind];
    if (fmt == TFMT_CSV && compare && stages)
        return cli_usage_error("replay", "--format csv is one table: "
                               "--compare or --stages (both: --format json)");
    if (byinsn && (c = cli_check_by_insn("replay", fmt, systemc)))
        return c;
    if ((c = cli_check_output_of(out, path)) ||
        (c = cli_check_output_of(out, pfile)))
        return c;

    static params prm;
    int rc = cli_params_resolve(&prm, pfile, sets, nsets);
    if (rc != 0)
        return rc;
    if (systemc && !platform_available())
        return cli_report(sim_fail(SIM_ERR_UNSUPP, "replay: this build has no "
                                   "SystemC platform (libsystemc-dev)"));
    cost_model *cm;
    sim_err e = cost_new(&cm, &prm);
    if (e != SIM_OK)
        return cli_report(e);
    cost_set_guest_mode(cm, gmode);
    replay_cost_model hook;
    cost_replay_hook(cm, &hook);
    /* --by-insn: the model's handler ticks of each exit, as it prices them
     * for the table (a wrapper around the hook) */
    static insnprof prof;
    by_insn_hook bw = {.inner = hook, .prof = &prof, .usec = unit == STATS_USEC};
    if (byinsn)
        hook = (replay_cost_model){.name = hook.name,
                                   .ctx = &bw,
                                   .begin = by_insn_begin,
                                   .cost = by_insn_cost,
                                   .cost_many = hook.cost_many
                                                    ? by_insn_cost_many
                                                    : NULL};

    cli_progress prog;
    cli_progress_init(&prog, "replay", "records");
    replay_opts ro = {.unit = unit, .ticks = REPLAY_MEASURED, .model = &hook,
                      .progress = cli_progress_update, .progress_ctx = &prog};
    static stats s;
    replay_result res;
    bool predicted = model || systemc || stages;
    table measured;
    if (!predicted || compare) {
        e = replay_file(path, &ro, &s, &res);
        if (e == SIM_ERR_UNSUPP && !compare) {
            /* no ticks in the trace: the model predicts them */
            sim_clear_error();
            predicted = true;
        } else if (e != SIM_OK) {
            cli_progress_done(&prog);
            cost_free(cm);
            return cli_report(e);
        }
        if (compare) {
            stats_to_table(&s, &measured);
            predicted = true;
        }
    }
    /* the trace's own ticks made the table: a cycle-model option given
     * for it would be ignored without a word (calibrate -> replay
     * --params printed the measured table as if it were the fit's) */
    if (!predicted && (pfile || nsets || gmode_set)) {
        cli_progress_done(&prog);
        cost_free(cm);
        return cli_usage_error("replay", "%s: %s: its records carry their "
                               "ticks, so the table is the measured one and "
                               "the cycle model is not used; add --model "
                               "(or --compare) to predict with them", path,
                               pfile ? "--params" : nsets ? "--set"
                                                          : "--guest-time");
    }
    if (predicted) {
        ro.ticks = REPLAY_MODEL;
        e = systemc ? platform_replay(path, cm, &ro, &s, &res)
                    : replay_file(path, &ro, &s, &res);
    }
    cli_progress_done(&prog);
    /* a measured table: each exit's own handler ticks, one more pass */
    if (e == SIM_OK && byinsn && !predicted)
        e = by_insn_measured(path, &prof, unit == STATS_USEC);
    if (e != SIM_OK) {
        cost_free(cm);
        return cli_report(e);
    }

    table t;
    stats_to_table(&s, &t);
    snprintf(t.title, sizeof t.title, "%s",
             title ? title : res.header.workload);

    outfile of;
    e = outfile_open(&of, out);
    if (e != SIM_OK) {
        cost_free(cm);
        return cli_report(e);
    }
    bool human = fmt == TFMT_KVM || fmt == TFMT_PERF;
    /* which guest time a prediction used: one line, in the output when the
     * format has comments, else on stderr */
    char gline[400] = "";
    if (predicted) {
        uint64_t gt, gm;
        cost_guest_counts(cm, &gt, &gm);
        snprintf(gline, sizeof gline,
                 "# guest time (TIMEINGUEST): %s (%llu exits from the trace's "
                 "guest ticks, %llu modelled as guest_insns x guest_cpi)\n",
                 gm == 0   ? "measured, from the trace"
                 : gt == 0 ? "modelled"
                           : "mixed",
                 (unsigned long long)gt, (unsigned long long)gm);
        /* the host's rates, the same parameters sim record uses */
        size_t n = strlen(gline);
        if (systemc)
            snprintf(gline + n, sizeof gline - n,
                     "# host rates: %g decrementer interrupts/s, %g device "
                     "interrupts/s, %g signals/s (host_tick_hz, host_irq_hz, "
                     "signal_hz)\n",
                     P(&prm, host_tick_hz), P(&prm, host_irq_hz),
                     P(&prm, signal_hz));
        else if (P(&prm, host_irq_exit_share) == 1)
            snprintf(gline + n, sizeof gline - n,
                     "# host rates: %g decrementer interrupts/s, %g device "
                     "interrupts/s serviced inside exits (host_tick_hz, "
                     "host_irq_hz)\n",
                     P(&prm, host_tick_hz), P(&prm, host_irq_hz));
        else /* the rate the model uses inside exits (docs/cost-model.md) */
            snprintf(gline + n, sizeof gline - n,
                     "# host rates: %g decrementer interrupts/s, %g device "
                     "interrupts/s serviced inside exits (host_tick_hz, "
                     "host_irq_hz %g x host_irq_exit_share %g)\n",
                     P(&prm, host_tick_hz),
                     P(&prm, host_irq_hz) * P(&prm, host_irq_exit_share),
                     P(&prm, host_irq_hz), P(&prm, host_irq_exit_share));
    }
    /* the file's base name: outputs must not depend on where a trace lives */
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (fmt == TFMT_KVM)
        fprintf(of.f,
                "# sim replay of %s: %llu records, %llu exits; source %s, "
                "ticks %s\n"
                "# timebase %llu Hz; accounting %s; unit usec\n",
                base, (unsigned long long)res.records,
                (unsigned long long)res.exits,
                trace_source_name(res.header.source)
                    ? trace_source_name(res.header.source) : "unknown",
                predicted ? (systemc ? "predicted (cycle model, SystemC "
                                       "platform)"
                                     : "predicted (cycle model)")
                : res.header.cost_label[0] ? res.header.cost_label
                                           : "measured",
                (unsigned long long)res.header.tb_hz,
                unit == STATS_USEC
                    ? "2.6.29 (each sample truncated to usec, then added)"
                    : "3.1 (ticks added, divided to usec when printed)");
    bool machine = fmt == TFMT_CSV || fmt == TFMT_JSON;
    if (gline[0])
        fputs(gline, !machine && (fmt == TFMT_KVM || compare) ? of.f : stderr);
    table_write_opts wo = {.fold_emul = fold,
                           .tb_per_usec = unit == STATS_TICKS
                                              ? (double)s.tb_per_usec : 0,
                           .accounting = cli_accounting_name(unit)};
    e = write_output(of.f, fmt, compare ? &measured : NULL, &t, &wo,
                     stages ? cm : NULL);
    if (e == SIM_OK && byinsn) {
        fputc('\n', of.f);
        insnprof_write(of.f, &prof);
    }
    cost_free(cm);
    if ((e = outfile_finish(&of, e)) != SIM_OK)
        return cli_report(e);

    /* /dev/stdout is stdout too: a csv/json document there stays alone */
    bool on_stdout = outfile_is_stdout(out);
    FILE *rep = (human || !on_stdout) ? stdout : stderr;
    if (rep == stdout && on_stdout)
        fputc('\n', rep);
    sim_err ce = stats_check(&s, rep);
    /* a predicted timeline is consistent by construction */
    bool tb_ok = predicted || res.tb_mismatches == 0;
    fprintf(rep, "check %-40s %s (%llu records disagree", 
            "timestamps agree with ticks", tb_ok ? "ok  " : "FAIL",
            (unsigned long long)res.tb_mismatches);
    if (!tb_ok)
        fprintf(rep, ", first at record %llu",
                (unsigned long long)res.first_tb_mismatch);
    fprintf(rep, ")\n");
    fflush(rep);
    if (ce != SIM_OK || !tb_ok)
        return 1;
    return 0;
}
