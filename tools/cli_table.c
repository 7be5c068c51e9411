/* cli_table: `sim table show|convert|diff` - reads exit-timing tables in any
 * of the five forms (model/table.h, docs/tables.md), checks their internal
 * consistency, converts between forms and compares two tables. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "table.h"
#include "tcmp.h"

#define FORMATS "kvm, debugfs, perf, csv, json"

/* Help texts keep their line breaks as users see them. */
/* clang-format off */
static void help_top(FILE *f)
{
    fprintf(f,
        "usage: sim table <command> [options]   (sim table <command> --help)\n"
        "\n"
        "Exit-timing tables (CONFIG_KVM_EXIT_TIMING: per exit type count, min,\n"
        "max, sum, avg, stddev and time%%, in usec).\n"
        "\n"
        "commands:\n"
        "  show FILE       print a table (as kvm by default); --check verifies it\n"
        "  convert FILE    write a table in another format (--to FMT)\n"
        "  diff A B        two tables side by side with relative differences\n"
        "\n"
        "formats:\n"
        "  kvm      the seed's layout: title, 'unit is usec', 'traced duration',\n"
        "           rows 'type count min max sum avg stddev time%%' by time%%,\n"
        "           '*never hit' line (commas group digits anywhere: 7259,180)\n"
        "  debugfs  the kernel's kvm/vm<pid>_vcpu<id>_timing file: 'type count\n"
        "           min max sum sum_squared', every type in enum order\n"
        "  perf     like 'perf kvm stat report': exits by Samples, Time%% of the\n"
        "           handled time, '( +- x%% )' relative error of the mean\n"
        "  csv      type,count,min,max,sum,avg,stddev,time_percent\n"
        "  json     {title, unit, traced_duration, rows[], never_hit[]}\n"
        "Input formats are detected from the content unless --from is given.\n"
        "FILE '-' is standard input.\n"
        "\n"
        "exit codes: 0 ok, 1 --check found an inconsistency, 2 bad usage or input.\n");
}

static void help_show(FILE *f)
{
    fprintf(f,
        "usage: sim table show FILE [--from FMT] [--format FMT] [--fold-emul]\n"
        "                           [--check] [--tb-per-usec N]\n"
        "\n"
        "Parses FILE and prints it to stdout.\n"
        "\n"
        "options:\n"
        "  --from FMT        input format: auto (default), " FORMATS "\n"
        "  --format FMT      output format: " FORMATS " (default kvm)\n"
        "  --fold-emul       fold the EMUL_* rows into one EMULINST row (the\n"
        "                    seed's layout); kvm and json print the EMUL_*\n"
        "                    breakdown beneath it\n"
        "  --check           check the table's consistency (avg = sum/count,\n"
        "                    time%% = sum/traced, exit counts add up to\n"
        "                    TIMEINGUEST's, min <= avg <= max, time%% adds up\n"
        "                    to 100): problems go to stderr, exit code 1;\n"
        "                    a consistent table says so on stderr\n"
        "  --tb-per-usec N   debugfs in the 3.1+ form (timebase ticks per usec,\n"
        "                    1 to 100000, e.g. 667): sum_squared in tick*usec,\n"
        "                    unused rows' min = 0xFFFFFFFF/N; applies to\n"
        "                    debugfs input and output\n"
        "\n"
        "exit codes: 0 ok, 1 --check failed, 2 bad usage or unreadable table.\n");
}

static void help_convert(FILE *f)
{
    fprintf(f,
        "usage: sim table convert FILE --to FMT [-o OUT] [--from FMT]\n"
        "                         [--fold-emul] [--tb-per-usec N]\n"
        "\n"
        "Parses FILE and writes it as FMT to OUT (default '-', stdout). OUT is\n"
        "written under a temporary name and renamed when complete.\n"
        "\n"
        "options:\n"
        "  --to FMT          output format: " FORMATS " (required)\n"
        "  -o, --output OUT  output file (default: stdout)\n"
        "  --from FMT        input format: auto (default), " FORMATS "\n"
        "  --fold-emul       one EMULINST row for all emulation (see show)\n"
        "  --tb-per-usec N   debugfs in the 3.1+ form (see show)\n"
        "\n"
        "Formats carry different columns: debugfs has no avg/stddev/time%% (they\n"
        "are derived; the traced duration is the sum of all rows), kvm, csv and\n"
        "perf have no sum_squared (debugfs output rebuilds it from avg and\n"
        "stddev), perf has no guest time and 2-decimal values.\n"
        "\n"
        "exit codes: 0 ok, 2 bad usage, unreadable table or write error.\n");
}

static void help_diff(FILE *f)
{
    fprintf(f,
        "usage: sim table diff A B [--proportions] [--fold-emul] [--from FMT]\n"
        "                          [--format text|csv|json] [-o OUT]\n"
        "\n"
        "Prints tables A and B side by side: per type (A's rows by time%%, then\n"
        "rows only B has) the counts, sums and averages (usec) and time%% of\n"
        "both with the relative differences (b - a) / a, then the exit totals\n"
        "and traced durations (when either has no guest time: the exit rows'\n"
        "handled time, and time%% of it). Compare sums, not only time%%, when\n"
        "the totals differ: a row's time%% can rise while its time falls. When\n"
        "every count is the same in both, one count column is printed. A row\n"
        "whose longest exit is more than half its sum (3 exits or more) is\n"
        "marked: its change is mostly where that one exit fell\n"
        "(docs/validation.md, \"One exit\").\n"
        "\n"
        "options:\n"
        "  --proportions   compare each type's share of all exits (the exit\n"
        "                  mix) instead of raw counts (text; csv and json\n"
        "                  carry both)\n"
        "  --fold-emul     fold EMUL_* rows into EMULINST in both tables\n"
        "  --from FMT      input format of both: auto (default), " FORMATS "\n"
        "  --format F      text (default), csv (one row per type: count_ref,\n"
        "                  count, err_count, share_ref, share, sum_ref, sum,\n"
        "                  err_sum, avg_ref, avg, err_avg, time_percent_ref,\n"
        "                  time_percent; usec, err_* relative) or json (the\n"
        "                  same per row, with totals): docs/tables.md\n"
        "  -o OUT          write to OUT (temporary name, then renamed)\n"
        "\n"
        "exit codes: 0 ok, 2 bad usage or unreadable table.\n");
}

/* clang-format on */

/* Options common to the three commands. */
typedef struct topts {
    table_fmt from, to;
    bool to_set, fold, check, proportions;
    double tb;
    const char *out;
} topts;

enum { O_FROM = 256, O_TO, O_FORMAT, O_FOLD, O_CHECK, O_TB, O_PROP, O_HELP };

static int parse_fmt(const char *cmd, const char *arg, bool auto_ok,
                     table_fmt *f)
{
    if (auto_ok && !strcmp(arg, "auto")) {
        *f = TFMT_AUTO;
        return 0;
    }
    int v = table_fmt_from_name(arg);
    if (v < 0)
        return cli_usage_error(cmd, "unknown format '%s' (%s%s)", arg,
                               auto_ok ? "auto, " : "", FORMATS);
    *f = (table_fmt)v;
    return 0;
}

/* Parses argv; returns -1 to go on, else an exit code. Positional
 * arguments are left in argv[optind..argc-1]. */
static int parse_opts(const char *cmd, int argc, char **argv, topts *o,
                      void (*help)(FILE *))
{
    static const struct option lo[] = {
        {"from", required_argument, 0, O_FROM},
        {"to", required_argument, 0, O_TO},
        {"format", required_argument, 0, O_FORMAT},
        {"output", required_argument, 0, 'o'},
        {"fold-emul", no_argument, 0, O_FOLD},
        {"check", no_argument, 0, O_CHECK},
        {"tb-per-usec", required_argument, 0, O_TB},
        {"proportions", no_argument, 0, O_PROP},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    *o = (topts){.from = TFMT_AUTO, .to = TFMT_KVM};
    bool is_show = !strcmp(cmd, "table show"),
         is_conv = !strcmp(cmd, "table convert"),
         is_diff = !strcmp(cmd, "table diff");
    int c, rc;
    optind = 1;
    opterr = 0;
    int li = -1;
    while ((c = getopt_long(argc, argv, "o:h", lo, &li)) != -1) {
        /* each command accepts only the options its --help lists */
        bool ok = c == 'h' || c == O_FROM || c == O_FOLD ||
                  (c == O_FORMAT && (is_show || is_diff)) ||
                  (c == O_CHECK && is_show) || (c == O_TO && is_conv) ||
                  (c == 'o' && (is_conv || is_diff)) ||
                  (c == O_TB && !is_diff) || (c == O_PROP && is_diff);
        if (!ok && c != '?' && li >= 0)
            return cli_usage_error(cmd, "option '--%s' is not one of %s's",
                                   lo[li].name, cmd);
        if (!ok && c != '?')
            return cli_usage_error(cmd, "option '-%c' is not one of %s's", c,
                                   cmd);
        if (!ok && (optopt == O_FROM || optopt == O_TO || optopt == O_FORMAT ||
                    optopt == 'o' || optopt == O_TB))
            return cli_usage_error(cmd, "option '%s' needs an argument",
                                   argv[optind - 1]);
        if (!ok)
            return cli_usage_error(cmd, "unknown option '%s'",
                                   argv[optind - 1]);
        li = -1;
        switch (c) {
        case 'h': help(stdout); return 0;
        case O_FROM:
            if ((rc = parse_fmt(cmd, optarg, true, &o->from)))
                return rc;
            break;
        case O_TO:
        case O_FORMAT:
            if (is_diff) { /* a comparison: text or a machine document */
                if (!strcmp(optarg, "text"))
                    o->to = TFMT_KVM;
                else if (!strcmp(optarg, "csv") || !strcmp(optarg, "json"))
                    o->to = optarg[0] == 'c' ? TFMT_CSV : TFMT_JSON;
                else
                    return cli_usage_error(cmd,
                                           "unknown format '%s' (text, csv, "
                                           "json)",
                                           optarg);
            } else if ((rc = parse_fmt(cmd, optarg, false, &o->to)))
                return rc;
            o->to_set = true;
            break;
        case 'o':
            if (cli_once(cmd, "-o", &o->out, optarg))
                return 2;
            break;
        case O_FOLD: o->fold = true; break;
        case O_CHECK: o->check = true; break;
        case O_PROP: o->proportions = true; break;
        case O_TB:
            if (cli_parse_tb_per_usec(cmd, optarg, &o->tb))
                return 2;
            break;
        }
    }
    if (!o->out)
        o->out = "-";
    return -1;
}

static sim_err load(table *t, const char *path, const topts *o)
{
    return table_read_file_tb(t, path, o->from, o->tb);
}

/* parse_opts for a command that reads one FILE, into *path; returns -1 to
 * go on, else an exit code. */
static int parse_one_file(const char *cmd, int argc, char **argv, topts *o,
                          void (*help)(FILE *), const char **path)
{
    int rc = parse_opts(cmd, argc, argv, o, help);
    if (rc >= 0)
        return rc;
    if (optind != argc - 1)
        return cli_usage_error(cmd, optind >= argc ? "missing FILE"
                                                   : "one FILE expected");
    *path = argv[optind];
    return -1;
}

/* The accounting a table states (json's "accounting") goes on in json;
 * the other forms have no place for it: said, or a 3.1+ table converted
 * to kvm was read back as 2.6.29 (calibrate, synth --like fit each row
 * off by the truncation). json to json dropped it too. */
static void keep_accounting(const char *cmd, const table *t, table_fmt to,
                            table_write_opts *wo)
{
    if (!t->accounting[0])
        return;
    if (to == TFMT_JSON)
        wo->accounting = t->accounting;
    else
        fprintf(stderr, "%s: note: the table states accounting %s, which "
                        "the %s form does not carry: give --accounting %s "
                        "to what reads it\n",
                cmd, t->accounting, table_fmt_name(to), t->accounting);
}

static int cmd_show(int argc, char **argv)
{
    topts o;
    const char *path = NULL;
    int rc = parse_one_file("table show", argc, argv, &o, help_show, &path);
    if (rc >= 0)
        return rc;
    table t;
    sim_err e = load(&t, path, &o);
    if (e != SIM_OK)
        return cli_report(e);
    sim_err chk = SIM_OK;
    const char *name = strcmp(path, "-") ? path : "<stdin>";
    if (o.check)
        chk = table_check(&t, name, stderr);
    table_write_opts wo = {.fold_emul = o.fold, .tb_per_usec = o.tb};
    keep_accounting("sim table show", &t, o.to, &wo);
    e = table_write(stdout, &t, o.to, &wo);
    if (e == SIM_OK && fflush(stdout) != 0)
        e = sim_fail(SIM_ERR_IO, "stdout: write failed");
    if (e != SIM_OK)
        return cli_report(e);
    if (chk != SIM_OK)
        return cli_report(chk);
    /* stderr, as the problems: stdout stays the table (json, csv) */
    if (o.check)
        fprintf(stderr, "sim table show: %s: consistent\n", name);
    return 0;
}

static int cmd_convert(int argc, char **argv)
{
    topts o;
    const char *path = NULL;
    int rc =
        parse_one_file("table convert", argc, argv, &o, help_convert, &path);
    if (rc >= 0)
        return rc;
    if (!o.to_set)
        return cli_usage_error("table convert", "--to FMT is required (%s)",
                               FORMATS);
    if ((rc = cli_check_output_of(o.out, path)))
        return rc;
    table t;
    sim_err e = load(&t, path, &o);
    if (e != SIM_OK)
        return cli_report(e);
    outfile of;
    if ((e = outfile_open(&of, o.out)) != SIM_OK)
        return cli_report(e);
    table_write_opts wo = {.fold_emul = o.fold, .tb_per_usec = o.tb};
    keep_accounting("sim table convert", &t, o.to, &wo);
    e = outfile_finish(&of, table_write(of.f, &t, o.to, &wo));
    return e == SIM_OK ? 0 : cli_report(e);
}

/* Diff headers name the files, not where they sit. */
static const char *base(const char *p)
{
    const char *s = strrchr(p, '/');
    return s && s[1] ? s + 1 : p;
}

static int cmd_diff(int argc, char **argv)
{
    topts o;
    int rc = parse_opts("table diff", argc, argv, &o, help_diff);
    if (rc >= 0)
        return rc;
    if (argc - optind != 2)
        return cli_usage_error("table diff", "two tables A B expected");
    if (!strcmp(argv[optind], "-") && !strcmp(argv[optind + 1], "-"))
        return cli_usage_error("table diff", "A and B are both '-': standard "
                               "input holds one table");
    if ((rc = cli_check_output_of(o.out, argv[optind])) ||
        (rc = cli_check_output_of(o.out, argv[optind + 1])))
        return rc;
    table a, b;
    sim_err e;
    if ((e = load(&a, argv[optind], &o)) != SIM_OK ||
        (e = load(&b, argv[optind + 1], &o)) != SIM_OK)
        return cli_report(e);
    if (o.fold) {
        table_fold_emul(&a, &a);
        table_fold_emul(&b, &b);
    }
    outfile of;
    if ((e = outfile_open(&of, o.out)) != SIM_OK)
        return cli_report(e);
    const char *na = base(argv[optind]), *nb = base(argv[optind + 1]);
    if (o.to == TFMT_CSV || o.to == TFMT_JSON) {
        static tcmp c;
        tcmp_make(&c, &a, &b, false, 1.0);
        e = tcmp_write(of.f, &c, na, nb, o.to);
    } else
        e = table_diff(of.f, &a, na, &b, nb, o.proportions);
    e = outfile_finish(&of, e);
    return e == SIM_OK ? 0 : cli_report(e);
}

int cli_table(int argc, char **argv)
{
    static const cli_sub subs[] = {
        {"show", cmd_show},
        {"convert", cmd_convert},
        {"diff", cmd_diff},
    };
    return cli_dispatch("table", "subcommand", argc, argv, subs,
                        sizeof subs / sizeof subs[0], help_top);
}
