/* cli_import: `sim import ftrace FILE -o TRACE`, kvm tracepoint text (ftrace
 * / trace-cmd report) into a trace.bin (model/ftimport; docs/ftrace-import.md).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_progress.h"
#include "ftimport.h"
#include "outfile.h"

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: sim import ftrace FILE -o TRACE [options]\n"
        "\n"
        "Converts the text of `cat /sys/kernel/tracing/trace`, `trace_pipe` "
        "or\n"
        "`trace-cmd report` with the kvm tracepoints kvm_exit, kvm_ppc_instr,\n"
        "kvm_gtlb_write, kvm_stlb_write, kvm_stlb_inval and "
        "kvm_userspace_exit\n"
        "into a trace (FILE - reads stdin). Exits are classified with the\n"
        "kernel's exit-timing rules; what the text cannot decide is assumed,\n"
        "counted and reported (docs/ftrace-import.md). Records carry the\n"
        "timestamp as tb and no handler/guest ticks: `sim replay` predicts "
        "them.\n"
        "With several vCPU threads the one with most exits is written, unless\n"
        "--vcpu names one. The report goes to stderr.\n"
        "\n"
        "  -o, --output TRACE  the trace to write (required)\n"
        "  --tb-hz HZ          timebase of the records and core clock, 1 MHz\n"
        "                      to 4 GHz (default %u)\n"
        "  --vcpu PID          write the thread with this task pid\n"
        "  --pv                a PV guest: sc in supervisor mode is HCALL, a "
        "DTLB\n"
        "                      miss on the magic page 0xfffff000 is DTLBPV\n"
        "  --wait-us N         mtmsr/rfi followed by more than N us before the "
        "next\n"
        "                      (supervisor-mode) exit is EMUL_WAIT; 0: never\n"
        "                      (default %u)\n"
        "  --guest-ram BYTES   guest RAM size: a guest TLB hit above it is "
        "MMIO\n"
        "                      (default 256M; K/M/G are KiB/MiB/GiB; only used\n"
        "                      when no event decides)\n"
        "  --workload NAME     workload name in the trace header (default: "
        "the\n"
        "                      input's base name)\n"
        "  --report FILE       write the report to FILE (- for stdout)\n"
        "\n"
        "Exit codes: 0 success (malformed lines are reported, not fatal), 2 "
        "bad\n"
        "usage, unreadable input, or no kvm_exit event to import.\n",
        FTIMPORT_TB_HZ_DEFAULT, FTIMPORT_WAIT_US_DEFAULT);
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static int cmd_ftrace(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'},
        {"tb-hz", required_argument, 0, 'T'},
        {"vcpu", required_argument, 0, 'V'},
        {"pv", no_argument, 0, 'P'},
        {"wait-us", required_argument, 0, 'W'},
        {"guest-ram", required_argument, 0, 'R'},
        {"workload", required_argument, 0, 'w'},
        {"report", required_argument, 0, 'r'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    ftimport_opts o;
    ftimport_defaults(&o);
    const char *out = NULL, *report = NULL;
    unsigned long long v;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            if (cli_once("import ftrace", "-o", &out, optarg))
                return 2;
            break;
        case 'T':
            if (cli_parse_tb_hz("import ftrace", optarg, &v))
                return 2;
            o.tb_hz = v;
            break;
        case 'V':
            if (cli_parse_u64(optarg, &v) || v > 0xffffffffull)
                return cli_usage_error("import ftrace",
                                       "--vcpu '%s': expected a pid", optarg);
            o.vcpu_set = true;
            o.vcpu = (uint32_t)v;
            break;
        case 'P': o.pv = true; break;
        case 'W':
            if (cli_parse_u64(optarg, &v) || v > 1000000000ull)
                return cli_usage_error("import ftrace",
                                       "--wait-us '%s': expected 0 .. 1G",
                                       optarg);
            o.wait_us = (uint32_t)v;
            break;
        case 'R':
            /* binary: the default 256M is 256 MiB, and "256M" read as
             * 256,000,000 took the last 12 MiB of RAM for MMIO */
            if (cli_parse_bytes(optarg, &v) || v == 0 || v > (1ull << 36))
                return cli_usage_error("import ftrace",
                                       "--guest-ram '%s': expected 1 .. 64G",
                                       optarg);
            o.guest_ram = v;
            break;
        case 'w':
            /* the trace header's workload: printable ASCII, 31 at most */
            if (cli_check_text("import ftrace", "--workload", optarg, 31,
                               true))
                return 2;
            o.workload = optarg;
            break;
        case 'r':
            if (cli_once("import ftrace", "--report", &report, optarg))
                return 2;
            break;
        case 'h': usage(stdout); return 0;
        default:
            return cli_bad_option("import ftrace", "o:h", opts, argv);
        }
    }
    if (optind >= argc)
        return cli_usage_error("import ftrace", "no input file given");
    if (optind + 1 < argc)
        return cli_usage_error("import ftrace",
                               "one file only ('%s' and '%s' given)",
                               argv[optind], argv[optind + 1]);
    if (!out)
        return cli_usage_error("import ftrace", "-o TRACE is required");
    /* refused before the input is read (the trace writer refused it at
     * the first record, after a report of the lines read so far) */
    if (!strcmp(out, "-"))
        return cli_usage_error("import ftrace", "-o -: a binary trace cannot "
                               "be written to stdout: give a file name");
    /* every output checked before the work: an error means no output */
    if ((c = cli_check_output_of(out, argv[optind])) ||
        (c = cli_check_output_of(report, argv[optind])) ||
        (c = cli_check_distinct(out, report)))
        return c;
    const char *in = argv[optind];
    o.name = strcmp(in, "-") ? base_name(in) : "<stdin>";
    o.path = strcmp(in, "-") ? in : "<stdin>";
    ftimport_report rep;
    memset(&rep, 0, sizeof rep);
    cli_progress prog;
    cli_progress_init(&prog, "import", "lines");
    o.progress = cli_progress_update;
    o.progress_ctx = &prog;
    sim_err e = ftimport_file(in, &o, out, &rep);
    cli_progress_done(&prog);
    if (e) {
        /* no trace was written: no report file either; stderr keeps it */
        if (rep.lines)
            ftimport_print_report(stderr, &rep, base_name(out));
        return cli_report(e);
    }
    outfile rf;
    sim_err re = SIM_OK;
    FILE *rs = stderr;
    if (report) {
        if ((re = outfile_open(&rf, report)))
            return cli_report(re);
        rs = rf.f;
    }
    ftimport_print_report(rs, &rep, base_name(out));
    if (report && (re = outfile_commit(&rf)))
        return cli_report(re);
    return 0;
}

int cli_import(int argc, char **argv)
{
    static const cli_sub subs[] = {{"ftrace", cmd_ftrace}};
    return cli_dispatch("import", "format", argc, argv, subs,
                        sizeof subs / sizeof subs[0], usage);
}
