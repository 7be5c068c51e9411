/* cli_record: `sim record WORKLOAD` - runs a guest workload on the cpu440
 * core, writes its exit trace and prints the exit-timing table; `sim
 * microbench` - the trap-cost microbenchmark workload. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_progress.h"
#include "cost.h"
#include "cpu440.h"
#include "params.h"
#include "sim_config.h"
#include "stats.h"
#include "table.h"
#include "trace.h"
#include "workloads.h"

static volatile sig_atomic_t g_interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    g_interrupted = 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct rec_ctx {
    trace_writer *w;
    stats st;
    cli_progress prog;
    FILE *console;
    char line[256];
    size_t len;
} rec_ctx;

/* Every record to the trace; exits also through the kernel's accounting. */
static sim_err put(void *ctx, const trace_rec *r)
{
    rec_ctx *c = ctx;
    if (r->kind == TREC_EXIT) {
        stats_exit(&c->st, r->tb, r->type);
        stats_enter(&c->st, r->tb + r->handler);
    }
    return c->w ? trace_writer_put(c->w, r) : SIM_OK;
}

static void console(void *ctx, int ch)
{
    rec_ctx *c = ctx;
    if (c->console && ch != '\r')
        fputc(ch, c->console);
}

static bool stop_asked(void *ctx)
{
    (void)ctx;
    return g_interrupted != 0;
}

static void progress(void *ctx, uint64_t exits, double seconds)
{
    rec_ctx *c = ctx;
    (void)seconds;
    cli_progress_update(&c->prog, exits, 0);
}

static void list(FILE *f)
{
    unsigned n;
    const workload *w = workloads_list(&n);
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "%-12s %s%s\n", w[i].name, w[i].summary,
                workload_has_pv(&w[i]) ? " [--pv]" : "");
}

static void help(FILE *f)
{
    fprintf(
        f,
        "usage: sim record WORKLOAD [--pv] [--seconds N | --exits N] "
        "[--model]\n"
        "                  -o TRACE\n"
        "       sim record --list\n"
        "\n"
        "Runs WORKLOAD (a guest kernel + user space built for the PPC440) on "
        "the\n"
        "cpu440 core: Unicorn executes the guest's unprivileged instructions,\n"
        "cpu440 emulates what KVM/440 (2.6.29-2.6.37) emulates and classifies\n"
        "every exit as its exit timing would. Writes the exit trace (renamed "
        "into\n"
        "place when complete; Ctrl-C stops the guest and still leaves a "
        "complete\n"
        "trace), then prints the exit-timing table and the accounting checks.\n"
        "\n"
        "Ticks: by default each exit's handler time is a documented flat\n"
        "default per path (the seed table's minimum for that row; EMUL_WAIT\n"
        "adds the guest's idle time), labelled \"%s\" in the\n"
        "trace header; with --model the cycle model prices each exit. Guest\n"
        "time is 1 tick per guest instruction either way (--time icount: 2 ns).\n"
        "\n"
        "options:\n"
        "  --pv           the paravirtual flavour (magic page, patched\n"
        "                 SPR/MSR accesses, docs/kvm440.md §5)\n"
        "  --model        price each exit with the cycle model (model/cost)\n"
        "  --params FILE  parameters (INI, `sim params show`): the host's\n"
        "                 rates and pages and the UTLB's slots always, the\n"
        "                 others with --model\n"
        "  --set N=V      one parameter (repeatable); without --model only\n"
        "                 host_tick_hz, host_irq_hz and signal_hz: host\n"
        "                 decrementer interrupts, device interrupts and signals\n"
        "                 per simulated second, the same defaults as the cycle\n"
        "                 model and `sim replay --platform systemc` (their\n"
        "                 meaning and source: docs/parameters.md); only\n"
        "                 arrivals while the guest runs are DEC/EXTINT exits,\n"
        "                 a signal turns a light exit in progress into SIGNAL;\n"
        "                 and common_host_pages, path_host_pages,\n"
        "                 qemu_host_pages, hostirq_host_pages: the host's own\n"
        "                 UTLB fills, which evict guest shadow entries, by the\n"
        "                 cycle model's rule (docs/cpu440.md); and\n"
        "                 utlb_entries, utlb_pinned: the UTLB's slots (64 on\n"
        "                 the 440) and the host's pinned ones at its top, the\n"
        "                 round robin over the rest; more than 64 is a\n"
        "                 hypothetical core, what `sim whatif --transform\n"
        "                 tlb-slots=N` predicts (utlb_entries = N +\n"
        "                 utlb_pinned; docs/cpu440.md)\n"
        "  --host-tick-hz R, --extint-hz R, --signal-hz R\n"
        "                 the same as --set host_tick_hz=R, host_irq_hz=R,\n"
        "                 signal_hz=R\n"
        "  --seconds N    stop after N simulated seconds (default: the guest\n"
        "                 powers off, or a cap of 120 s against a hung guest)\n"
        "  --exits N      stop after N exits (k/M/G suffixes)\n"
        "  -o FILE        the trace (required)\n"
        "  --console      copy the guest's console to stderr (default for\n"
        "                 linux-boot; --no-console turns it off)\n"
        "  --fold-emul    one EMULINST row (the seed's layout) with the "
        "EMUL_*\n"
        "                 breakdown beneath it (default for linux-boot;\n"
        "                 --no-fold-emul keeps the EMUL_* rows)\n"
        "  --accounting A 2.6.29 (default) or 3.1: how samples add up, see\n"
        "                 `sim replay --help` (--unit usec|ticks: deprecated)\n"
        "  --linux-dir D  where linux-boot finds vmlinux, vmlinux-pv (--pv),\n"
        "                 sim440.dtb and sim440-pv.dtb (default: the build\n"
        "                 tree's linux/, made by `cmake --build <build>\n"
        "                 --target linux-image`)\n"
        "  --time T       the guest's clock: kvm (default: one timebase tick\n"
        "                 per guest instruction, and the exits' time passes\n"
        "                 for the guest as on a real 440) or icount (QEMU's\n"
        "                 -icount shift=1 rule, 2 ns per instruction, exits\n"
        "                 unseen by the guest: the Linux oracle's clock, for\n"
        "                 comparing decrementer and UART interrupt counts)\n"
        "  --shadow-perms P  kvm (default: KVM/440's rule, a shadow entry made\n"
        "                 in guest supervisor mode gets the guest's supervisor\n"
        "                 permissions as user ones) or union (what-if: a guest\n"
        "                 user page also keeps its own user permissions; a\n"
        "                 KUEP guest, e.g. linux-boot, then takes no ISI storm)\n"
        "  --mmio M       qemu (default: every MMIO access is a heavy exit to\n"
        "                 QEMU, KVM up to 3.8) or kernel (3.9+'s in-kernel\n"
        "                 devices for all of them: the MMIO exit stays, light,\n"
        "                 no round trip, no QEMU pages in the UTLB; with\n"
        "                 --model priced as `sim whatif --transform\n"
        "                 inkernel-mmio` prices it, docs/whatif.md)\n"
        "  --iccci on|off on (default): KVM/440 invalidates the I-cache on\n"
        "                 every guest entry; off: it does not (the cycle\n"
        "                 model's I-cache, needs --model; as `sim whatif\n"
        "                 --transform no-iccci`)\n"
        "  --list         list the workloads\n"
        "\n"
        "workloads:\n",
        CPU440_COST_LABEL);
    list(f);
    fprintf(f, "\nexit codes: 0 ok, 1 an accounting check failed, 2 bad "
               "usage or input.\n");
}

/* What the guest itself saw, in the layout of workloads/linux/qemu-oracle.sh
 * ("KIND total user n kernel n", BookE IVOR order), so the two compare
 * line by line: the interrupts delivered through the guest's IVORs (not
 * exits: most exits are handled without the guest seeing them) and the
 * device register accesses (each one an MMIO or DCR exit). */
static void print_guest_view(const cpu440_counters *k)
{
    static const char *const kinds[16] = {
        "CRITICAL", "MCHECK", "DSI",  "ISI", "EXTERNAL", "ALIGN",
        "PROGRAM",  "FPU",    "SYSCALL", "APU", "DECR",  "FIT",
        "WDT",      "DTLB",   "ITLB", "DEBUG"};
    uint64_t all = 0;
    printf("# guest interrupts (delivered through the guest's IVORs; "
           "user = taken in guest user mode)\n");
    for (unsigned i = 0; i < 16; i++) {
        uint64_t u = k->delivered[i][1], s = k->delivered[i][0];
        printf("%-9s %6llu user %6llu kernel %6llu\n", kinds[i],
               (unsigned long long)(u + s), (unsigned long long)u,
               (unsigned long long)s);
        all += u + s;
    }
    printf("%-9s %6llu\n", "TOTAL", (unsigned long long)all);
    printf("UART-MMIO read %6llu write %6llu\n",
           (unsigned long long)k->mmio_reads,
           (unsigned long long)k->mmio_writes);
    printf("DCR       read %6llu write %6llu\n",
           (unsigned long long)k->dcr_reads,
           (unsigned long long)k->dcr_writes);
    printf("# timebase reads: %llu (mftb intercepted by cpu440; a 440 reads "
           "its timebase without an exit, so they are not in the table)\n",
           (unsigned long long)k->mftb);
}

/* Runs a workload; trace path may be NULL (microbench). */
#define MODEL_COST_LABEL "cycle model (model/cost)"

/* Host interrupt arrival rates given by their own options (< 0: not), and
 * the other switches of the core. */
typedef struct rates {
    double tick, extint, signal;
    bool icount_time; /* --time icount */
    bool union_perms; /* --shadow-perms union */
    bool mmio_kernel; /* --mmio kernel */
    bool no_iccci;    /* --iccci off (the cycle model's, --model) */
} rates;

/* The host's rates of the run: the parameters, or their own options. */
static int resolve_rates(params *prm, const rates *rt)
{
    static const struct {
        param_id id;
        const char *opt;
    } k[3] = {{PARAM_host_tick_hz, "--host-tick-hz"},
              {PARAM_host_irq_hz, "--extint-hz"},
              {PARAM_signal_hz, "--signal-hz"}};
    const double v[3] = {rt->tick, rt->extint, rt->signal};
    for (int i = 0; i < 3; i++) {
        if (v[i] < 0)
            continue;
        sim_err e = params_set(prm, k[i].id, v[i], k[i].opt);
        if (e != SIM_OK)
            return cli_report(e);
    }
    return 0;
}

static int run_workload(const char *cmd, const workload *wl, bool pv,
                        const char *out, const cpu440_limits *lim_in,
                        FILE *console_to, bool fold, bool print_table,
                        cost_model *model, const rates *rt,
                        const params *prm, stats_unit unit)
{
    const char *label = model ? MODEL_COST_LABEL : CPU440_COST_LABEL;
    static rec_ctx c;
    memset(&c, 0, sizeof c);
    c.console = console_to;
    cpu440_config cfg;
    cpu440_config_default(&cfg);
    workload_config(wl, &cfg);
    cfg.union_user_perms = rt->union_perms;
    cfg.mmio_in_kernel = rt->mmio_kernel;
    if (rt->icount_time) {
        /* QEMU -icount shift=1: 2 ns per instruction, exits unseen */
        cfg.guest_cpi = (unsigned)(cfg.tb_hz / 500000u);
        cfg.guest_cpi_den = 1000;
        cfg.exit_time_hidden = true;
    }
    cfg.host_tick_hz = P(prm, host_tick_hz);
    cfg.extint_hz = P(prm, host_irq_hz);
    cfg.signal_hz = P(prm, signal_hz);
    cpu440_config_host_pages(&cfg, prm);
    cpu440_config_utlb(&cfg, prm);
    stats_init(&c.st, unit, cfg.tb_hz);

    /* cpu440's core runs at its timebase's clock, which the trace's header
     * names: another core_hz was accepted and ignored (replay --model with
     * the same --set then refused the trace) */
    /* (given: the default is 667 MHz, a workload's timebase may be
     * another - the Linux boot's device tree says 400 MHz) */
    if (model && prm->origin[PARAM_core_hz] != PO_DEFAULT &&
        P(prm, core_hz) != (double)cfg.tb_hz)
        return cli_usage_error(cmd, "core_hz = %.0f: cpu440 runs the core at "
                               "its timebase clock, %llu Hz, which the trace "
                               "records; another core_hz would be ignored",
                               P(prm, core_hz), (unsigned long long)cfg.tb_hz);
    cpu440 *cpu = NULL;
    sim_err e = cpu440_new(&cpu, &cfg);
    if (e == SIM_OK)
        e = workload_load(wl, pv, cpu);
    if (e != SIM_OK) {
        cpu440_free(cpu);
        return cli_report(e);
    }
    if (out) {
        trace_header h = {
            .source = TSRC_CPU440, .tb_hz = cfg.tb_hz, .core_hz = cfg.tb_hz};
        snprintf(h.workload, sizeof h.workload, "%s%s", wl->name,
                 pv ? "-pv" : "");
        snprintf(h.tool_version, sizeof h.tool_version, "%s", SIM_VERSION);
        snprintf(h.cost_label, sizeof h.cost_label, "%s", label);
        e = trace_writer_open(&c.w, out, &h);
        if (e != SIM_OK) {
            cpu440_free(cpu);
            return cli_report(e);
        }
    }
    cpu440_sink sink = {&c, put};
    cpu440_set_sink(cpu, &sink);
    if (model) {
        /* the kernel's policies, as the what-ifs inkernel-mmio and
         * no-iccci set them in the predicting model */
        cost_set_mmio_in_kernel(model, rt->mmio_kernel);
        cost_set_iccci(model, !rt->no_iccci);
        cost_reset(model, cfg.tb_hz, cfg.tb_hz);
        cpu440_coster k;
        cpu440_model_coster(&k, model);
        cpu440_set_coster(cpu, &k);
    }
    cpu440_set_console(cpu, console, &c);
    cli_progress_init(&c.prog, cmd, "exits");
    cpu440_limits lim = *lim_in;
    lim.stop = stop_asked;
    lim.progress = progress;
    lim.ctx = &c;
    g_interrupted = 0;
    void (*old)(int) = signal(SIGINT, on_sigint);
    double t0 = now_s();
    cpu440_end end;
    e = cpu440_run(cpu, &lim, &end);
    double wall = now_s() - t0;
    signal(SIGINT, old);
    cli_progress_done(&c.prog);
    if (e != SIM_OK) {
        trace_writer_abort(c.w);
        cpu440_free(cpu);
        return cli_report(e);
    }
    if (c.w) {
        e = trace_writer_close(c.w);
        c.w = NULL;
        if (e != SIM_OK) {
            cpu440_free(cpu);
            return cli_report(e);
        }
    }
    cpu440_counters k;
    cpu440_get_counters(cpu, &k);
    cpu440_free(cpu);
    if (!print_table)
        return 0;

    table t;
    stats_to_table(&c.st, &t);
    snprintf(t.title, sizeof t.title, "%s%s on cpu440", wl->name,
             pv ? " (PV)" : "");
    printf("# sim record %s%s: %s; %llu exits, %.3f simulated s\n", wl->name,
           pv ? " --pv" : "",
           end == CPU440_POWEROFF  ? "the guest powered off"
           : end == CPU440_STOPPED ? "interrupted (Ctrl-C)"
                                   : "limit reached",
           (unsigned long long)k.exits, (double)k.tb / (double)cfg.tb_hz);
    if (model)
        printf("# ticks: %s prices each exit; guest instructions 1 tick "
               "each\n",
               label);
    else
        printf("# ticks: %s (a flat default per exit path, not a "
               "prediction)\n",
               label);
    if (rt->mmio_kernel || rt->no_iccci)
        printf("# kernel: %s%s%s (what-if policies, docs/whatif.md)\n",
               rt->mmio_kernel ? "MMIO served by in-kernel devices, light "
                                 "exits (--mmio kernel)"
                               : "",
               rt->mmio_kernel && rt->no_iccci ? "; " : "",
               rt->no_iccci ? "no I-cache invalidate on guest entry "
                              "(--iccci off)"
                            : "");
    printf("# host rates: %g decrementer interrupts/s, %g device "
           "interrupts/s, %g signals/s (host_tick_hz, host_irq_hz, "
           "signal_hz)\n",
           cfg.host_tick_hz, cfg.extint_hz, cfg.signal_hz);
    printf("# host pages: %u every exit, %u more on emulation, TLB-map and "
           "MMIO paths, %u a round trip to QEMU, %u a host interrupt "
           "(common_host_pages, path_host_pages, qemu_host_pages, "
           "hostirq_host_pages); %llu host UTLB fills, %llu of them over a "
           "guest shadow entry\n",
           cfg.common_host_pages, cfg.path_host_pages, cfg.qemu_host_pages,
           cfg.hostirq_host_pages, (unsigned long long)k.host_fills,
           (unsigned long long)k.host_evicted_guest);
    printf("# UTLB: %u entries, %u pinned, %u round-robin slots "
           "(utlb_entries, utlb_pinned)",
           cfg.utlb_entries, cfg.utlb_pinned,
           cfg.utlb_entries - cfg.utlb_pinned);
    if (k.mirror_refills)
        printf("; %llu guest accesses to entries outside Unicorn's 64 "
               "slots refilled without an exit",
               (unsigned long long)k.mirror_refills);
    putchar('\n');
    printf("# host: %.2f s wall, %.0f exits/s, %.1f guest MIPS, %llu shadow "
           "TLB updates into Unicorn\n",
           wall, (double)k.exits / wall, (double)k.guest_insns / wall / 1e6,
           (unsigned long long)k.stub_runs);
    table_write_opts wo = {.fold_emul = fold,
                           .tb_per_usec = unit == STATS_TICKS
                                              ? (double)c.st.tb_per_usec
                                              : 0};
    e = table_write(stdout, &t, TFMT_KVM, &wo);
    if (e != SIM_OK)
        return cli_report(e);
    putchar('\n');
    print_guest_view(&k);
    putchar('\n');
    return stats_check(&c.st, stdout) == SIM_OK ? 0 : 1;
}

/* An option with two values: *out = (arg == yes); 2 after a usage error. */
static int pick2(const char *opt, const char *arg, const char *no,
                 const char *yes, bool *out)
{
    if (strcmp(arg, no) && strcmp(arg, yes))
        return cli_usage_error("record", "%s: expected %s or %s, got '%s'",
                               opt, no, yes, arg);
    *out = !strcmp(arg, yes);
    return 0;
}

int cli_record(int argc, char **argv)
{
    static const struct option opts[] = {
        {"pv", no_argument, 0, 'p'},
        {"seconds", required_argument, 0, 's'},
        {"exits", required_argument, 0, 'n'},
        {"output", required_argument, 0, 'o'},
        {"console", no_argument, 0, 'c'},
        {"no-console", no_argument, 0, 'C'},
        {"fold-emul", no_argument, 0, 'F'},
        {"no-fold-emul", no_argument, 0, 'f'},
        {"accounting", required_argument, 0, 'a'},
        {"unit", required_argument, 0, 'u'}, /* deprecated */
        {"model", no_argument, 0, 'm'},
        {"host-tick-hz", required_argument, 0, 'T'},
        {"extint-hz", required_argument, 0, 'E'},
        {"signal-hz", required_argument, 0, 'G'},
        {"params", required_argument, 0, 'P'},
        {"set", required_argument, 0, 'S'},
        {"list", no_argument, 0, 'l'},
        {"linux-dir", required_argument, 0, 'L'},
        {"time", required_argument, 0, 'M'},
        {"shadow-perms", required_argument, 0, 'A'},
        {"mmio", required_argument, 0, 'I'},
        {"iccci", required_argument, 0, 'i'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    bool pv = false, secs_set = false, exits_set = false;
    int fold = -1, console = -1; /* -1: the workload's default */
    bool model = false;
    stats_unit unit = STATS_USEC;
    rates rt = {-1, -1, -1, false, false, false, false};
    const char *pfile = NULL;
    char *sets[64];
    int nsets = 0;
    cpu440_limits lim = {0};
    const char *out = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'p': pv = true; break;
        case 's': {
            char *end;
            lim.max_seconds = strtod(optarg, &end);
            if (end == optarg || *end || !(lim.max_seconds > 0) ||
                lim.max_seconds > 1e6)
                return cli_usage_error("record",
                                       "--seconds: expected simulated "
                                       "seconds, more than 0 and at most "
                                       "1000000, got '%s'",
                                       optarg);
            secs_set = true;
            break;
        }
        case 'n': {
            unsigned long long n;
            if (cli_parse_u64(optarg, &n) || n == 0)
                return cli_usage_error("record",
                                       "--exits: expected a "
                                       "positive count, got '%s'",
                                       optarg);
            lim.max_exits = n;
            exits_set = true;
            break;
        }
        case 'o':
            if (cli_once("record", "-o", &out, optarg))
                return 2;
            break;
        case 'c': console = 1; break;
        case 'C': console = 0; break;
        case 'f': fold = 0; break;
        case 'L': workloads_set_linux_dir(optarg); break;
        case 'A':
            if (pick2("--shadow-perms", optarg, "kvm", "union",
                      &rt.union_perms))
                return 2;
            break;
        case 'M':
            if (pick2("--time", optarg, "kvm", "icount", &rt.icount_time))
                return 2;
            break;
        case 'I':
            if (pick2("--mmio", optarg, "qemu", "kernel", &rt.mmio_kernel))
                return 2;
            break;
        case 'i':
            if (pick2("--iccci", optarg, "on", "off", &rt.no_iccci))
                return 2;
            break;
        case 'F': fold = 1; break;
        case 'a':
            if (cli_parse_accounting("record", optarg, &unit))
                return 2;
            break;
        case 'u':
            if (cli_parse_unit("record", optarg, &unit))
                return 2;
            break;
        case 'm': model = true; break;
        case 'T':
        case 'E':
        case 'G': {
            char *end;
            double v = strtod(optarg, &end);
            if (*end || !(v >= 0) || v > 1e7)
                return cli_usage_error("record",
                                       "--%s: expected arrivals per "
                                       "simulated second (0 to 1e7), got "
                                       "'%s'",
                                       c == 'T'   ? "host-tick-hz"
                                       : c == 'E' ? "extint-hz"
                                                  : "signal-hz",
                                       optarg);
            *(c == 'T' ? &rt.tick : c == 'E' ? &rt.extint : &rt.signal) = v;
            break;
        }
        case 'P':
            if (cli_once("record", "--params", &pfile, optarg))
                return 2;
            break;
        case 'S':
            if (nsets == (int)(sizeof sets / sizeof sets[0]))
                return cli_usage_error("record", "more than %d --set",
                                       (int)(sizeof sets / sizeof sets[0]));
            sets[nsets++] = optarg;
            break;
        case 'l': list(stdout); return 0;
        case 'h': help(stdout); return 0;
        default:
            return cli_bad_option("record", "o:h", opts, argv);
        }
    }
    if (secs_set && exits_set)
        return cli_usage_error("record", "give --seconds or --exits, not "
                                         "both");
    if (optind != argc - 1)
        return cli_usage_error(
            "record", optind >= argc ? "missing WORKLOAD (sim record --list)"
                                     : "one WORKLOAD expected");
    const workload *wl = workload_find(argv[optind]);
    if (!wl)
        return cli_usage_error("record",
                               "unknown workload '%s' (sim record "
                               "--list)",
                               argv[optind]);
    if (pv && !workload_has_pv(wl))
        return cli_usage_error("record", "workload '%s' has no PV flavour",
                               wl->name);
    if (!out)
        return cli_usage_error("record", "-o TRACE is required");
    int bad = cli_check_output_of(out, pfile);
    if (bad)
        return bad;
    if (rt.no_iccci && !model)
        return cli_usage_error("record", "--iccci off: the I-cache and its "
                               "invalidate are the cycle model's (add "
                               "--model)");
    for (int i = 0; i < nsets && !model; i++) {
        size_t n = strcspn(sets[i], "=");
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)n, sets[i]);
        if (strcmp(name, "host_tick_hz") && strcmp(name, "host_irq_hz") &&
            strcmp(name, "signal_hz") && strcmp(name, "common_host_pages") &&
            strcmp(name, "path_host_pages") &&
            strcmp(name, "qemu_host_pages") &&
            strcmp(name, "hostirq_host_pages") &&
            strcmp(name, "utlb_entries") && strcmp(name, "utlb_pinned"))
            return cli_usage_error("record",
                                   "--set %.*s: without --model only "
                                   "host_tick_hz, host_irq_hz, signal_hz, "
                                   "the *_host_pages, utlb_entries and "
                                   "utlb_pinned act (add --model for the "
                                   "cycle model's)",
                                   (int)n, sets[i]);
    }
    static params prm;
    int rc = cli_params_resolve(&prm, pfile, sets, nsets);
    if (rc == 0)
        rc = resolve_rates(&prm, &rt);
    if (rc != 0)
        return rc;
    cost_model *cm = NULL;
    if (model) {
        sim_err e = cost_new(&cm, &prm);
        if (e != SIM_OK)
            return cli_report(e);
    }
    if (!secs_set && !exits_set)
        lim.max_seconds = 120; /* a hung guest still ends (the boot: 2 s) */
    /* the Linux boot shows its console and the seed's layout by default */
    if (console < 0)
        console = wl->external;
    if (fold < 0)
        fold = wl->external;
    rc = run_workload("record", wl, pv, out, &lim, console ? stderr : NULL,
                      fold != 0, true, cm, &rt, &prm, unit);
    cost_free(cm);
    return rc;
}

/* `sim microbench`: the guest prints one line per trap kind. */
typedef struct mb_ctx {
    char line[256];
    size_t len;
    int refused;
    const char *only; /* --trap */
    int shown;
} mb_ctx;

/* The trap kinds the guest measures (workloads/guest/microbench.c). */
static const char *const k_traps[] = {
    "mfmsr",      "mtmsr",       "wrteei", "mfspr-sprg0", "mtspr-sprg0",
    "mfspr-dear", "mtspr-mmucr", "tlbsx",  "tlbwe",       "iccci",
    "mfdcr-uic",  "mmio-load",   "hcall",
};

static mb_ctx g_mb;

static void mb_console(void *ctx, int ch)
{
    (void)ctx;
    mb_ctx *m = &g_mb;
    if (ch == '\r')
        return;
    if (ch != '\n') {
        if (m->len < sizeof m->line - 1)
            m->line[m->len++] = (char)ch;
        return;
    }
    m->line[m->len] = 0;
    m->len = 0;
    /* "[jiffies] name cycles iterations" or "... name refused: why" */
    const char *p = strchr(m->line, ']');
    p = p ? p + 2 : m->line;
    char name[64], why[160];
    unsigned long cyc, it;
    if (sscanf(p, "%63s", name) == 1 && m->only && strcmp(name, m->only))
        return;
    m->shown++;
    if (sscanf(p, "%63s %lu %lu", name, &cyc, &it) == 3)
        printf("%-14s %8lu cycles/iteration (%lu iterations)\n", name, cyc, it);
    else if (sscanf(p, "%63s refused: %159[^\n]", name, why) == 2) {
        printf("%-14s refused: %s\n", name, why);
        m->refused++;
    }
}

int cli_microbench(int argc, char **argv)
{
    static const struct option opts[] = {
        {"trap", required_argument, 0, 't'},
        {"params", required_argument, 0, 'P'},
        {"set", required_argument, 0, 'S'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *only = NULL, *pfile = NULL;
    char *sets[64];
    int nsets = 0;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 't': {
            bool known = false;
            for (size_t i = 0; i < sizeof k_traps / sizeof k_traps[0]; i++)
                known |= !strcmp(optarg, k_traps[i]);
            if (!known)
                return cli_usage_error(
                    "microbench",
                    "unknown trap '%s' (mfmsr, mtmsr, wrteei, mfspr-sprg0, "
                    "mtspr-sprg0, mfspr-dear, mtspr-mmucr, tlbsx, tlbwe, "
                    "iccci, mfdcr-uic, mmio-load, hcall)",
                    optarg);
            only = optarg;
            break;
        }
        case 'P':
            if (cli_once("microbench", "--params", &pfile, optarg))
                return 2;
            break;
        case 'S':
            if (nsets == 64)
                return cli_usage_error("microbench", "too many --set");
            sets[nsets++] = optarg;
            break;
        case 'h':
            printf("usage: sim microbench [--trap KIND] [--params P] "
                   "[--set K=V]...\n"
                   "\n"
                   "Runs the trap-cost microbenchmark guest on cpu440 in the\n"
                   "kvm-unit-tests style: per trap kind, the guest reads the\n"
                   "timebase around N iterations, doubling N until the delta\n"
                   "is large enough, and prints cycles per iteration. A zero\n"
                   "or negative delta is refused with the reason, never\n"
                   "printed as 0 (exit code 1). The cycles are cpu440's\n"
                   "(%s), not hardware's.\n"
                   "\n"
                   "  --trap KIND   only this kind: mfmsr, mtmsr, wrteei,\n"
                   "                mfspr-sprg0, mtspr-sprg0, mfspr-dear,\n"
                   "                mtspr-mmucr, tlbsx, tlbwe, iccci,\n"
                   "                mfdcr-uic, mmio-load, hcall\n"
                   "  --params P    price each trap with the cycle model at\n"
                   "                the parameters of INI file P (e.g. what\n"
                   "                `sim calibrate` wrote: the cycles of one\n"
                   "                exit of a table-fitted model)\n"
                   "  --set K=V     one parameter of the model (repeatable;\n"
                   "                implies the model)\n",
                   CPU440_COST_LABEL);
            return 0;
        default:
            return cli_bad_option("microbench", "h", opts, argv);
        }
    }
    if (optind != argc)
        return cli_usage_error("microbench", "unexpected argument '%s'",
                               argv[optind]);
    const workload *wl = workload_find("microbench");
    memset(&g_mb, 0, sizeof g_mb);
    g_mb.only = only;
    cost_model *cm = NULL;
    if (pfile || nsets) {
        static params prm;
        int rc = cli_params_resolve(&prm, pfile, sets, nsets);
        if (rc != 0)
            return rc;
        sim_err e = cost_new(&cm, &prm);
        if (e != SIM_OK)
            return cli_report(e);
        const char *b = pfile ? strrchr(pfile, '/') : NULL;
        printf("# trap cost on cpu440, each exit priced by the cycle model "
               "(%s%s%s)\n", pfile ? "parameters " : "defaults",
               pfile ? (b ? b + 1 : pfile) : "", nsets ? " and --set" : "");
    } else
        printf("# trap cost on cpu440 (%s)\n", CPU440_COST_LABEL);
    cpu440_config cfg;
    cpu440_config_default(&cfg);
    if (cm) { /* the host pages and UTLB of the model pricing the traps */
        cpu440_config_host_pages(&cfg, cost_params(cm));
        cpu440_config_utlb(&cfg, cost_params(cm));
    }
    /* as in sim record: the core runs at the timebase's clock */
    if (cm && cost_params(cm)->origin[PARAM_core_hz] != PO_DEFAULT &&
        P(cost_params(cm), core_hz) != (double)cfg.tb_hz) {
        double hz = P(cost_params(cm), core_hz);
        cost_free(cm);
        return cli_usage_error("microbench", "core_hz = %.0f: cpu440 runs "
                               "the core at its timebase clock, %llu Hz; "
                               "another core_hz would be ignored",
                               hz, (unsigned long long)cfg.tb_hz);
    }
    cpu440 *cpu = NULL;
    sim_err e = cpu440_new(&cpu, &cfg);
    if (e == SIM_OK && cm) {
        cpu440_coster k;
        cpu440_model_coster(&k, cm);
        cpu440_set_coster(cpu, &k);
    }
    if (e == SIM_OK)
        e = workload_load(wl, false, cpu);
    cpu440_end end;
    cpu440_limits lim = {.max_seconds = 60};
    if (e == SIM_OK) {
        cpu440_set_console(cpu, mb_console, NULL);
        e = cpu440_run(cpu, &lim, &end);
    }
    cpu440_free(cpu);
    cost_free(cm);
    if (e != SIM_OK)
        return cli_report(e);
    if (g_mb.shown == 0)
        return cli_report(sim_fail(SIM_ERR_CHECK, "microbench: the guest "
                                                  "printed no result"));
    return g_mb.refused ? 1 : 0;
}
