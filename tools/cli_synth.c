/* cli_synth: `sim trace synth` - a synthetic trace following a profile. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_progress.h"
#include "synth.h"
#include "table.h"

static void help(FILE *f)
{
    fprintf(f,
        "usage: sim trace synth --exits N [--seed S] [--profile TABLE] -o FILE\n"
        "\n"
        "Writes a synthetic trace of N exits with measured handler and guest ticks.\n"
        "Exit types are drawn in the proportions of the profile's counts; each\n"
        "type's handler time and the guest time between exits follow a shifted\n"
        "lognormal with the profile row's min, avg and stddev, capped at its max.\n"
        "For tests, benchmarks and demos: it says nothing about real hardware.\n"
        "\n"
        "options:\n"
        "  --exits N        number of exits (k/M/G suffixes: 10M)\n"
        "  --seed S         random seed (default 1); same seed, same bytes\n"
        "  --profile TABLE  an exit-timing table in any format `sim table` reads\n"
        "                   (default: the seed's no-PV table, built in)\n"
        "  --tb-hz HZ       timebase frequency (default 667000000; on 440EP/EPx the\n"
        "                   timebase runs at the core clock)\n"
        "  -o FILE          output trace (temporary name, renamed when complete)\n");
}

int cli_trace_synth(int argc, char **argv)
{
    static const struct option opts[] = {
        {"exits", required_argument, 0, 'n'},
        {"seed", required_argument, 0, 's'},
        {"profile", required_argument, 0, 'p'},
        {"tb-hz", required_argument, 0, 't'},
        {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    unsigned long long exits = 0, seed = 1, tb_hz = 667000000ULL;
    const char *profile = NULL, *out = NULL;
    bool have_exits = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (cli_parse_u64(optarg, &exits) || exits == 0 ||
                exits > (1ULL << 40))
                return cli_usage_error("trace synth", "--exits: expected a "
                                       "count from 1 to 2^40, got '%s'",
                                       optarg);
            have_exits = true;
            break;
        case 's':
            if (cli_parse_u64(optarg, &seed))
                return cli_usage_error("trace synth", "--seed: expected an "
                                       "unsigned number, got '%s'", optarg);
            break;
        case 'p': profile = optarg; break;
        case 't':
            if (cli_parse_u64(optarg, &tb_hz) || tb_hz < 1000000ULL ||
                tb_hz > 100000000000ULL)
                return cli_usage_error("trace synth", "--tb-hz: expected 1 MHz "
                                       "to 100 GHz in Hz, got '%s'", optarg);
            break;
        case 'o': out = optarg; break;
        case 'h': help(stdout); return 0;
        default:
            return cli_usage_error("trace synth", "unknown option '%s'",
                                   argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_usage_error("trace synth", "unexpected argument '%s'",
                               argv[optind]);
    if (!have_exits)
        return cli_usage_error("trace synth", "--exits N is required");
    if (!out)
        return cli_usage_error("trace synth", "-o FILE is required");
    if ((c = cli_check_output(out)))
        return c;

    synth_profile p;
    sim_err e;
    if (profile) {
        static table t;
        e = table_read_file(&t, profile, TFMT_AUTO);
        if (e != SIM_OK)
            return cli_report(e);
        const char *base = strrchr(profile, '/');
        e = synth_profile_from_table(&p, &t, base ? base + 1 : profile);
    } else {
        e = synth_profile_default(&p);
    }
    if (e != SIM_OK)
        return cli_report(e);

    cli_progress prog;
    cli_progress_init(&prog, "synth", "exits");
    synth_opts so = {.exits = exits, .seed = seed, .tb_hz = tb_hz,
                     .progress = cli_progress_update, .progress_ctx = &prog};
    e = synth_write(out, &p, &so);
    cli_progress_done(&prog);
    if (e != SIM_OK)
        return cli_report(e);
    fprintf(stderr, "synth: wrote %llu exits to %s (profile %s, seed %llu)\n",
            exits, out, p.name, seed);
    return 0;
}
