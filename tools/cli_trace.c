/* cli_trace: `sim trace info|dump|pack|synth`, the trace.bin tools
 * (docs/trace-format.md). synth lives in cli_synth.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_progress.h"
#include "ftexport.h"
#include "outfile.h"
#include "trace.h"
#include "tracetext.h"

typedef unsigned long long ull;

static void usage(FILE *f)
{
    fputs(
        "usage: sim trace <subcommand> [options]\n"
        "\n"
        "Inspect and convert trace.bin files (format: docs/trace-format.md).\n"
        "\n"
        "subcommands:\n"
        "  info FILE [--verify]        header, counts, duration and exits by "
        "type, from the footer\n"
        "  dump FILE [-o OUT]          every record as a line of text "
        "(stdout by default)\n"
        "  pack TEXT -o FILE           text as dump prints it back into a "
        "trace (TEXT - is stdin)\n"
        "  synth --exits N [--seed S] [--profile TABLE] -o FILE   synthetic "
        "trace with measured ticks\n"
        "  synth --like TABLE [--mix PROFILE] -o FILE   a table's counts with a "
        "cpu440 profile's details\n"
        "  profile TRACE --name N -o FILE   the exit profile of a cpu440 "
        "recording\n"
        "\n"
        "`sim trace <subcommand> --help` for details. Exit codes: 0 success, "
        "2 bad usage or bad input.\n",
        f);
}

static void usage_info(FILE *f)
{
    fputs("usage: sim trace info FILE [--verify]\n"
          "\n"
          "Prints the header (source, workload, tool version, cost label, "
          "tb_hz, core_hz),\n"
          "the record, exit and chunk counts, the first and last timebase, "
          "the duration\n"
          "(tb span / tb_hz) and the exits by type (nonzero types only, count "
          "and percent).\n"
          "It reads only the header and the footer, so it is instant on any "
          "size.\n"
          "\n"
          "  --verify   also read every chunk, check its CRC and records and "
          "the footer\n"
          "             totals; prints `verify: OK ...` or fails with exit "
          "code 2\n",
          f);
}

static void usage_dump(FILE *f)
{
    fputs("usage: sim trace dump FILE [-o OUT] [--ftrace [--ns]]\n"
          "\n"
          "Prints the trace as text: a `header` line, then one line per "
          "record\n"
          "(exit, gtlb, stlb, stlb_inval, marker). `sim trace pack` turns it "
          "back into\n"
          "the same bytes. Every chunk is CRC-checked on the way.\n"
          "\n"
          "  -o, --output OUT   write to OUT (under a temporary name, renamed "
          "when\n"
          "                     complete) instead of stdout\n"
          "  --ftrace           print the ftrace text of the kvm tracepoints "
          "instead\n"
          "                     (kvm_exit, kvm_ppc_instr, kvm_gtlb_write, "
          "kvm_stlb_write,\n"
          "                     kvm_stlb_inval, kvm_userspace_exit), as `sim "
          "import ftrace`\n"
          "                     reads it (docs/ftrace-import.md)\n"
          "  --ns               with --ftrace: timestamps with 9 decimals "
          "(default 6)\n",
          f);
}

static void usage_pack(FILE *f)
{
    fputs("usage: sim trace pack TEXT -o FILE\n"
          "\n"
          "Reads the text form (as `sim trace dump` prints it; TEXT - reads "
          "stdin) and\n"
          "writes the trace FILE. Blank lines and lines starting with # are "
          "ignored.\n"
          "Errors name TEXT:line:column and what was expected; on error "
          "nothing is\n"
          "written under FILE.\n"
          "\n"
          "  -o, --output FILE  the trace to write (required)\n",
          f);
}

/* Options of info/dump/pack: one positional, -o, --verify. */
typedef struct args {
    const char *file;
    const char *out;
    int verify;
    int help;
    int ftrace, ns;
} args;

static int parse_args(const char *cmd, int argc, char **argv, int allow_out,
                      int allow_verify, args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            a->help = 1;
            return 0;
        } else if (allow_out && (!strcmp(s, "-o") || !strcmp(s, "--output"))) {
            if (i + 1 >= argc)
                return cli_usage_error(cmd, "%s needs a file name", s);
            if (cli_once(cmd, "-o", &a->out, argv[++i]))
                return 2;
        } else if (allow_out && !strncmp(s, "--output=", 9)) {
            if (cli_once(cmd, "-o", &a->out, s + 9))
                return 2;
        } else if (allow_verify && !strcmp(s, "--verify")) {
            a->verify = 1;
        } else if (allow_out == 2 && !strcmp(s, "--ftrace")) {
            a->ftrace = 1;
        } else if (allow_out == 2 && !strcmp(s, "--ns")) {
            a->ns = 1;
        } else if (s[0] == '-' && s[1] != '\0') {
            return cli_usage_error(cmd, "unknown option '%s'", s);
        } else if (a->file) {
            return cli_usage_error(cmd, "one file only ('%s' and '%s' given)",
                                   a->file, s);
        } else {
            a->file = s;
        }
    }
    if (!a->file)
        return cli_usage_error(cmd, "no input file given");
    return 0;
}

static void print_str(const char *label, const char *s)
{
    printf("%-13s \"%s\"\n", label, s);
}

static void print_info(const trace_header *h, const trace_footer *f)
{
    const char *src = trace_source_name(h->source);
    printf("%-13s sim440 trace v%u\n", "format:", (unsigned)h->version);
    printf("%-13s %s\n", "source:", src ? src : "unknown");
    print_str("workload:", h->workload);
    print_str("tool version:", h->tool_version);
    print_str("cost label:", h->cost_label);
    printf("%-13s %llu\n", "tb_hz:", (ull)h->tb_hz);
    printf("%-13s %llu\n", "core_hz:", (ull)h->core_hz);
    printf("%-13s %llu (", "records:", (ull)f->n_records);
    for (unsigned k = 1; k <= TREC__MAX; k++)
        printf("%s%s %llu", k > 1 ? ", " : "", tracetext_kind_name(k),
               (ull)f->kind_counts[k]);
    printf(")\n");
    printf("%-13s %llu\n", "exits:", (ull)f->n_exits);
    printf("%-13s %llu\n", "chunks:", (ull)f->n_chunks);
    /* no records, no timestamps: "first tb: 0" and "duration: 0 ticks"
     * were values of nothing */
    if (f->n_records == 0) {
        printf("%-13s - (no records)\n%-13s -\n%-13s -\n", "first tb:",
               "last tb:", "duration:");
    } else {
        printf("%-13s %llu\n", "first tb:", (ull)f->first_tb);
        printf("%-13s %llu\n", "last tb:", (ull)f->last_tb);
        if (f->last_tb >= f->first_tb)
            printf("%-13s %llu ticks = %.6f s\n", "duration:",
                   (ull)(f->last_tb - f->first_tb),
                   (double)(f->last_tb - f->first_tb) / (double)h->tb_hz);
        else
            printf("%-13s n/a (the last tb is before the first)\n",
                   "duration:");
    }
    if (f->n_exits == 0) {
        printf("exits by type: none\n");
        return;
    }
    printf("exits by type:\n");
    for (int t = 0; t < EXIT__COUNT; t++)
        if (f->type_counts[t])
            printf("  %-12s %12llu %7.2f%%\n", exit_name((exit_type)t),
                   (ull)f->type_counts[t],
                   100.0 * (double)f->type_counts[t] / (double)f->n_exits);
}


static int cmd_info(int argc, char **argv)
{
    args a;
    int rc = parse_args("trace info", argc, argv, 0, 1, &a);
    if (rc || a.help) {
        if (a.help)
            usage_info(stdout);
        return rc;
    }
    trace_header h;
    trace_footer f;
    sim_err e = trace_read_footer(a.file, &h, &f);
    if (e)
        return cli_report(e);
    print_info(&h, &f);
    if (a.verify) {
        uint64_t n;
        fflush(stdout);
        if ((e = trace_verify(a.file, &n)))
            return cli_report(e);
        printf("%-13s OK (%llu records, every chunk CRC-checked)\n",
               "verify:", (ull)n);
    }
    return 0; /* a failed write to stdout: main says so */
}

static int cmd_dump(int argc, char **argv)
{
    args a;
    int rc = parse_args("trace dump", argc, argv, 2, 0, &a);
    if (rc || a.help) {
        if (a.help)
            usage_dump(stdout);
        return rc;
    }
    if ((rc = cli_check_output_of(a.out, a.file)))
        return rc;
    outfile o;
    sim_err e = outfile_open(&o, a.out ? a.out : "-");
    if (e)
        return cli_report(e);
    if (a.ns && !a.ftrace) {
        outfile_abort(&o);
        return cli_usage_error("trace dump", "--ns goes with --ftrace");
    }
    /* a progress line on a terminal: 10M records take seconds */
    cli_progress prog;
    cli_progress_init(&prog, "dump", "records");
    if (a.ftrace) {
        ftexport_opts fo;
        ftexport_defaults(&fo);
        fo.ns = a.ns != 0;
        fo.progress = cli_progress_update;
        fo.progress_ctx = &prog;
        ftexport_stats st;
        e = ftexport_trace(a.file, o.f, &fo, &st);
        cli_progress_done(&prog);
        if (!e && (st.substituted || st.unrepresentable || st.markers))
            fprintf(stderr,
                    "sim trace dump --ftrace: %llu exits; %llu instruction "
                    "words replaced by one of the exit's type, %llu exits "
                    "the tracepoints cannot express, %llu markers left out\n",
                    (ull)st.exits, (ull)st.substituted, (ull)st.unrepresentable,
                    (ull)st.markers);
    } else {
        e = tracetext_dump(a.file, o.f, cli_progress_update, &prog);
        cli_progress_done(&prog);
    }
    if (!e && o.f == stdout && ferror(stdout))
        e = sim_fail(SIM_ERR_IO, "stdout: write failed");
    if ((e = outfile_finish(&o, e)))
        return cli_report(e);
    return 0;
}

static int cmd_pack(int argc, char **argv)
{
    args a;
    int rc = parse_args("trace pack", argc, argv, 1, 0, &a);
    if (rc || a.help) {
        if (a.help)
            usage_pack(stdout);
        return rc;
    }
    if (!a.out)
        return cli_usage_error("trace pack", "-o FILE is required");
    if ((rc = cli_check_output_of(a.out, a.file)))
        return rc;
    int is_stdin = !strcmp(a.file, "-");
    FILE *in = is_stdin ? stdin : fopen(a.file, "r");
    if (!in)
        return cli_report(sim_fail(SIM_ERR_IO, "%s: cannot open: %s", a.file,
                                   strerror(errno)));
    cli_progress prog;
    cli_progress_init(&prog, "pack", "lines");
    sim_err e = tracetext_pack(is_stdin ? "<stdin>" : a.file, in, a.out,
                               cli_progress_update, &prog);
    cli_progress_done(&prog);
    if (!is_stdin)
        fclose(in);
    return e ? cli_report(e) : 0;
}

int cli_trace(int argc, char **argv)
{
    static const cli_sub subs[] = {
        {"info", cmd_info},
        {"dump", cmd_dump},
        {"pack", cmd_pack},
        {"synth", cli_trace_synth},
        {"profile", cli_trace_profile},
    };
    return cli_dispatch("trace", "subcommand", argc, argv, subs,
                        sizeof subs / sizeof subs[0], usage);
}
