/* sim: the sim440 command line. Dispatches `sim <command> [options]`. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "params.h"
#include "sim_config.h"
#include "whatif.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"record", cli_record, "run a guest workload on cpu440, write its exit trace, print the table"},
    {"microbench", cli_microbench, "cycles of one trap of each kind, measured in a guest on cpu440"},
    {"import", cli_import, "convert ftrace / trace-cmd text of the kvm tracepoints into a trace"},
    {"replay", cli_replay, "replay a trace through the model, print the exit-timing table"},
    {"trace", cli_trace, "trace files: info | dump | pack | synth | profile"},
    {"table", cli_table, "exit-timing tables: show | convert | diff"},
    {"params", cli_params, "cycle-model parameters: show | doc"},
    {"calibrate", cli_calibrate, "fit the cycle model's parameters to a hardware exit-timing table"},
    {"whatif", cli_whatif, "predict the table after an optimization (pv, no-iccci ...), with the delta"},
    {"validate", cli_validate, "predicted vs measured tables of the validation cases, pass/fail"},
    {"sweep", cli_sweep, "the model at every point of a parameter grid, one row per point"},
    {"sensitivity", cli_sensitivity, "parameters ranked by how much 10% of each moves the run"},
    {"measurable", cli_measurable, "would a change in trap count show in measured wall times?"},
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: sim <command> [options]   (sim <command> --help for details)\n"
            "\n"
            "sim440 %s: a cycle-level simulator of the KVM exit path on the PowerPC 440.\n"
            "\n"
            "commands:\n",
            SIM_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n"
               "exit codes: 0 success, 1 a check failed, 2 bad usage or bad input,\n"
               "130 interrupted (Ctrl-C).\n"
               "Long runs draw a progress line on stderr when it is a terminal,\n"
               "every 0.25 s (SIM_PROGRESS_SECONDS=S sets another interval).\n");
}

/* The command being run ("trace dump"), for the prefix of its errors. */
static char g_cmd[64];

int cli_report(sim_err e)
{
    const char *m = sim_errmsg();
    /* a message that names the command itself ("validate: ...") is not
     * prefixed twice */
    const char *last = strrchr(g_cmd, ' ');
    last = last ? last + 1 : g_cmd;
    size_t ll = strlen(last);
    if (m && ll && !strncmp(m, last, ll) && !strncmp(m + ll, ": ", 2))
        m += ll + 2;
    fprintf(stderr, "sim%s%s: %s\n", g_cmd[0] ? " " : "", g_cmd,
            (m && *m) ? m : sim_strerror(e));
    return sim_exit_code(e);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "sim %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see: sim %s --help)\n", cmd);
    return 2;
}

int cli_bad_option(const char *cmd, const char *shortopts,
                   const struct option *opts, char **argv)
{
    const char *arg = argv[optind - 1];
    /* "--set" (or "--se") alone, not "--bogus": the argument names it */
    for (const struct option *o = opts; optopt && o->name; o++)
        if (o->val == optopt && o->has_arg == required_argument &&
            !strncmp(arg, "--", 2) && arg[2] &&
            !strncmp(o->name, arg + 2, strlen(arg + 2)))
            return cli_usage_error(cmd, "option '--%s' needs a value",
                                   o->name);
    const char *sc = optopt > 0 && optopt < 128 && optopt != ':'
                         ? strchr(shortopts, optopt)
                         : NULL;
    if (sc && sc[1] == ':')
        return cli_usage_error(cmd, "option '-%c' needs a value", optopt);
    return cli_usage_error(cmd, "unknown option '%s'", arg);
}

int cli_dispatch(const char *cmd, const char *noun, int argc, char **argv,
                 const cli_sub *subs, size_t n, void (*usage)(FILE *))
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *sub = argv[1];
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if (!strcmp(sub, subs[i].name)) {
            size_t len = strlen(g_cmd);
            snprintf(g_cmd + len, sizeof g_cmd - len, " %s", sub);
            return subs[i].run(argc - 1, argv + 1);
        }
    char names[256] = "";
    size_t len = 0;
    for (size_t i = 0; i < n && len < sizeof names; i++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
                                i ? (i + 1 == n ? " or " : ", ") : "",
                                subs[i].name);
    return cli_usage_error(cmd, "unknown %s '%s': expected %s", noun, sub,
                           names);
}

int cli_parse_tb_per_usec(const char *cmd, const char *arg, double *tb)
{
    char *end;
    *tb = strtod(arg, &end);
    /* a timebase of 1 MHz to 100 GHz */
    if (end == arg || *end || !(*tb >= 1) || !(*tb <= 1e5))
        return cli_usage_error(cmd,
                               "--tb-per-usec wants the timebase in ticks "
                               "per usec (MHz), from 1 to 100000, not '%s'",
                               arg);
    return 0;
}

int cli_parse_accounting(const char *cmd, const char *arg, stats_unit *u)
{
    if (!strcmp(arg, "2.6.29"))
        *u = STATS_USEC;
    else if (!strcmp(arg, "3.1"))
        *u = STATS_TICKS;
    else
        return cli_usage_error(cmd,
                               "--accounting: expected 2.6.29 (each sample "
                               "truncated to usec) or 3.1 (ticks summed), "
                               "got '%s'",
                               arg);
    return 0;
}

int cli_table_accounting(const char *cmd, const table *t, const char *path,
                         bool given, stats_unit *u)
{
    if (!t->accounting[0])
        return 0;
    stats_unit tu = strcmp(t->accounting, "3.1") ? STATS_USEC : STATS_TICKS;
    if (!given) {
        *u = tu;
        return 0;
    }
    if (*u != tu)
        return cli_usage_error(cmd, "%s states accounting %s, --accounting "
                               "%s contradicts it (a validation case: "
                               "accounting = %s)", path, t->accounting,
                               cli_accounting_name(*u), t->accounting);
    return 0;
}

void cli_table_notes(FILE *f, const char *prefix, const table *t)
{
    /* rows that say the table is not of the kernels and guest the model
     * follows: accepted, and said */
    const table_row *halt = &t->rows[EXIT_HALT];
    if (halt->present && halt->count)
        fprintf(f, "%sHALT: %llu exits (avg %.4g usec), a row the 44x "
                "kernels sim440 follows never charge (2.6.29-3.10 count a "
                "halt_wakeup only; docs/kvm440.md): the table is another "
                "kernel's; the cycle model has no path of its own for them "
                "and prices each as the bare exit and entry\n",
                prefix, (unsigned long long)halt->count, halt->avg);
    uint64_t hc = t->rows[EXIT_HCALL].present ? t->rows[EXIT_HCALL].count : 0,
             pvm = t->rows[EXIT_DTLBPV].present ? t->rows[EXIT_DTLBPV].count
                                                 : 0;
    if (hc || pvm)
        fprintf(f, "%sthe table has %llu HCALL and %llu DTLBPV exits, the "
                "PV magic page's (docs/kvm440.md): its guest uses the magic "
                "page already, and sim whatif --transform pv assumes one "
                "that does not\n",
                prefix, (unsigned long long)hc, (unsigned long long)pvm);
}

int cli_parse_table_fmt(const char *cmd, const char *arg, table_fmt *f)
{
    int v = table_fmt_from_name(arg);
    if (v < 0)
        return cli_usage_error(cmd, "unknown format '%s' (kvm, debugfs, "
                               "perf, csv, json)", arg);
    *f = (table_fmt)v;
    return 0;
}

int cli_parse_guest_time(const char *cmd, const char *arg, cost_guest_mode *g)
{
    if (!strcmp(arg, "trace"))
        *g = COST_GUEST_TRACE;
    else if (!strcmp(arg, "model"))
        *g = COST_GUEST_MODEL;
    else
        return cli_usage_error(cmd, "unknown --guest-time '%s' (trace, "
                               "model)", arg);
    return 0;
}

int cli_check_by_insn(const char *cmd, table_fmt fmt, bool systemc)
{
    if (fmt != TFMT_KVM && fmt != TFMT_PERF)
        return cli_usage_error(cmd, "--by-insn prints '#' lines after a kvm "
                               "or perf table, not with --format %s",
                               table_fmt_name(fmt));
    if (systemc)
        return cli_usage_error(cmd, "--by-insn takes each exit's handler "
                               "from the direct path, not the SystemC "
                               "platform");
    return 0;
}

int cli_parse_platform(const char *cmd, const char *arg, bool *systemc)
{
    if (strcmp(arg, "c") != 0 && strcmp(arg, "systemc") != 0)
        return cli_usage_error(cmd, "unknown platform '%s' (c, systemc)",
                               arg);
    *systemc = !strcmp(arg, "systemc");
    return 0;
}

int cli_parse_threads(const char *cmd, const char *arg,
                      unsigned long long *n)
{
    if (cli_parse_u64(arg, n) || *n == 0 || *n > 64)
        return cli_usage_error(cmd, "--threads: expected 1..64, not '%s'",
                               arg);
    return 0;
}

int cli_parse_unit(const char *cmd, const char *arg, stats_unit *u)
{
    if (!strcmp(arg, "usec"))
        *u = STATS_USEC;
    else if (!strcmp(arg, "ticks"))
        *u = STATS_TICKS;
    else
        return cli_usage_error(cmd, "unknown unit '%s' (usec, ticks)", arg);
    fprintf(stderr,
            "sim %s: --unit is deprecated: it chooses the accounting, not the "
            "unit (usec either way); use --accounting %s\n",
            cmd, cli_accounting_name(*u));
    return 0;
}

const char *cli_accounting_name(stats_unit u)
{
    return u == STATS_USEC ? "2.6.29" : "3.1";
}

int cli_check_output(const char *path)
{
    if (!path)
        return 0;
    sim_err e = outfile_check(path);
    return e ? cli_report(e) : 0;
}

int cli_check_output_of(const char *path, const char *input)
{
    int c = cli_check_output(path);
    if (c || !path)
        return c;
    sim_err e = outfile_check_not_input(path, input);
    return e ? cli_report(e) : 0;
}

int cli_check_distinct(const char *a, const char *b)
{
    sim_err e = outfile_check_distinct(a, b);
    return e ? cli_report(e) : 0;
}

int cli_check_text(const char *cmd, const char *opt, const char *s,
                   size_t max, bool ascii)
{
    size_t n = strlen(s);
    for (size_t j = 0; j < n; j++) {
        unsigned char c = (unsigned char)s[j];
        if (c < 0x20 || c == 0x7f || (ascii && c > 0x7f))
            return cli_usage_error(cmd, "%s: one line of printable %stext "
                                   "(character %zu is not)", opt,
                                   ascii ? "ASCII " : "", j + 1);
    }
    if (n > max)
        return cli_usage_error(cmd, "%s: at most %zu characters, not %zu",
                               opt, max, n);
    return 0;
}

int cli_check_chain_inputs(const struct whatif_chain *c, const char *out,
                           const char *plot)
{
    const char *in;
    int bad = 0;
    for (unsigned k = 0; !bad && (in = whatif_chain_input(c, k)); k++) {
        bad = cli_check_output_of(out, in);
        if (!bad)
            bad = cli_check_output_of(plot, in);
    }
    return bad;
}

int cli_check_out_and_plot(const char *out, const char *plot,
                           const char *trace, const char *pfile)
{
    int bad = cli_check_output_of(out, trace);
    if (!bad)
        bad = cli_check_output_of(plot, trace);
    if (!bad)
        bad = cli_check_output_of(out, pfile);
    if (!bad)
        bad = cli_check_output_of(plot, pfile);
    if (!bad)
        bad = cli_check_distinct(out, plot);
    return bad;
}

int cli_parse_tb_hz(const char *cmd, const char *arg,
                    unsigned long long *hz)
{
    double lo = param_min(PARAM_core_hz), hi = param_max(PARAM_core_hz);
    if (cli_parse_u64(arg, hz) || *hz < lo || *hz > hi)
        return cli_usage_error(cmd, "--tb-hz '%s': expected %.0f .. %.0f "
                               "(the trace's core clock too: core_hz's "
                               "range)", arg, lo, hi);
    return 0;
}

int cli_parse_seed(const char *cmd, const char *arg,
                   unsigned long long *seed)
{
    if (cli_parse_u64(arg, seed) || *seed < 1 || *seed > 4294967295ull)
        return cli_usage_error(cmd, "--seed: expected 1 .. 4294967295 (GSL's "
                               "mt19937 keeps 32 bits and reads 0 as 4357: "
                               "other seeds, the same bytes), got '%s'", arg);
    return 0;
}

int cli_once(const char *cmd, const char *opt, const char **slot,
             const char *arg)
{
    if (*slot)
        return cli_usage_error(cmd, "%s given twice ('%s' and '%s'): it "
                               "takes one", opt, *slot, arg);
    *slot = arg;
    return 0;
}

/* cli_parse_u64 and cli_parse_bytes: k/M/G multiply by powers of unit
 * (1000 or 1024). */
static int parse_scaled(const char *s, unsigned long long *v,
                        unsigned long long unit)
{
    char *end;
    /* decimal, or hex after 0x; digits first: strtoull alone takes " 5"
     * and "+5", wraps " -1" and, in base 0, reads "010" as octal 8 */
    if (!s)
        return -1;
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *d = hex ? s + 2 : s;
    if (!(hex ? isxdigit((unsigned char)*d) : isdigit((unsigned char)*d)))
        return -1;
    errno = 0;
    unsigned long long x = strtoull(d, &end, hex ? 16 : 10);
    if (errno == ERANGE)
        return -1;
    unsigned long long mul = 1;
    if (*end == 'k' || *end == 'K')
        mul = unit, end++;
    else if (*end == 'M')
        mul = unit * unit, end++;
    else if (*end == 'G')
        mul = unit * unit * unit, end++;
    if (*end != '\0' || end == s)
        return -1;
    if (mul > 1 && x > ~0ULL / mul)
        return -1;
    *v = x * mul;
    return 0;
}

int cli_parse_u64(const char *s, unsigned long long *v)
{
    return parse_scaled(s, v, 1000);
}

int cli_parse_bytes(const char *s, unsigned long long *v)
{
    return parse_scaled(s, v, 1024);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("sim440 %s\n", SIM_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) {
            snprintf(g_cmd, sizeof g_cmd, "%s", commands[i].name);
            int rc = commands[i].run(argc - 1, argv + 1);
            /* a report printed to a full disk or a closed stream did not
             * reach anyone: that is no success (a command that failed has
             * said why already) */
            errno = 0;
            if (rc != 2 && (fflush(stdout) != 0 || ferror(stdout)))
                return cli_report(sim_fail(SIM_ERR_IO, "stdout: write "
                                           "failed%s%s",
                                           errno ? ": " : "",
                                           errno ? strerror(errno) : ""));
            return rc;
        }
    fprintf(stderr, "sim: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
