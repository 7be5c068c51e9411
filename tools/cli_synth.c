/* cli_synth: `sim trace synth` - a synthetic trace following a profile. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "cli.h"
#include "cli_progress.h"
#include "exitprof.h"
#include "outfile.h"
#include "params.h"
#include "synth.h"
#include "table.h"

/* The cycle model's default guest tick rate (model/params.h). */
static double default_guest_hz(void)
{
    static params p;
    params_init(&p);
    return P(&p, guest_hz);
}

static void help(FILE *f)
{
    fprintf(f,
        "usage: sim trace synth --exits N [--seed S] [--profile TABLE] -o FILE\n"
        "       sim trace synth --like TABLE [--mix PROFILE] [--exits N] [--seed S]\n"
        "                       [--accounting A] [--tb-per-usec N] [--guest-hz HZ]\n"
        "                       -o FILE\n"
        "       sim trace synth --mix list\n"
        "\n"
        "Writes a synthetic trace of N exits with measured handler and guest ticks.\n"
        "Exit types are drawn in the proportions of the profile's counts; each\n"
        "type's handler time and the guest time between exits follow a shifted\n"
        "lognormal with the profile row's min, avg and stddev, capped at its max.\n"
        "For tests, benchmarks and demos: it says nothing about real hardware.\n"
        "\n"
        "options:\n"
        "  --exits N        number of exits (k/M/G suffixes: 10M)\n"
        "  --seed S         random seed, 1 to 4294967295 (default 1); same seed,\n"
        "                   same bytes\n"
        "  --profile TABLE  an exit-timing table in any format `sim table` reads\n"
        "                   (default: the seed's no-PV table, built in)\n"
        "  --tb-hz HZ       timebase frequency, 1 MHz to 4 GHz (default 667000000;\n"
        "                   on 440EP/EPx the timebase runs at the core clock,\n"
        "                   and the trace's core clock is this one)\n"
        "  --tb-per-usec N  the table (--profile, --like) is debugfs in the 3.1+\n"
        "                   form: timebase ticks per usec, as sim table show\n"
        "  --accounting A   2.6.29 (default) or 3.1: the --like table's kernel;\n"
        "                   a 3.1+ table (also one read with --tb-per-usec)\n"
        "                   counts every mfspr/mtspr in EMUL_MFSPR/EMUL_MTSPR,\n"
        "                   SRR0/1 and SPRG0-3 included (3.0+'s rows)\n"
        "  -o FILE          output trace (temporary name, renamed when complete)\n"
        "\n"
        "--like TABLE: a trace for a table nobody traced. Its exit counts follow\n"
        "TABLE's rows exactly (scaled to --exits N, default the table's own number;\n"
        "a table of more than 100M exits needs --exits: its trace would fill a disk),\n"
        "in a random order; the per-exit details - instruction words, user/kernel\n"
        "mode, pages of misses and faults, guest TLB writes, guest run lengths in\n"
        "instructions - come from exit profile --mix PROFILE (a built-in name or a\n"
        "file; default boot), measured on cpu440, not from the table (but for the\n"
        "run lengths' size, below). A table\n"
        "without EMUL_* rows counts every emulated instruction as EMULINST (the\n"
        "taxonomy before 3.0). After each guest TLB miss (ITLBREAL, DTLBREAL) the\n"
        "profile's refill handler runs: its emulated exits follow the miss.\n"
        "The guest runs are the profile's when a guest CPI from %g to %g makes\n"
        "them book TABLE's TIMEINGUEST avg; else they are stretched (or\n"
        "shortened), and their spread set, to book its avg and stddev at the\n"
        "model's defaults (said on stderr; docs/calibration.md).\n"
        "The trace carries no ticks: replay and calibrate price it with the\n"
        "cycle model (docs/calibration.md).\n"
        "  --mix list       the built-in profiles and what each assumes\n"
        "  --guest-hz HZ    the table's guest's tick rate (its kernel's HZ;\n"
        "                   default the cycle model's guest_hz, %g): an idle\n"
        "                   wait lasts to the next tick, so TABLE's EMULINST\n"
        "                   stddev and sum bound how many of the profile's\n"
        "                   waits it can hold; the waits are a count, the\n"
        "                   profile's share or that bound (said on stderr),\n"
        "                   placed at random (docs/calibration.md)\n",
        SYNTH_CPI_LO, SYNTH_CPI_HI, default_guest_hz());
}

static int list_mixes(void)
{
    printf("# exit profiles for `sim trace synth --like TABLE --mix NAME` "
           "(default %s)\n", exitprof_default_name());
    static exitprof p;
    for (int i = 0; i < exitprof_builtin_count(); i++) {
        sim_err e = exitprof_load(&p, exitprof_builtin_name(i));
        if (e != SIM_OK)
            return cli_report(e);
        printf("%-10s %s\n%-10s   from: %s\n", p.name, p.assumes, "",
               p.source);
    }
    return 0;
}

/* What synthesis made of the guest run lengths (docs/calibration.md,
 * "Guest run lengths"). */
static void like_runs_line(const synth_like_report *r)
{
    if (r->runs == SYNTH_RUNS_NO_ROW) {
        fprintf(stderr, "synth: guest runs: the profile's (the table has no "
                "TIMEINGUEST avg to size them by)\n");
        return;
    }
    fprintf(stderr, "synth: guest runs: the table books %g usec an interval "
            "(stddev %g), the profile's runs %.3g (stddev %.3g) at the "
            "model's defaults (guest_cpi %g; %.3g at %g, %.3g at %g)",
            r->runs_table, r->runs_table_sd, r->runs_profile,
            r->runs_profile_sd, r->runs_cpi, r->runs_lo, r->runs_cpi_lo,
            r->runs_hi, r->runs_cpi_hi);
    if (r->runs == SYNTH_RUNS_KEPT)
        fprintf(stderr, ": the profile's runs\n");
    else if (r->runs == SYNTH_RUNS_SCALED)
        fprintf(stderr, ": runs x %.4g, spread ^ %.3g, booking %.4g (stddev "
                "%.4g) (docs/calibration.md)\n", r->run_scale, r->run_power,
                r->runs_booked, r->runs_booked_sd);
    else
        fprintf(stderr, ": the entry alone books %.3g, more than the table: "
                "the profile's runs (docs/calibration.md)\n",
                r->runs_booked);
}

/* A trace takes 32 bytes an exit at the least (one record each,
 * docs/trace-format.md; the guest TLB writes and chunk headers come on
 * top): one that cannot fit the disk its file is written to is refused
 * before it fills it, not after minutes of writing (statvfs of the
 * output's directory; standard output, a device, or a directory the
 * system cannot tell about are let through). */
/* A size in the unit that shows it: "320 bytes", not "0.0 GB". */
static const char *size_text(char *buf, size_t n, double b)
{
    if (b >= 1e9)
        snprintf(buf, n, "%.1f GB", b / 1e9);
    else if (b >= 1e6)
        snprintf(buf, n, "%.1f MB", b / 1e6);
    else if (b >= 1e3)
        snprintf(buf, n, "%.1f kB", b / 1e3);
    else
        snprintf(buf, n, "%.0f bytes", b);
    return buf;
}

static int room_for(const char *out, unsigned long long exits)
{
    if (!strcmp(out, "-") || !strncmp(out, "/dev/", 5))
        return 0;
    char dir[4096];
    const char *sl = strrchr(out, '/');
    if (!sl)
        snprintf(dir, sizeof dir, ".");
    else if (sl == out)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(sl - out), out);
    struct statvfs v;
    if (statvfs(dir, &v) != 0)
        return 0;
    double avail = (double)v.f_bavail * (double)v.f_frsize;
    double need = 32.0 * (double)exits;
    if (need <= avail)
        return 0;
    /* in the unit that shows them: 10 exits said "0.0 GB, and /proc has
     * 0.0 GB free" */
    char nb[32], ab[32];
    return cli_report(sim_fail(SIM_ERR_RANGE, "%s: %llu exits take at least "
                               "%s (32 bytes an exit), and %s has %s free; "
                               "give fewer --exits (the counts keep the "
                               "table's proportions)",
                               out, exits, size_text(nb, sizeof nb, need), dir,
                               size_text(ab, sizeof ab, avail)));
}

static int synth_like(const char *like, const char *mix,
                      unsigned long long exits, unsigned long long seed,
                      unsigned long long tb_hz, const char *out,
                      const char *profile, double tb_per_usec, bool acc_given,
                      stats_unit unit, double guest_hz, bool tb_default,
                      bool ghz_default)
{
    if (profile)
        return cli_usage_error("trace synth", "--profile and --like exclude "
                               "each other (--mix names the exit profile)");
    if (!out)
        return cli_usage_error("trace synth", "-o FILE is required");
    int c;
    /* the table and a profile file are inputs: -o must not replace them */
    if ((c = cli_check_output_of(out, like)) ||
        (c = cli_check_output_of(out, mix)))
        return c;
    static table t;
    sim_err e = table_read_file_tb(&t, like, TFMT_AUTO, tb_per_usec);
    if (e == SIM_OK && table_exits(&t) == 0)
        e = sim_fail(SIM_ERR_FORMAT, "%s: no exit row with a count (synth "
                     "--like writes the rows' counts)", like);
    if (e == SIM_OK && !exits && table_exits(&t) > SYNTH_LIKE_MAX_DEFAULT_EXITS)
        e = sim_fail(SIM_ERR_RANGE, "%s: %llu exits: a trace of all of them "
                     "would take over %.0f GB; give --exits N (e.g. 10M: the "
                     "counts keep the table's proportions)", like,
                     (unsigned long long)table_exits(&t),
                     32e-9 * (double)table_exits(&t));
    if (e != SIM_OK)
        return cli_report(e);
    if ((c = room_for(out, exits ? exits : table_exits(&t))))
        return c;
    /* a json table that states its accounting: its kernel's rows */
    if ((c = cli_table_accounting("trace synth", &t, like,
                                  acc_given || tb_per_usec > 0, &unit)))
        return c;
    bool rows_3x = unit != STATS_USEC;
    static exitprof p;
    e = exitprof_load(&p, mix ? mix : exitprof_default_name());
    if (e != SIM_OK)
        return cli_report(e);
    cli_progress prog;
    cli_progress_init(&prog, "synth", "exits");
    synth_opts so = {.exits = exits, .seed = seed, .tb_hz = tb_hz,
                     .spr_rows_3x = rows_3x || tb_per_usec > 0,
                     .guest_hz = guest_hz,
                     .ticks_summed = rows_3x || tb_per_usec > 0,
                     .progress = cli_progress_update, .progress_ctx = &prog};
    synth_like_report rep;
    e = synth_like_write(out, &t, &p, &so, &rep);
    cli_progress_done(&prog);
    if (e != SIM_OK)
        return cli_report(e);
    const char *base = strrchr(like, '/');
    fprintf(stderr, "synth: wrote %llu exits to %s: counts like %s, details "
            "from profile %s (seed %llu); %llu guest TLB writes%s\n",
            (unsigned long long)rep.exits, out, base ? base + 1 : like,
            p.name, seed, (unsigned long long)rep.gtlb_writes,
            rep.folded ? "; EMULINST holds every emulated instruction "
                         "(pre-3.0 taxonomy)" : "");
    if (rep.handlers)
        fprintf(stderr, "synth: %llu guest TLB misses run their refill "
                "handler: %llu emulated exits (docs/calibration.md)\n",
                (unsigned long long)rep.handlers,
                (unsigned long long)rep.handler_exits);
    if (rep.handler_limit >= 0) {
        /* the refill handlers' emulations are drawn from the table's
         * rows: a row short of them leaves misses without a handler, a
         * guest the profile does not have */
        exit_type lr = (exit_type)rep.handler_limit;
        bool spr = lr == EXIT_EMUL_MFSPR || lr == EXIT_EMUL_MTSPR;
        fprintf(stderr, "synth: note: the table's %s row (%.0f exits at this trace's size) is "
                "short of what the refill handlers of its guest TLB misses "
                "take from it (%.0f): %.0f%% of the misses run a handler, "
                "the others none (docs/calibration.md)%s\n",
                exit_name(lr), rep.hneed_have, rep.hneed,
                100 * rep.handler_share,
                spr && (rows_3x || tb_per_usec > 0)
                    ? "; read as a 3.0+ kernel's rows, where every mfspr/"
                      "mtspr is counted in it: a 2.6.29-2.6.37 table "
                      "(--accounting 2.6.29) has only a few SPRs there"
                    : "");
    }
    like_runs_line(&rep);
    for (int r = 0; r < EXIT__COUNT; r++) {
        if (!(rep.waits_share[r] > 0))
            continue;
        if (rep.waits_floor[r] > rep.waits_share[r]) {
            /* the row's time needs more waits than the share: the floor
             * set the count, or the bound cut it */
            const table_row *tr = &t.rows[r];
            char cut[160] = "";
            if (rep.waits_bound[r] < rep.waits_floor[r])
                snprintf(cut, sizeof cut, ", and holds at most %.1f (its "
                         "spread, its time, one a tick period)",
                         rep.waits_bound[r]);
            fprintf(stderr, "synth: the table's %s row (%llu exits, avg %g "
                    "usec) needs at least %.1f idle waits of a guest "
                    "ticking at %g Hz if its other emulations cost no more "
                    "than the table's VIRT misses (%g usec)%s; the profile's "
                    "share would give %.1f: %llu written "
                    "(docs/calibration.md)\n",
                    exit_name((exit_type)r), (unsigned long long)tr->count,
                    tr->avg, rep.waits_floor[r], guest_hz,
                    rep.waits_other[r], cut, rep.waits_share[r],
                    (unsigned long long)rep.waits[r]);
        } else if (rep.waits_bound[r] < rep.waits_share[r]) {
            const table_row *tr = &t.rows[r];
            fprintf(stderr, "synth: the table's %s row (%llu exits, avg %g, "
                    "stddev %g, max %g usec) holds at most %.1f idle waits "
                    "of a guest ticking at %g Hz (each lasts to its next "
                    "tick); the profile's share would give %.1f: %llu "
                    "written (docs/calibration.md)\n",
                    exit_name((exit_type)r), (unsigned long long)tr->count,
                    tr->avg, tr->stddev, tr->max, rep.waits_bound[r],
                    guest_hz, rep.waits_share[r],
                    (unsigned long long)rep.waits[r]);
        } else {
            fprintf(stderr, "synth: %s: %llu idle waits, the profile's "
                    "share (%.1f; the row could hold %.0f at %g Hz)\n",
                    exit_name((exit_type)r), (unsigned long long)rep.waits[r],
                    rep.waits_share[r], rep.waits_bound[r], guest_hz);
        }
    }
    /* an exit of a waits' row lasting many tick periods: the model's
     * waits end at the next tick (docs/calibration.md, "Idle waits") */
    for (int r = 0; r < EXIT__COUNT; r++) {
        const table_row *tr = &t.rows[r];
        double period = guest_hz > 0 ? 1e6 / guest_hz : 0;
        if (!(rep.waits_share[r] > 0) || !(period > 0) ||
            !(tr->max > 2 * period))
            continue;
        fprintf(stderr, "synth: note: the table's %s max, %.0f usec, is "
                "%.1f tick periods at %g Hz: a wait that long is a tickless "
                "guest's (NO_HZ) or a host stall; the model's waits end at "
                "the guest's next tick, so such exits can only be its host "
                "stalls and preemptions (docs/calibration.md, \"Idle "
                "waits\")\n",
                exit_name((exit_type)r), tr->max, tr->max / period, guest_hz);
    }
    for (int i = 0; i < rep.nwordless; i++)
        fprintf(stderr, "synth: note: the profile has no instruction word "
                "for the %s row: its exits are written without one\n",
                exit_name(rep.wordless[i]));
    for (int i = 0; i < rep.nbare; i++)
        fprintf(stderr, "synth: note: the profile has no %s exits: those "
                "rows carry no per-exit detail\n", exit_name(rep.bare[i]));
    /* what no table gives, the board's clock and its guest's tick: said
     * when they are the defaults, assumed */
    if (tb_default || ghz_default) {
        char a[64] = "", b[64] = "";
        if (tb_default)
            snprintf(a, sizeof a, "the core and timebase at %.0f MHz",
                     (double)tb_hz / 1e6);
        if (ghz_default)
            snprintf(b, sizeof b, "the guest ticking at %g Hz", guest_hz);
        fprintf(stderr, "synth: note: assumed, as the table does not say: "
                "%s%s%s (the model's default%s; for another board or guest "
                "kernel %s%s%s)\n",
                a, tb_default && ghz_default ? " and " : "", b,
                tb_default && ghz_default ? "s" : "",
                tb_default ? "--tb-hz, which the trace carries to calibrate "
                             "and whatif"
                           : "",
                tb_default && ghz_default ? "; " : "",
                ghz_default ? "--guest-hz, and guest_hz in the params of "
                              "calibrate and whatif"
                            : "");
    }
    cli_table_notes(stderr, "synth: note: ", &t);
    return 0;
}

/* `sim trace profile TRACE --name N -o FILE`: an exit profile from a plain
 * cpu440 recording (tools/make-profile.sh). */
int cli_trace_profile(int argc, char **argv)
{
    static const struct option opts[] = {
        {"name", required_argument, 0, 'n'},
        {"source", required_argument, 0, 's'},
        {"assumes", required_argument, 0, 'a'},
        {"wall", required_argument, 0, 'w'},
        {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *name = NULL, *source = "", *assumes = "", *out = NULL;
    const char *wall[XP_MAX_WALL];
    int nwall = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n': name = optarg; break;
        case 's': source = optarg; break;
        case 'a': assumes = optarg; break;
        case 'w':
            if (nwall == XP_MAX_WALL)
                return cli_usage_error("trace profile", "at most %d --wall "
                                       "recordings", XP_MAX_WALL);
            wall[nwall++] = optarg;
            break;
        case 'o':
            if (cli_once("trace profile", "-o", &out, optarg))
                return 2;
            break;
        case 'h':
            printf("usage: sim trace profile TRACE --name N [--source TEXT] "
                   "[--assumes TEXT]\n"
                   "                         [--wall REC --wall REC ...] "
                   "-o FILE\n\n"
                   "The exit profile of a plain `sim record` trace (cpu440, "
                   "flat costs): per exit\ntype its instruction words, "
                   "problem-state share and pages, the guest TLB\nwrites, "
                   "the guest's refill handler after each guest TLB miss (its "
                   "emulated\nexits to its rfi: seq lines) and the guest run "
                   "lengths, for\n`sim trace synth --like` "
                   "(tools/make-profile.sh regenerates the built-in ones;\n"
                   "docs/calibration.md).\n\n"
                   "--wall REC (3 to %d times): `sim record --model` runs of "
                   "the same workload at\ndifferent exit costs, host noise "
                   "off; the profile then also holds the guest's\n"
                   "wall-time-driven exits (per type, the slope of its count "
                   "on the run's duration)\nthat `sim whatif` removes when "
                   "a run gets shorter (docs/whatif.md).\n",
                   XP_MAX_WALL);
            return 0;
        default:
            return cli_bad_option("trace profile", "o:h", opts, argv);
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("trace profile", "expected one TRACE");
    if (!name || !*name || strlen(name) > 31 || strchr(name, ' '))
        return cli_usage_error("trace profile", "--name: 1-31 characters, "
                               "no blanks");
    /* each is one line of the profile: a newline would start a line of
     * its own (a keyword the reader then takes), and the profile keeps
     * at most 199 characters of each (--name had no such check: "x\ny"
     * wrote a profile its reader refused) */
    if (cli_check_text("trace profile", "--name", name, 31, false) ||
        cli_check_text("trace profile", "--source", source, 199, false) ||
        cli_check_text("trace profile", "--assumes", assumes, 199, false))
        return 2;
    if (!out)
        return cli_usage_error("trace profile", "-o FILE is required");
    if ((c = cli_check_output_of(out, argv[optind])))
        return c;
    /* -o over a --wall recording replaced it with the profile */
    for (int k = 0; k < nwall; k++)
        if ((c = cli_check_output_of(out, wall[k])))
            return c;
    /* one recording given twice (under any name) counted as two runs: the
     * fit's "at least three" and its t-test's degrees of freedom were
     * met by a copy of a point */
    for (int k = 0; k < nwall; k++) {
        struct stat a, b;
        if (stat(wall[k], &a) != 0)
            continue; /* named when it is read */
        for (int j = 0; j < k; j++)
            if (stat(wall[j], &b) == 0 && a.st_dev == b.st_dev &&
                a.st_ino == b.st_ino)
                return cli_usage_error("trace profile", "--wall %s and "
                                       "--wall %s are the same recording: "
                                       "the fit needs distinct runs",
                                       wall[j], wall[k]);
    }
    static exitprof p;
    if (nwall && nwall < 3)
        return cli_usage_error("trace profile", "--wall: give at least three "
                               "recordings (a slope and its scatter)");
    sim_err e = exitprof_build(&p, argv[optind], name, source, assumes);
    if (e == SIM_OK && nwall)
        e = exitprof_wall(&p, wall, nwall);
    if (e != SIM_OK)
        return cli_report(e);
    outfile of;
    e = outfile_open(&of, out);
    if (e != SIM_OK)
        return cli_report(e);
    exitprof_write(of.f, &p);
    e = outfile_commit(&of);
    return e == SIM_OK ? 0 : cli_report(e);
}

int cli_trace_synth(int argc, char **argv)
{
    static const struct option opts[] = {
        {"exits", required_argument, 0, 'n'},
        {"seed", required_argument, 0, 's'},
        {"profile", required_argument, 0, 'p'},
        {"tb-hz", required_argument, 0, 't'},
        {"output", required_argument, 0, 'o'},
        {"like", required_argument, 0, 'L'},
        {"mix", required_argument, 0, 'm'},
        {"tb-per-usec", required_argument, 0, 'B'},
        {"accounting", required_argument, 0, 'a'},
        {"guest-hz", required_argument, 0, 'g'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    unsigned long long exits = 0, seed = 1, tb_hz = 667000000ULL;
    bool tb_given = false;
    double guest_hz = 0;
    const char *profile = NULL, *out = NULL, *like = NULL, *mix = NULL;
    bool have_exits = false;
    double tb_per_usec = 0;
    const char *acc = NULL;
    stats_unit unit = STATS_USEC;
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
            if (cli_parse_seed("trace synth", optarg, &seed))
                return 2;
            break;
        case 'p':
            if (cli_once("trace synth", "--profile", &profile, optarg))
                return 2;
            break;
        case 't':
            tb_given = true;
            if (cli_parse_tb_hz("trace synth", optarg, &tb_hz))
                return 2;
            break;
        case 'B':
            if (tb_per_usec > 0)
                return cli_usage_error("trace synth", "--tb-per-usec given "
                                                      "twice");
            if (cli_parse_tb_per_usec("trace synth", optarg, &tb_per_usec))
                return 2;
            break;
        case 'a':
            if (cli_once("trace synth", "--accounting", &acc, optarg) ||
                cli_parse_accounting("trace synth", optarg, &unit))
                return 2;
            break;
        case 'o':
            if (cli_once("trace synth", "-o", &out, optarg))
                return 2;
            break;
        case 'L':
            if (cli_once("trace synth", "--like", &like, optarg))
                return 2;
            break;
        case 'm':
            if (cli_once("trace synth", "--mix", &mix, optarg))
                return 2;
            break;
        case 'g': {
            char *end;
            if (guest_hz > 0)
                return cli_usage_error("trace synth", "--guest-hz given "
                                                      "twice");
            errno = 0;
            guest_hz = strtod(optarg, &end);
            if (!*optarg || *end || errno || !(guest_hz >= 1) ||
                guest_hz > 10000)
                return cli_usage_error("trace synth", "--guest-hz: expected "
                                       "a tick rate from 1 to 10000 Hz, got "
                                       "'%s'", optarg);
            break;
        }
        case 'h': help(stdout); return 0;
        default:
            return cli_bad_option("trace synth", "o:h", opts, argv);
        }
    }
    if (optind != argc)
        return cli_usage_error("trace synth", "unexpected argument '%s'",
                               argv[optind]);
    if (mix && !strcmp(mix, "list"))
        return list_mixes();
    if (acc && unit == STATS_USEC && tb_per_usec > 0)
        return cli_usage_error("trace synth", "--accounting 2.6.29 and "
                               "--tb-per-usec contradict each other (a "
                               "table in ticks per usec is a 3.1+ kernel's)");
    if (like)
        return synth_like(like, mix, have_exits ? exits : 0, seed, tb_hz, out,
                          profile, tb_per_usec, acc != NULL,
                          tb_per_usec > 0 ? STATS_TICKS : unit,
                          guest_hz > 0 ? guest_hz : default_guest_hz(),
                          !tb_given, !(guest_hz > 0));
    if (guest_hz > 0)
        return cli_usage_error("trace synth", "--guest-hz needs --like TABLE "
                               "(it bounds the table's idle waits)");
    if (acc)
        return cli_usage_error("trace synth", "--accounting needs --like "
                               "TABLE (the table's kernel)");
    if (mix)
        return cli_usage_error("trace synth", "--mix needs --like TABLE");
    if (!have_exits)
        return cli_usage_error("trace synth", "--exits N is required");
    if (!out)
        return cli_usage_error("trace synth", "-o FILE is required");
    if ((c = cli_check_output_of(out, profile)) || (c = room_for(out, exits)))
        return c;

    synth_profile p;
    sim_err e;
    if (profile) {
        static table t;
        e = table_read_file_tb(&t, profile, TFMT_AUTO, tb_per_usec);
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
