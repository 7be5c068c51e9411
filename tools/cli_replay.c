/* cli_replay: `sim replay TRACE` - the trace through the accounting (and,
 * when it lacks ticks, a cost model), printed as an exit-timing table with
 * the accounting invariants checked. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_progress.h"
#include "outfile.h"
#include "replay.h"
#include "stats.h"
#include "table.h"

static void help(FILE *f)
{
    fprintf(f,
        "usage: sim replay TRACE [options]\n"
        "\n"
        "Replays TRACE (a trace.bin) through the kernel's exit-timing accounting\n"
        "(CONFIG_KVM_EXIT_TIMING: an exit is charged from exit to the next guest\n"
        "entry, TIMEINGUEST from entry to the next exit, the first incomplete cycle\n"
        "skipped) and prints the table, then the accounting invariants.\n"
        "The trace must carry measured handler/guest ticks (e.g. from `sim trace\n"
        "synth`); traces without them need the cycle model, not built yet.\n"
        "\n"
        "options:\n"
        "  --format FMT   kvm (default, the seed's layout), debugfs, perf, csv, json\n"
        "  --unit U       usec (default): every sample truncated to whole usec before\n"
        "                 accumulating, as kernels 2.6.29-2.6.37 did;\n"
        "                 ticks: timebase ticks accumulated and divided when printed,\n"
        "                 as 3.1+ did (debugfs then prints sum_squared in tick*usec)\n"
        "  --fold-emul    one EMULINST row for all emulated instructions (the seed's\n"
        "                 layout), with the EMUL_* breakdown beneath it (kvm, json)\n"
        "  --title TEXT   first line of a kvm table (default: the trace's workload)\n"
        "  -o FILE        write the table to FILE (temporary name, then renamed)\n"
        "\n"
        "The invariant checks go to stdout after a kvm/perf table, else to stderr.\n"
        "exit codes: 0 ok, 1 an accounting invariant failed, 2 bad usage or input.\n");
}

int cli_replay(int argc, char **argv)
{
    static const struct option opts[] = {
        {"format", required_argument, 0, 'f'},
        {"unit", required_argument, 0, 'u'},
        {"fold-emul", no_argument, 0, 'F'},
        {"title", required_argument, 0, 't'},
        {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    table_fmt fmt = TFMT_KVM;
    stats_unit unit = STATS_USEC;
    bool fold = false;
    const char *title = NULL, *out = "-";
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f': {
            int f = table_fmt_from_name(optarg);
            if (f < 0)
                return cli_usage_error("replay", "unknown format '%s' (kvm, "
                                       "debugfs, perf, csv, json)", optarg);
            fmt = (table_fmt)f;
            break;
        }
        case 'u':
            if (!strcmp(optarg, "usec"))
                unit = STATS_USEC;
            else if (!strcmp(optarg, "ticks"))
                unit = STATS_TICKS;
            else
                return cli_usage_error("replay", "unknown unit '%s' (usec, "
                                       "ticks)", optarg);
            break;
        case 'F': fold = true; break;
        case 't': title = optarg; break;
        case 'o': out = optarg; break;
        case 'h': help(stdout); return 0;
        default:
            return cli_usage_error("replay", "unknown option '%s'",
                                   argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("replay", optind >= argc
                               ? "missing TRACE" : "one TRACE expected");
    const char *path = argv[optind];

    cli_progress prog;
    cli_progress_init(&prog, "replay", "records");
    replay_opts ro = {.unit = unit, .ticks = REPLAY_MEASURED,
                      .progress = cli_progress_update, .progress_ctx = &prog};
    static stats s;
    replay_result res;
    sim_err e = replay_file(path, &ro, &s, &res);
    cli_progress_done(&prog);
    if (e != SIM_OK)
        return cli_report(e);

    table t;
    stats_to_table(&s, &t);
    snprintf(t.title, sizeof t.title, "%s",
             title ? title : res.header.workload);

    outfile of;
    e = outfile_open(&of, out);
    if (e != SIM_OK)
        return cli_report(e);
    bool human = fmt == TFMT_KVM || fmt == TFMT_PERF;
    if (fmt == TFMT_KVM)
        fprintf(of.f,
                "# sim replay of %s: %llu records, %llu exits; source %s, "
                "ticks %s\n"
                "# timebase %llu Hz; unit convention %s\n",
                path, (unsigned long long)res.records,
                (unsigned long long)res.exits,
                trace_source_name(res.header.source)
                    ? trace_source_name(res.header.source) : "unknown",
                res.header.cost_label[0] ? res.header.cost_label : "measured",
                (unsigned long long)res.header.tb_hz,
                unit == STATS_USEC ? "2.6.29-2.6.37 (per-sample usec)"
                                   : "3.1+ (ticks, divided at print)");
    table_write_opts wo = {.fold_emul = fold,
                           .tb_per_usec = unit == STATS_TICKS
                                              ? (double)s.tb_per_usec : 0};
    e = table_write(of.f, &t, fmt, &wo);
    if (e != SIM_OK) {
        outfile_abort(&of);
        return cli_report(e);
    }
    e = outfile_commit(&of);
    if (e != SIM_OK)
        return cli_report(e);

    FILE *rep = (human || strcmp(out, "-") != 0) ? stdout : stderr;
    if (rep == stdout && !strcmp(out, "-"))
        fputc('\n', rep);
    sim_err ce = stats_check(&s, rep);
    bool tb_ok = res.tb_mismatches == 0;
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
