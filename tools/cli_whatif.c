/* cli_whatif: `sim whatif TRACE --transform T[,T...]` - the table predicted
 * after an optimization, and per row its difference from the untransformed
 * prediction (model/whatif, docs/whatif.md). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_plotcmp.h"
#include "cli_progress.h"
#include "outfile.h"
#include "params.h"
#include "synth.h"
#include "tcmp.h"
#include "whatif.h"

static void help(FILE *f)
{
    fprintf(f,
        "usage: sim whatif TRACE --transform T[,T...] [options]\n"
        "\n"
        "Predicts the exit-timing table of TRACE after an optimization and\n"
        "prints, per row, its difference from the untransformed prediction\n"
        "(count, sum, avg, time%%; the traced duration; the total's change row\n"
        "by row, in points of the untransformed total; a row whose sum is mostly\n"
        "one exit is marked: docs/validation.md, \"One exit\"). A transform changes the\n"
        "workload or the kernel as the real change would; the cycle model then\n"
        "re-derives the run length, the time-driven exits (DEC and EXTINT keep\n"
        "their place in guest time; SIGNAL follows the workload), the host TLB\n"
        "pressure (VIRT misses re-derived with the shared round-robin UTLB:\n"
        "removed where only the baseline's soft TLB lost the page, ITLBVIRT\n"
        "inserted at an exit's pc whose page only the prediction's lost; a\n"
        "trace holds no hits, so no D-side miss is added) and cache warmth.\n"
        "Semantics and kernel sources of each transform: docs/whatif.md.\n"
        "\n"
        "transforms (compose with ',', options after ':', a value after '='):\n");
    whatif_list(f);
    fprintf(f,
        "\n"
        "options:\n"
        "  --transform T  the transform chain, e.g. pv or pv:template-bytes=65536,no-iccci\n"
        "  --params P     cycle-model parameters (INI, e.g. from sim calibrate)\n"
        "  --set K=V      override one parameter (repeatable, after --params)\n"
        "  --platform PL  c (default) or systemc: the SystemC timed platform\n"
        "                 prices the baseline and the transformed stream\n"
        "  --format FMT   kvm (default: table + delta), debugfs, perf, csv, json\n"
        "                 (kvm/perf: the delta as # comments, so the output\n"
        "                 is a table sim table reads; csv/debugfs: the\n"
        "                 predicted table only, as sim replay)\n"
        "  --accounting A 2.6.29 (default) or 3.1, as sim replay (--unit:\n"
        "                 deprecated)\n"
        "  --mix PROFILE  the guest's wall-time-driven exits (its tick's exits,\n"
        "                 per second of wall time) from this exit profile\n"
        "                 (built-in name or file, as synth --like's --mix): a\n"
        "                 shorter predicted run drops that many of them, a\n"
        "                 longer one repeats them. Default: the profile the\n"
        "                 trace was made from (synth --like), or the recorded\n"
        "                 workload's own (sim record boot, linux-boot); none\n"
        "                 turns it off\n"
        "  --fold-emul    one EMULINST row (the seed's layout) in table and delta\n"
        "  --stages       after the delta, both models' average cycles per exit\n"
        "                 stage by stage (untransformed, predicted, the\n"
        "                 difference) and their soft TLBs' counters: where a\n"
        "                 row's change comes from (kvm and perf: # lines;\n"
        "                 json: \"stages\"; docs/whatif.md, \"Stages\")\n"
        "  --by-insn      after the delta, the emulation exits by instruction\n"
        "                 word on both sides: exits and handler usec,\n"
        "                 untransformed and predicted, and what pv does with\n"
        "                 each (kvm and perf: # lines; docs/tables.md, \"By\n"
        "                 instruction\"); not with --platform systemc\n"
        "  --plot FILE    baseline vs predicted time share and per-row change:\n"
        "                 FILE.png and FILE.svg (gnuplot)\n"
        "  -o FILE        write the output to FILE (temporary name, renamed)\n"
        "  --list         list the transforms\n"
        "\n"
        "exit codes: 0 ok, 2 bad usage or input (unknown transform or value:\n"
        "the message lists the valid ones).\n");
}

/* The predicted table as JSON (table_write's), parsed back to embed. */
static json_t *table_json(const table *t, const table_write_opts *wo)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    sim_err e = table_write(m, t, TFMT_JSON, wo);
    fclose(m);
    json_t *j = e == SIM_OK ? json_loadb(buf, len, 0, NULL) : NULL;
    free(buf);
    return j;
}

/* The profile the trace was made from, NULL when none is known
 * (exitprof_of_trace). A trace that cannot be read gets none here:
 * whatif_run reports why. */
static const char *cli_whatif_default_mix(const char *path)
{
    trace_reader *rd;
    if (trace_reader_open(&rd, path) != SIM_OK) {
        sim_clear_error();
        return NULL;
    }
    const trace_header *h = trace_reader_header(rd);
    const char *name = exitprof_of_trace(h->source, h->workload);
    trace_reader_close(rd);
    return name;
}

/* "TYPE n, TYPE n" of the nonzero counts, into buf. */
static void type_counts(char *buf, size_t len, const uint64_t *n,
                        uint64_t *total)
{
    size_t o = 0;
    *total = 0;
    buf[0] = '\0';
    for (int t = 0; t < EXIT__COUNT; t++) {
        if (!n[t])
            continue;
        *total += n[t];
        int k = snprintf(buf + o, len - o, "%s%s %llu", o ? ", " : "",
                         exit_name((exit_type)t), (unsigned long long)n[t]);
        if (k > 0 && (size_t)k < len - o)
            o += (size_t)k;
    }
}

/* The wall-time rule's line of the report (mix NULL: no profile known). */
static void wall_report(FILE *f, const whatif_result *r, const char *mix)
{
    if (!mix) {
        fprintf(f, "# guest tick exits (wall-time rule): off, no profile is "
                   "known for this trace (--mix NAME|FILE gives one; "
                   "docs/whatif.md)\n");
        return;
    }
    char rm[1024], ad[1024];
    uint64_t nrm, nad;
    type_counts(rm, sizeof rm, r->wall_removed, &nrm);
    type_counts(ad, sizeof ad, r->wall_added, &nad);
    fprintf(f,
            "# guest tick exits (wall-time rule, rates of profile %s; "
            "docs/whatif.md): the prediction ran %.6f s shorter on the guest "
            "ticks' clock; %llu exits "
            "of the trace dropped%s%s%s, %llu repeated%s%s%s\n",
            mix, r->wall_gain, (unsigned long long)nrm, nrm ? " (" : "", rm,
            nrm ? ")" : "", (unsigned long long)nad, nad ? " (" : "", ad,
            nad ? ")" : "");
}

static json_t *wall_json(const whatif_result *r, const char *mix)
{
    json_t *o = json_object();
    json_object_set_new(o, "mix", mix ? json_string(mix) : json_null());
    if (!mix)
        return o;
    json_object_set_new(o, "gain_seconds", json_real(r->wall_gain));
    json_t *rm = json_object(), *ad = json_object();
    for (int t = 0; t < EXIT__COUNT; t++) {
        if (r->wall_removed[t])
            json_object_set_new(rm, exit_name((exit_type)t),
                                json_integer((json_int_t)r->wall_removed[t]));
        if (r->wall_added[t])
            json_object_set_new(ad, exit_name((exit_type)t),
                                json_integer((json_int_t)r->wall_added[t]));
    }
    json_object_set_new(o, "removed", rm);
    json_object_set_new(o, "repeated", ad);
    return o;
}

/* The removed exits' guest time (whatif_guest_line), in seconds. */
static json_t *guest_json(const whatif_result *r)
{
    double hz = r->header.tb_hz ? (double)r->header.tb_hz : 1.0;
    json_t *o = json_object();
    json_object_set_new(o, "removed_entries_seconds",
                        json_real((double)r->guest_gone / hz));
    json_object_set_new(o, "handed_on_seconds",
                        json_real((double)r->guest_handed / hz));
    json_object_set_new(o, "patched_code_seconds",
                        json_real((double)r->guest_added / hz));
    json_object_set_new(o, "baseline_intervals",
                        json_integer((json_int_t)r->base_intervals));
    json_object_set_new(o, "baseline_intervals_under_1_usec",
                        json_integer((json_int_t)r->base_sub_usec));
    return o;
}

/* --stages: the two models' stage reports, taken before whatif_run frees
 * them (text for a kvm or perf table's # lines, json objects) */
typedef struct stages_kept {
    bool json;
    char *text;
    json_t *base, *pred;
} stages_kept;

static void keep_stages(void *ctx, const cost_model *base,
                        const cost_model *pred)
{
    stages_kept *k = ctx;
    if (k->json) {
        k->base = cost_stages_json(base);
        k->pred = cost_stages_json(pred);
        return;
    }
    size_t len = 0;
    FILE *m = open_memstream(&k->text, &len);
    if (!m)
        return;
    cost_write_stages_diff(base, pred, m, "# ");
    fclose(m);
}

static void stages_kept_free(stages_kept *k)
{
    free(k->text);
    json_decref(k->base);
    json_decref(k->pred);
}

int cli_whatif(int argc, char **argv)
{
    static const struct option opts[] = {
        {"transform", required_argument, 0, 'T'},
        {"params", required_argument, 0, 'P'},
        {"set", required_argument, 0, 's'},
        {"platform", required_argument, 0, 'L'},
        {"format", required_argument, 0, 'f'},
        {"accounting", required_argument, 0, 'a'},
        {"unit", required_argument, 0, 'u'}, /* deprecated */
        {"fold-emul", no_argument, 0, 'F'},
        {"stages", no_argument, 0, 'S'},
        {"by-insn", no_argument, 0, 'I'},
        {"mix", required_argument, 0, 'm'},
        {"plot", required_argument, 0, 'p'},
        {"output", required_argument, 0, 'o'},
        {"list", no_argument, 0, 'l'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *spec = NULL, *pfile = NULL, *out = NULL, *plot = NULL;
    const char *mix = NULL;
    table_fmt fmt = TFMT_KVM;
    stats_unit unit = STATS_USEC;
    bool fold = false, systemc = false, stages = false, byinsn = false;
    char *sets[64];
    int nsets = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'T':
            if (cli_once("whatif", "--transform", &spec, optarg))
                return 2;
            break;
        case 'P':
            if (cli_once("whatif", "--params", &pfile, optarg))
                return 2;
            break;
        case 's':
            if (nsets == (int)(sizeof sets / sizeof sets[0]))
                return cli_usage_error("whatif", "too many --set");
            sets[nsets++] = optarg;
            break;
        case 'L':
            if (cli_parse_platform("whatif", optarg, &systemc))
                return 2;
            break;
        case 'f':
            if (cli_parse_table_fmt("whatif", optarg, &fmt))
                return 2;
            break;
        case 'a':
            if (cli_parse_accounting("whatif", optarg, &unit))
                return 2;
            break;
        case 'u':
            if (cli_parse_unit("whatif", optarg, &unit))
                return 2;
            break;
        case 'F': fold = true; break;
        case 'S': stages = true; break;
        case 'I': byinsn = true; break;
        case 'm':
            if (cli_once("whatif", "--mix", &mix, optarg))
                return 2;
            break;
        case 'p':
            if (cli_once("whatif", "--plot", &plot, optarg))
                return 2;
            break;
        case 'o':
            if (cli_once("whatif", "-o", &out, optarg))
                return 2;
            break;
        case 'l': whatif_list(stdout); return 0;
        case 'h': help(stdout); return 0;
        default:
            return cli_bad_option("whatif", "o:h", opts, argv);
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("whatif", optind >= argc ? "missing TRACE"
                                                        : "one TRACE expected");
    if (!spec)
        return cli_usage_error("whatif", "--transform is required (sim whatif "
                                         "--list names them)");
    if (stages && fmt != TFMT_KVM && fmt != TFMT_PERF && fmt != TFMT_JSON)
        return cli_usage_error("whatif", "--stages with --format %s: the "
                                         "stages follow a kvm or perf table "
                                         "as # lines, or are json's "
                                         "\"stages\"",
                               table_fmt_name(fmt));
    if (byinsn && (c = cli_check_by_insn("whatif", fmt, systemc)))
        return c;
    if (!out)
        out = "-";
    const char *path = argv[optind];
    /* every output checked before the work (model/outfile); --plot is the
     * base of BASE.png and BASE.svg */
    int bad = cli_check_output_of(out, path);
    if (!bad)
        bad = cli_check_output_of(out, pfile);
    /* a --mix file is an input too (-o over it replaced the profile) */
    if (!bad)
        bad = cli_check_output_of(out, mix);
    struct stat pst;
    size_t plen = plot ? strlen(plot) : 0;
    /* a directory is no base name: "DIR/" wrote DIR/.png and DIR/.svg */
    if (!bad && plot &&
        (!plen || plot[plen - 1] == '/' ||
         (stat(plot, &pst) == 0 && S_ISDIR(pst.st_mode))))
        return cli_usage_error("whatif", "--plot '%s': expected a base name "
                                         "(FILE gives FILE.png and FILE.svg), "
                                         "not a directory", plot);
    for (int k = 0; !bad && plot && k < 2; k++) {
        char pic[4096];
        snprintf(pic, sizeof pic, "%s.%s", plot, k ? "svg" : "png");
        /* BASE.png over the trace or --params replaced it with a picture,
         * as over -o did the table */
        bad = cli_check_out_and_plot(out, pic, path, pfile);
        if (!bad)
            bad = cli_check_output_of(pic, mix);
    }
    if (bad)
        return bad;
    whatif_chain *chain;
    sim_err e = whatif_chain_parse(&chain, spec);
    if (e != SIM_OK) {
        cli_report(e); /* "sim whatif: ...", one prefix */
        fprintf(stderr, "transforms:\n");
        whatif_list(stderr);
        return 2;
    }
    /* -o or a picture over pv:sites=FILE replaced the kernel's sites */
    bad = cli_check_chain_inputs(chain, out, NULL);
    for (int k = 0; !bad && plot && k < 2; k++) {
        char pic[4096];
        snprintf(pic, sizeof pic, "%s.%s", plot, k ? "svg" : "png");
        bad = cli_check_chain_inputs(chain, NULL, pic);
    }
    if (bad) {
        whatif_chain_free(chain);
        return bad;
    }
    static params prm;
    int rc = cli_params_resolve(&prm, pfile, sets, nsets);
    if (rc != 0) {
        whatif_chain_free(chain);
        return rc;
    }
    /* the wall-time rule's rates: --mix, else the trace's own profile */
    static exitprof wall;
    bool wall_on = false, mix_given = mix != NULL;
    if (!mix)
        mix = cli_whatif_default_mix(path);
    if (mix && strcmp(mix, "none") != 0) {
        e = exitprof_load(&wall, mix);
        if (e != SIM_OK) {
            whatif_chain_free(chain);
            cli_report(e);
            return 2;
        }
        wall_on = true;
    }
    stages_kept ks = {.json = fmt == TFMT_JSON};
    cli_progress prog;
    cli_progress_init(&prog, "whatif", "records");
    whatif_opts wo = {.unit = unit, .systemc = systemc,
                      .progress = cli_progress_update, .progress_ctx = &prog,
                      .wall = wall_on ? &wall : NULL,
                      .models = stages ? keep_stages : NULL,
                      .models_ctx = &ks};
    static insnprof ib, ip;
    if (byinsn) {
        wo.by_insn_base = &ib;
        wo.by_insn_pred = &ip;
    }
    static stats sb, sp;
    whatif_result res;
    e = whatif_run(path, chain, &prm, &wo, &sb, &sp, &res);
    cli_progress_done(&prog);
    if (e != SIM_OK) {
        whatif_chain_free(chain);
        return cli_report(e);
    }
    static table tb, tp;
    stats_to_table(&sb, &tb);
    stats_to_table(&sp, &tp);
    snprintf(tb.title, sizeof tb.title, "%s (predicted)", res.header.workload);
    snprintf(tp.title, sizeof tp.title, "%s after %s (predicted)",
             res.header.workload, whatif_chain_name(chain));

    outfile of;
    e = outfile_open(&of, out);
    if (e != SIM_OK) {
        whatif_chain_free(chain);
        stages_kept_free(&ks);
        return cli_report(e);
    }
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    table_write_opts two = {.fold_emul = fold,
                            .tb_per_usec = unit == STATS_TICKS
                                               ? (double)sp.tb_per_usec
                                               : 0,
                            .accounting = cli_accounting_name(unit)};
    tcmp cmp;
    tcmp_make(&cmp, &tb, &tp, fold, 1.0);
    if (fmt == TFMT_JSON) {
        json_t *o = json_object();
        json_object_set_new(o, "trace", json_string(base));
        json_object_set_new(o, "transform",
                            json_string(whatif_chain_name(chain)));
        json_t *jp = table_json(&tp, &two), *jb = table_json(&tb, &two);
        json_object_set_new(o, "predicted", jp ? jp : json_null());
        json_object_set_new(o, "baseline", jb ? jb : json_null());
        json_object_set_new(o, "delta", tcmp_to_json(&cmp));
        if (wall_on || !mix_given)
            json_object_set_new(o, "wall", wall_json(&res, wall_on ? mix : NULL));
        json_object_set_new(o, "guest", guest_json(&res));
        if (stages) {
            json_t *st = json_object();
            json_object_set_new(st, "untransformed",
                                ks.base ? ks.base : json_null());
            json_object_set_new(st, "predicted",
                                ks.pred ? ks.pred : json_null());
            ks.base = ks.pred = NULL;
            json_object_set_new(o, "stages", st);
        }
        if (json_dumpf(o, of.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
            e = sim_fail(SIM_ERR_IO, "whatif: writing JSON failed");
        fputc('\n', of.f);
        json_decref(o);
    } else {
        if (fmt == TFMT_KVM)
            fprintf(of.f,
                    "# sim whatif %s --transform %s: %llu records, %llu exits "
                    "predicted (%llu in the baseline)\n",
                    base, whatif_chain_name(chain),
                    (unsigned long long)res.records,
                    (unsigned long long)res.pred_exits,
                    (unsigned long long)res.base_exits);
        e = table_write(of.f, &tp, fmt, &two);
        if (e == SIM_OK && (fmt == TFMT_KVM || fmt == TFMT_PERF)) {
            fprintf(of.f, "\n# delta against the untransformed prediction\n");
            /* as comments, so that the output (-o FILE) is the predicted
             * table every command reads (sim table diff it against a
             * measured one); the delta's lines were read as a broken
             * table after its last row */
            char *buf = NULL;
            size_t len = 0;
            FILE *m = open_memstream(&buf, &len);
            if (!m) {
                e = sim_fail(SIM_ERR_NOMEM, "whatif: out of memory");
            } else {
                tcmp_write_text(m, &cmp, "untransformed (cycle model)",
                                whatif_chain_name(chain));
                fclose(m);
                for (char *l = buf; l && *l;) {
                    size_t k = strcspn(l, "\n");
                    fprintf(of.f, k ? "# %.*s\n" : "#\n", (int)k, l);
                    l += k + (l[k] == '\n');
                }
                free(buf);
            }
            fprintf(of.f,
                    "# %llu exits of the trace removed (%llu of them VIRT "
                    "misses re-derived away: page still resident), %llu "
                    "inserted; %llu VIRT misses the baseline's soft TLB could "
                    "not explain (kept); %s %llu in the %s, %llu predicted\n",
                    (unsigned long long)res.removed,
                    (unsigned long long)res.misses_rederived,
                    (unsigned long long)res.inserted,
                    (unsigned long long)res.misses_unexplained,
                    systemc ? "time-driven exits (DEC, EXTINT and SIGNAL, "
                              "made by the platform at the parameters' rates)"
                            : "time-driven exits (DEC, EXTINT)",
                    (unsigned long long)res.timed_trace,
                    systemc ? "baseline" : "trace",
                    (unsigned long long)res.timed_pred);
            fprintf(of.f,
                    "# VIRT misses owed (docs/whatif.md, \"Host TLB "
                    "pressure\"): %llu of the trace's to a page the "
                    "prediction's soft TLB lost and the baseline's holds; "
                    "%llu re-derived misses kept against them, %llu owed at "
                    "the end (not added); at the exits' pcs %llu ITLBVIRT "
                    "inserted (page lost by the prediction's, held by the "
                    "baseline's), %llu credits (the other way round), %llu "
                    "used against an insertion\n",
                    (unsigned long long)res.misses_lost_pred,
                    (unsigned long long)res.misses_kept_owed,
                    (unsigned long long)res.misses_owed_left,
                    (unsigned long long)res.misses_pc_inserted,
                    (unsigned long long)res.misses_pc_credit,
                    (unsigned long long)res.misses_pc_credit_used);
            char gl[512];
            whatif_guest_line(gl, sizeof gl, &res);
            fprintf(of.f, "# %s\n", gl);
            if (wall_on || !mix_given)
                wall_report(of.f, &res, wall_on ? mix : NULL);
            whatif_chain_report(chain, of.f);
            if (ks.text)
                fputs(ks.text, of.f);
            if (byinsn) {
                fputs("#\n", of.f);
                insnprof_write_diff(of.f, &ib, &ip, "untransformed",
                                    whatif_chain_name(chain));
            }
        }
    }
    /* a trace synthesised like a table in the folded layout: the table's
     * EMULINST is this output's EMULINST with its EMUL_* rows, which a
     * reader of the table's layout would miss */
    if (e == SIM_OK && !fold && synth_like_folded(&res.header)) {
        bool comment = fmt == TFMT_KVM || fmt == TFMT_PERF;
        fprintf(comment ? of.f : stderr,
                "%s EMULINST here is the emulation without an EMUL_* "
                "subtype: the trace's table had one EMULINST row for all "
                "emulation, which is this EMULINST with the EMUL_* rows "
                "(--fold-emul prints that layout)\n",
                comment ? "#" : "whatif: note:");
    }
    /* the guest's tick (idle waits end on it; pv's templates trap on an
     * interrupt pending from it; the wall-time rule counts by it) is no
     * trace's or table's: a default is an assumption, said */
    if (e == SIM_OK && prm.origin[PARAM_guest_hz] == PO_DEFAULT) {
        bool comment = fmt == TFMT_KVM || fmt == TFMT_PERF;
        fprintf(comment ? of.f : stderr,
                "%s assumed: guest_hz %g, the model's default (the guest "
                "kernel's HZ, which no trace or table gives; --params or "
                "--set guest_hz=HZ)\n",
                comment ? "#" : "whatif: note:", P(&prm, guest_hz));
    }
    if (e != SIM_OK) {
        outfile_abort(&of);
        whatif_chain_free(chain);
        stages_kept_free(&ks);
        return cli_report(e);
    }
    /* the plot before -o is committed: a plot that failed left -o
     * written under an exit code 2 ("an error means no output") */
    if (plot) {
        char title[256];
        snprintf(title, sizeof title, "%s: %s", base, whatif_chain_name(chain));
        e = cli_plot_compare(plot, &cmp, "untransformed", "predicted", title,
                             NAN);
    }
    e = outfile_finish(&of, e);
    whatif_chain_free(chain);
    stages_kept_free(&ks);
    return e == SIM_OK ? 0 : cli_report(e);
}
