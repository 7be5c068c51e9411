/* validate_whatif: the `whatif` kind of validation case (docs/validation.md):
 * baseline trace -> calibration -> transform -> predicted table, and only
 * then the measured table, handed to the comparison alone. The steps that
 * predict never see it: before them it is only parsed, its numbers
 * dropped, so that a malformed file is refused before minutes of
 * prediction; a test (cli_validate.cmake) swaps the measured table and
 * checks the predicted numbers do not move. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "cli.h"
#include "cli_plotcmp.h"
#include "outfile.h"
#include "params.h"
#include "pdraw.h"
#include "replay.h"
#include "stats.h"
#include "synth.h"
#include "table.h"
#include "tcmp.h"
#include "validate.h"
#include "whatif.h"
#include "workloads.h"

#define MAX_ARGS 32

const char *const validate_whatif_keys[] = {
    "baseline",        "baseline.trace",  "baseline.record", "baseline.table",
    "baseline.exits",  "baseline.mix",    "baseline.seed",   "params",
    "calibrate.table", "transform",       "transform.sites", "measured.table",
    "measured.record", "seeds",           "set",             "fold",
    "budget.total",    "budget.threshold", "budget.rows",    "budget.counts",
    "budget.count",    "requires",        "accounting",      "mix",
    "baseline.table.record", "baseline.table.form", "record.params",
    "param_draws",     "param_draws.seeds", "param_draws.proposal",
    NULL,
};

/* The tables' accounting (docs/tables.md): `accounting = 2.6.29` (the
 * default: each sample truncated to usec, as the seed tables) or `3.1`
 * (ticks summed, a 3.1+ kernel's table). */
static sim_err case_unit(const vcase *c, stats_unit *u)
{
    const char *a = vcase_get(c, "accounting");
    *u = STATS_USEC;
    if (!a || !strcmp(a, "2.6.29"))
        return SIM_OK;
    if (!strcmp(a, "3.1")) {
        *u = STATS_TICKS;
        return SIM_OK;
    }
    return vcase_fail(c, "accounting", "accounting = %s: expected 2.6.29 "
                                       "(each sample truncated to usec) or "
                                       "3.1 (ticks summed)", a);
}

/* A 3.1+ kernel's debugfs tables hold sum_squared in tick x usec: with
 * `accounting = 3.1` they are read with the board's timebase (the params
 * file's core_hz, else 667 MHz; the 440's timebase runs at the core
 * clock), else 0 (as printed). Into buf as text for the steps' argv. */
static double case_tb_per_usec(const vcase *c, char *buf, size_t n)
{
    stats_unit u;
    buf[0] = '\0';
    if (case_unit(c, &u) != SIM_OK || u != STATS_TICKS)
        return 0;
    static params bp;
    params_init(&bp);
    char pf[600];
    if (vcase_path(c, "params", pf, sizeof pf) &&
        params_load_file(&bp, pf) != SIM_OK)
        return 0; /* the params step names the file's error */
    double tb = P(&bp, core_hz) / 1e6;
    snprintf(buf, n, "%.17g", tb);
    return tb;
}

/* A table the case names, read with the case's timebase (above). */
static sim_err case_read_table(const vcase *c, table *t, const char *path)
{
    char tpu[40];
    return table_read_file_tb(t, path, TFMT_AUTO,
                              case_tb_per_usec(c, tpu, sizeof tpu));
}

/* "a b c" -> argv (in place in buf). */
static int split(char *buf, const char **argv, int max)
{
    int n = 0;
    for (char *s = strtok(buf, " \t"); s && n < max - 1; s = strtok(NULL, " \t"))
        argv[n++] = s;
    argv[n] = NULL;
    return n;
}

/* `set = K=V, K=V`: parameters every recording and the prediction get
 * (docs/validation.md): "--set K=V" for each into argv at n (room for
 * MAX_SET pairs), into buf (n bytes). Returns the new n. */
#define MAX_SET 8
static int add_sets(const vcase *c, const char **argv, int n, char *buf,
                    size_t len)
{
    const char *v = vcase_get(c, "set");
    if (!v)
        return n;
    snprintf(buf, len, "%s", v);
    int k = 0;
    for (char *t = strtok(buf, ", \t"); t && k < MAX_SET;
         t = strtok(NULL, ", \t"), k++) {
        argv[n++] = "--set";
        argv[n++] = t;
    }
    return n;
}

/* The arguments every `sim record` of a case ends with, from argv[n]:
 * the recorded board's parameters (record.params, into rparams; without
 * it the case's `params`: the board and guest both sides share), the
 * host-noise seed (seed_set, "seed=N"), the case's `set`, the Linux
 * image's directory, no console, -o trace; NULL-terminated. */
static void record_tail(const vcase *c, const char **argv, int n,
                        const char *seed_set, char *sets, size_t len,
                        char *rparams, size_t rlen, const char *trace)
{
    if (vcase_path(c, "record.params", rparams, rlen) ||
        vcase_path(c, "params", rparams, rlen)) {
        argv[n++] = "--params";
        argv[n++] = rparams;
    }
    argv[n++] = "--set";
    argv[n++] = seed_set;
    n = add_sets(c, argv, n, sets, len);
    argv[n++] = "--linux-dir";
    argv[n++] = workloads_linux_dir();
    argv[n++] = "--no-console";
    argv[n++] = "-o";
    argv[n++] = trace;
    argv[n] = NULL;
}

/* A step that exited rc (not 0; -1: it did not run to its end, or the
 * run was interrupted): the case's error, with the step's own message. */
static sim_err step_failed(const vcase *c, const char *what, int rc)
{
    char log[600];
    snprintf(log, sizeof log, "%s/steps.log", c->tmp);
    if (validate_interrupted())
        return sim_fail(SIM_ERR_IO, "%s: %s interrupted", c->path, what);
    /* the step's own message is the last line of its log */
    char last[512] = "", line[512];
    FILE *f = fopen(log, "r");
    while (f && fgets(line, sizeof line, f))
        if (line[0] != '\n' && strncmp(line, "(see: ", 6) != 0)
            snprintf(last, sizeof last, "%s", line);
    if (f)
        fclose(f);
    last[strcspn(last, "\n")] = '\0';
    return sim_fail(SIM_ERR_CHECK, "%s: %s failed (exit %d): %s", c->path,
                    what, rc, last);
}

/* Runs `sim ARGV` as a step of case c (its output to the case's log);
 * *code: its exit code, for the caller to judge (not with an interrupted
 * run: that is an error), else any exit but 0 is the case's error. */
static sim_err step(vcase *c, const char *what, const char *const *argv,
                    int *code)
{
    char log[600];
    snprintf(log, sizeof log, "%s/steps.log", c->tmp);
    /* on a terminal, what runs: a 10M-exit case's calibration takes
     * minutes, without a line it looked hung (the step's own progress
     * goes to its log) */
    bool tty = isatty(STDERR_FILENO);
    if (tty) {
        fprintf(stderr, "\r\033[Ksim validate: %s: %s ...", c->name, what);
        fflush(stderr);
    }
    int rc = validate_run_self(log, argv);
    if (tty)
        fputs("\r\033[K", stderr);
    if (validate_interrupted())
        return step_failed(c, what, rc);
    if (code) {
        *code = rc;
        return SIM_OK;
    }
    return rc != 0 ? step_failed(c, what, rc) : SIM_OK;
}

/* A line of the report and of its JSON notes (none when notes is NULL:
 * a later seed's run of a step the first one reported). */
static void note(vcase *c, json_t *notes, const char *fmt, const char *a)
{
    char buf[1200];
    if (!notes)
        return;
    snprintf(buf, sizeof buf, fmt, a);
    if (c->out)
        fprintf(c->out, "  %s\n", buf);
    json_array_append_new(notes, json_string(buf));
}

/* A case's profile (mix, baseline.mix): a built-in name or none as it
 * is, else a file, relative to the case's directory like its other paths
 * (it was taken from the current directory). */
static const char *case_mix(const vcase *c, const char *key, char *buf,
                            size_t n)
{
    const char *v = vcase_get(c, key);
    if (!v || !strcmp(v, "none"))
        return v;
    for (int i = 0; i < exitprof_builtin_count(); i++)
        if (!strcmp(v, exitprof_builtin_name(i)))
            return v;
    return vcase_path(c, key, buf, n);
}

/* The table a synth-like baseline is made from, and that `calibrate.table
 * = baseline` names: baseline.table, or the table of the recorded run of
 * baseline.table.record (record_table writes it into the scratch
 * directory); NULL when the case has neither. */
static const char *baseline_table(const vcase *c, char *buf, size_t n)
{
    if (vcase_get(c, "baseline.table.record")) {
        snprintf(buf, n, "%s/baseline-table.txt", c->tmp);
        return buf;
    }
    return vcase_path(c, "baseline.table", buf, n);
}

/* The table the case calibrates on: calibrate.table, or with
 * `calibrate.table = baseline` the baseline's (baseline_table); NULL
 * without one. The calibration and the draws' re-check against it read
 * this one alone, never the measured table (tests/validate_separation.sh
 * swaps the measured table: the draws' weights must not move). */
static const char *calibration_table(const vcase *c, char *buf, size_t n)
{
    const char *ct = vcase_get(c, "calibrate.table");
    if (ct && !strcmp(ct, "baseline"))
        return baseline_table(c, buf, n);
    return vcase_path(c, "calibrate.table", buf, n);
}

/* Whether `sim record ARGS` prints one EMULINST row (--fold-emul, or the
 * workload's default: linux-boot's) rather than the EMUL_* rows. */
static bool record_folds(const char *args)
{
    char buf[512];
    const char *argv[MAX_ARGS];
    snprintf(buf, sizeof buf, "%s", args);
    int n = split(buf, argv, MAX_ARGS);
    const workload *w = n ? workload_find(argv[0]) : NULL;
    bool fold = w && w->external;
    for (int i = 1; i < n; i++) {
        if (!strcmp(argv[i], "--fold-emul"))
            fold = true;
        else if (!strcmp(argv[i], "--no-fold-emul"))
            fold = false;
    }
    return fold;
}

/* baseline.table.form: the form the recorded table is written in for
 * the pipeline (docs/tables.md; default kvm); -1 with the case's error. */
static sim_err record_form(const vcase *c, int *form)
{
    const char *f = vcase_get(c, "baseline.table.form");
    *form = f ? table_fmt_from_name(f) : TFMT_KVM;
    if (*form < 0)
        return vcase_fail(c, "baseline.table.form", "baseline.table.form = "
                          "%s: expected kvm, debugfs, perf, csv or json (the "
                          "forms of docs/tables.md)", f);
    return SIM_OK;
}

/* baseline.table.record: the "hardware" is cpu440 itself. `sim record
 * ARGS` (with the seed, the case's `set` and record.params, as every
 * recording of the case) and the exit-timing table of that run into
 * baseline_table's file, as the recording prints it (a folded one in the
 * seed's layout) but without the EMUL_* breakdown beneath a folded
 * EMULINST row: a hardware table has none. Everything after this step
 * reads the table only, as it would a board's. */
static sim_err record_table(vcase *c, const char *seed_set, json_t *notes)
{
    const char *a = vcase_get(c, "baseline.table.record");
    char buf[512], sets[256], rp[600], trace[600], out[600];
    const char *argv[MAX_ARGS + 12 + 2 * MAX_SET];
    snprintf(trace, sizeof trace, "%s/table-run.bin", c->tmp);
    snprintf(buf, sizeof buf, "%s", a);
    argv[0] = "record";
    int n = 1 + split(buf, argv + 1, MAX_ARGS);
    record_tail(c, argv, n, seed_set, sets, sizeof sets, rp, sizeof rp, trace);
    sim_err e = step(c, "sim record (baseline.table.record)", argv, NULL);
    if (e != SIM_OK)
        return e;
    replay_opts ro = {.ticks = REPLAY_MEASURED};
    if ((e = case_unit(c, &ro.unit)) != SIM_OK)
        return e;
    /* a 3.1+ kernel's table: its rows too are 3.0+'s (every mfspr/mtspr
     * in EMUL_MFSPR/EMUL_MTSPR), as the pipeline reads such a table */
    ro.rows_3x = ro.unit == STATS_TICKS;
    int form;
    if ((e = record_form(c, &form)) != SIM_OK)
        return e;
    static stats s;
    static table t;
    replay_result rr;
    if ((e = replay_file(trace, &ro, &s, &rr)) != SIM_OK)
        return e;
    stats_to_table(&s, &t);
    bool fold = record_folds(a);
    if (fold)
        table_fold_emul(&t, &t);
    snprintf(t.title, sizeof t.title, "cpu440: sim record %.100s", a);
    outfile of;
    if ((e = outfile_open(&of, baseline_table(c, out, sizeof out))) != SIM_OK)
        return e;
    /* the debugfs form of a 3.1+ kernel: sum_squared in tick x usec, read
     * back with the same --tb-per-usec */
    char tpu[40];
    table_write_opts wo = {.fold_emul = false,
                           .tb_per_usec = form == TFMT_DEBUGFS
                                              ? case_tb_per_usec(c, tpu,
                                                                 sizeof tpu)
                                              : 0,
                           .accounting = ro.rows_3x ? "3.1" : "2.6.29"};
    e = table_write(of.f, &t, (table_fmt)form, &wo);
    if (e != SIM_OK) {
        outfile_abort(&of);
        return e;
    }
    if ((e = outfile_commit(&of)) != SIM_OK)
        return e;
    unlink(trace);
    snprintf(buf, sizeof buf, "baseline table: the recorded run of sim "
                              "record %.200s (%s form, %s; %s; only its table "
                              "is used)",
             a, table_fmt_name((table_fmt)form),
             fold ? "the seed's layout, one EMULINST row"
             : ro.rows_3x ? "EMUL_* rows as 3.0+ counts them (every "
                            "mfspr/mtspr in its subtype row)"
                          : "EMUL_* rows",
             ro.rows_3x ? "3.1 accounting, ticks summed"
                        : "2.6.29 accounting");
    note(c, notes, "%s", buf);
    return SIM_OK;
}

/* Step 1: the baseline trace into trace, with the host-noise seed `seed`
 * (recorded: --set seed=N; synthesised: baseline.seed + the run's index,
 * passed in as seed). */
static sim_err baseline(vcase *c, const char *trace, unsigned long seed,
                        json_t *notes)
{
    char seed_set[40], seed_arg[24], sets[256];
    snprintf(seed_set, sizeof seed_set, "seed=%lu", seed);
    snprintf(seed_arg, sizeof seed_arg, "%lu", seed);
    const char *how = vcase_get(c, "baseline");
    char p[600], buf[1024];
    const char *argv[MAX_ARGS + 12 + 2 * MAX_SET];
    if (!how)
        return sim_fail(SIM_ERR_FORMAT, "%s: no 'baseline' (synth-like, "
                                        "record or file)", c->path);
    if (!strcmp(how, "file")) {
        if (!vcase_path(c, "baseline.trace", p, sizeof p))
            return vcase_fail(c, "baseline", "baseline = file needs "
                                             "baseline.trace");
        /* the link lives in the scratch directory: it must hold the
         * absolute path (a relative one would point into the scratch
         * directory, at itself) */
        char abs[PATH_MAX];
        if (!realpath(p, abs))
            return vcase_fail(c, "baseline.trace", "baseline.trace = %s: %s",
                              vcase_get(c, "baseline.trace"), strerror(errno));
        note(c, notes, "baseline: the trace %s", vcase_get(c, "baseline.trace"));
        return symlink(abs, trace) == 0
                   ? SIM_OK
                   : sim_fail(SIM_ERR_IO, "%s: %s: %s", c->path, trace,
                              strerror(errno));
    }
    if (!strcmp(how, "record")) {
        const char *a = vcase_get(c, "baseline.record");
        if (!a)
            return vcase_fail(c, "baseline", "baseline = record needs "
                                             "baseline.record (sim record "
                                             "arguments)");
        snprintf(buf, sizeof buf, "%s", a);
        argv[0] = "record";
        int n = 1 + split(buf, argv + 1, MAX_ARGS);
        char rp[600];
        record_tail(c, argv, n, seed_set, sets, sizeof sets, rp, sizeof rp,
                    trace);
        note(c, notes, "baseline: sim record %s", a);
        return step(c, "sim record (baseline)", argv, NULL);
    }
    if (!strcmp(how, "synth-like")) {
        if (!baseline_table(c, p, sizeof p))
            return vcase_fail(c, "baseline", "baseline = synth-like needs "
                                             "baseline.table or "
                                             "baseline.table.record");
        if (vcase_get(c, "baseline.table.record")) {
            sim_err e = record_table(c, seed_set, notes);
            if (e != SIM_OK)
                return e;
        }
        const char *exits = vcase_get(c, "baseline.exits");
        if (!exits && vcase_get(c, "baseline.table")) {
            /* a long run's table (billions of exits): its own number
             * would write a trace that fills the disk */
            static table big;
            char tpu[40];
            sim_err e = table_read_file_tb(&big, p, TFMT_AUTO,
                                           case_tb_per_usec(c, tpu,
                                                            sizeof tpu));
            if (e != SIM_OK)
                return e;
            if (table_exits(&big) > SYNTH_LIKE_MAX_DEFAULT_EXITS)
                return vcase_fail(c, "baseline.table", "%s has %llu exits: "
                                  "a trace of all of them would take over "
                                  "%.0f GB; give baseline.exits (e.g. 10M: "
                                  "the prediction is scaled to the table's "
                                  "exits)", vcase_get(c, "baseline.table"),
                                  (unsigned long long)table_exits(&big),
                                  32e-9 * (double)table_exits(&big));
        }
        char mixbuf[600];
        const char *mix = case_mix(c, "baseline.mix", mixbuf, sizeof mixbuf);
        /* the board's clock: a table is in usec, the model counts cycles at
         * the trace's clock (the params file's core_hz, else 667 MHz) */
        char hz[32], pf[600];
        static params bp;
        params_init(&bp);
        if (vcase_path(c, "params", pf, sizeof pf)) {
            sim_err e = params_load_file(&bp, pf);
            if (e != SIM_OK)
                return e;
        }
        snprintf(hz, sizeof hz, "%.0f", P(&bp, core_hz));
        int n = 0;
        argv[n++] = "trace";
        argv[n++] = "synth";
        argv[n++] = "--like";
        argv[n++] = p;
        if (mix) {
            argv[n++] = "--mix";
            argv[n++] = mix;
        }
        /* default: the table's own number of exits, so that the prediction
         * and the measured table count the same run (a smaller trace is
         * scaled up at the comparison, scale_to_table) */
        if (exits) {
            argv[n++] = "--exits";
            argv[n++] = exits;
        }
        argv[n++] = "--tb-hz";
        argv[n++] = hz;
        /* the guest's tick (the params' guest_hz): it bounds the idle
         * waits the table's emulation row can hold */
        char ghz[32];
        snprintf(ghz, sizeof ghz, "%.17g", P(&bp, guest_hz));
        argv[n++] = "--guest-hz";
        argv[n++] = ghz;
        char tpu[40];
        if (case_tb_per_usec(c, tpu, sizeof tpu) > 0) {
            argv[n++] = "--tb-per-usec";
            argv[n++] = tpu;
        }
        argv[n++] = "--seed";
        argv[n++] = seed_arg;
        argv[n++] = "-o";
        argv[n++] = trace;
        argv[n] = NULL;
        /* a failure (a bad table, exits or mix) is the case's error: no
         * fallback to a plainer trace that would predict something else */
        sim_err e = step(c, "sim trace synth --like", argv, NULL);
        if (e == SIM_OK && notes) {
            /* what synthesis made of the table's idle waits and of the
             * guest run lengths: its stderr lines (the last of each in
             * the steps' log) */
            char log[600], line[700], waits[700] = "", runs[700] = "";
            snprintf(log, sizeof log, "%s/steps.log", c->tmp);
            FILE *f = fopen(log, "r");
            while (f && fgets(line, sizeof line, f)) {
                if (strncmp(line, "synth: ", 7) != 0)
                    continue;
                /* what synthesis says of the table itself (a row no 44x
                 * kernel charges, a guest on the magic page already, a
                 * row without the profile's detail): each its note */
                if (!strncmp(line + 7, "note: ", 6)) {
                    line[strcspn(line, "\n")] = '\0';
                    note(c, notes, "baseline: %s", line + 7);
                } else if (strstr(line, "idle waits"))
                    snprintf(waits, sizeof waits, "%s", line + 7);
                else if (!strncmp(line + 7, "guest runs: ", 12))
                    snprintf(runs, sizeof runs, "%s", line + 7);
            }
            if (f)
                fclose(f);
            waits[strcspn(waits, "\n")] = '\0';
            runs[strcspn(runs, "\n")] = '\0';
            if (waits[0])
                note(c, notes, "baseline: %s", waits);
            if (runs[0])
                note(c, notes, "baseline: %s", runs);
        }
        if (e == SIM_OK && notes) {
            /* the board's clock and the guest's tick are the params'; a
             * table gives neither, so a default is an assumption: said */
            bool board = vcase_get(c, "baseline.table") != NULL;
            bool dcore = board && bp.origin[PARAM_core_hz] == PO_DEFAULT,
                 dghz = board && bp.origin[PARAM_guest_hz] == PO_DEFAULT;
            const char *bmix = vcase_get(c, "baseline.mix");
            const char *acct = vcase_get(c, "accounting");
            snprintf(buf, sizeof buf,
                     "baseline: sim trace synth --like %s "
                     "(core and timebase at %g MHz%s; the "
                     "guest ticking at %g Hz%s; the guest's instructions, "
                     "pages and runs from profile %s%s; the tables' "
                     "accounting %s%s)",
                     vcase_get(c, "baseline.table")
                         ? vcase_get(c, "baseline.table")
                         : "the recorded table",
                     P(&bp, core_hz) / 1e6,
                     dcore ? ", assumed: the model's default, a board at "
                             "another clock needs params core_hz"
                           : "",
                     P(&bp, guest_hz),
                     dghz ? ", assumed: the model's default, the tables do "
                            "not give their guest's HZ (params guest_hz)"
                          : "",
                     bmix ? bmix : "boot",
                     bmix ? "" : ", the default (baseline.mix)",
                     acct ? acct : "2.6.29",
                     acct ? "" : ", the default (accounting = 3.1 for a "
                                 "3.1+ kernel's)");
            note(c, notes, "%s", buf);
        }
        return e;
    }
    return vcase_fail(c, "baseline", "baseline = %s: expected synth-like, "
                                     "record or file", how);
}

/* A synthesised baseline of another size than its table (baseline.exits)
 * predicts a run of that size: its predicted table is scaled to the
 * table's number of exits (counts, sums and the duration by one factor;
 * averages, spreads, minima and maxima as they are), or the comparison with
 * the measured run would read the size as an error. */
/* Every row's count, sum and sum of squares and the traced duration times
 * k: avg and stddev stay those of the samples. */
static void scale_table(table *t, double k)
{
    for (int i = 0; i < EXIT__COUNT; i++) {
        table_row *r = &t->rows[i];
        if (!r->present)
            continue;
        r->count = (uint64_t)llround((double)r->count * k);
        r->sum *= k;
        r->sum_sq *= k;
    }
    t->traced_usec *= k;
    table_finish(t);
}

static sim_err scale_to_table(vcase *c, table *pred, uint64_t trace_exits,
                              json_t *notes, double *factor)
{
    char p[600];
    *factor = 1;
    if (strcmp(vcase_get(c, "baseline"), "synth-like") != 0 ||
        !vcase_get(c, "baseline.exits") || trace_exits == 0 ||
        !baseline_table(c, p, sizeof p))
        return SIM_OK;
    static table hw;
    sim_err e = case_read_table(c, &hw, p);
    if (e != SIM_OK)
        return e;
    uint64_t total = table_exits(&hw);
    if (total == 0 || total == trace_exits)
        return SIM_OK;
    double k = (double)total / (double)trace_exits;
    *factor = k;
    /* HCALL: the magic page's map hypercalls, which the pv transform
     * inserts a number a run (hcalls=N), not per exit: 1 became 49,803 in
     * a table of 10 G exits synthesised at 200 k */
    table_row hc = pred->rows[EXIT_HCALL];
    scale_table(pred, k);
    bool keep = hc.present && hc.count > 0;
    if (keep) {
        pred->rows[EXIT_HCALL] = hc;
        if (isfinite(pred->traced_usec))
            pred->traced_usec -= (k - 1) * hc.sum;
        table_finish(pred);
    }
    char buf[240];
    snprintf(buf, sizeof buf, "prediction scaled x%.4g: the baseline trace "
                              "has %llu exits, its table %llu "
                              "(baseline.exits)%s",
             k, (unsigned long long)trace_exits, (unsigned long long)total,
             keep ? "; HCALL kept (the transform's hypercalls, a number a "
                    "run)"
                  : "");
    note(c, notes, "%s", buf);
    return SIM_OK;
}

/* How well the calibration fits its own table: the "; traced duration:
 * X% against the table" line sim calibrate writes into the INI, or for a
 * table without guest time (perf) its "; handled time (...): X%" line,
 * then *handled is set (NAN when it has neither), and its "worst avg
 * error" line into worst (n bytes); its "; not fitted: ROW P points ...;
 * the fitted rows Y%" line (a table's own EMUL_WAIT row, which the fit
 * gives no weight) into unfit (n_unfit bytes, "" without one) and Y into
 * *fitted (X without one). */
static double calibrated_fit(const char *ini, char *worst, size_t n,
                             bool *handled, char *unfit, size_t n_unfit,
                             double *fitted)
{
    double x = NAN;
    char line[300];
    worst[0] = unfit[0] = '\0';
    *handled = false;
    *fitted = NAN;
    FILE *f = fopen(ini, "r");
    while (f && fgets(line, sizeof line, f)) {
        const char *w = "; worst avg error of the rows with >= 1% of the "
                        "time: ";
        if (sscanf(line, "; traced duration: %lf%%", &x) == 1)
            continue;
        if (sscanf(line, "; handled time (no guest time in the table): "
                         "%lf%%", &x) == 1) {
            *handled = true;
            continue;
        }
        if (!strncmp(line, w, strlen(w)))
            snprintf(worst, n, "%.100s", line + strlen(w));
        const char *u = "; not fitted: ", *y = "; the fitted rows ";
        const char *at = strstr(line, y);
        if (!strncmp(line, u, strlen(u)) && at &&
            sscanf(at + strlen(y), "%lf%%", fitted) == 1)
            snprintf(unfit, n_unfit, "%.*s", (int)(at - line - strlen(u)),
                     line + strlen(u));
    }
    if (f)
        fclose(f);
    worst[strcspn(worst, "\n")] = '\0';
    if (!unfit[0])
        *fitted = x;
    return x;
}

/* The calibration's own warnings in its parameters file (whole-number
 * parameters moved off their nearest values, a fit worse than its start:
 * calib_write_round) as the case's notes: the calibrated point is what
 * the prediction stands on. */
static void calibrated_warnings(vcase *c, const char *ini, json_t *notes)
{
    char line[300];
    FILE *f = fopen(ini, "r");
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!strncmp(line, "; whole numbers ", 16) ||
            !strncmp(line, "; WARNING: ", 11))
            note(c, notes, "calibration: %s", line + 2);
    }
    if (f)
        fclose(f);
}

/* Step 2: parameters: an INI given by the case, then a calibration on the
 * baseline's (never the measured) table; *fit: its total error on that
 * table, in percent (NAN without a calibration); *fitted: the part of it
 * in the rows the fit weighs (*fit less a table's own EMUL_WAIT row's
 * points, which no cost parameter owns: docs/calibration.md); unfit
 * (n bytes): that row and its points, "" when the table has none. */
static sim_err calibrate(vcase *c, const char *trace, params *prm,
                         json_t *notes, double *fit, double *fitted,
                         char *unfit, size_t n_unfit)
{
    *fit = *fitted = NAN;
    unfit[0] = '\0';
    char p[600], ini[600], start[600];
    params_init(prm);
    bool given = vcase_path(c, "params", start, sizeof start);
    if (given) {
        sim_err e = params_load_file(prm, start);
        if (e != SIM_OK)
            return e;
        note(c, notes, "parameters: %s", vcase_get(c, "params"));
    }
    const char *ct = vcase_get(c, "calibrate.table");
    if (!calibration_table(c, p, sizeof p)) {
        if (!given)
            note(c, notes, "parameters: %s", "the defaults (no calibration "
                                             "in this case)");
        return SIM_OK;
    }
    snprintf(ini, sizeof ini, "%s/calibrated.ini", c->tmp);
    /* the case's parameters (a board's core_hz ...) are the calibration's
     * start and held values, not only the prediction's */
    stats_unit unit;
    sim_err e = case_unit(c, &unit);
    if (e != SIM_OK)
        return e;
    char tpu[40], sets[256];
    const char *argv[16 + 2 * MAX_SET] = {"calibrate", "--trace", trace,
                            "--table", p,
                            "-o",        ini,       "--accounting",
                            unit == STATS_TICKS ? "3.1" : "2.6.29"};
    int n = 9;
    if (case_tb_per_usec(c, tpu, sizeof tpu) > 0) {
        argv[n++] = "--tb-per-usec";
        argv[n++] = tpu;
    }
    if (given) {
        argv[n++] = "--params";
        argv[n++] = start;
    }
    /* the host the table was measured on, as the prediction's */
    n = add_sets(c, argv, n, sets, sizeof sets);
    argv[n] = NULL;
    int code = -1;
    e = step(c, "sim calibrate", argv, &code);
    if (e != SIM_OK)
        return e;
    if (code == 0 || code == 1) { /* 1: not converged, best point kept */
        note(c, notes, "calibrated on %s (sim calibrate)",
             strcmp(ct, "baseline") ? ct : "the baseline's table");
        if (code == 1)
            note(c, notes, "%s", "calibration did not converge: its best "
                                 "point is used");
        char worst[200], buf[480];
        bool handled;
        *fit = calibrated_fit(ini, worst, sizeof worst, &handled, unfit,
                              n_unfit, fitted);
        snprintf(buf, sizeof buf, "the calibrated model on that table: "
                                  "%s %+.2f%%; worst avg of its rows >= 1%% "
                                  "of the time: %s",
                 handled ? "handled time (the table has no guest time)"
                         : "total",
                 *fit, worst);
        note(c, notes, "%s", buf);
        if (unfit[0]) {
            snprintf(buf, sizeof buf, "of it, not fitted: %s; the fitted "
                                      "rows %+.2f%%", unfit, *fitted);
            note(c, notes, "%s", buf);
        }
        calibrated_warnings(c, ini, notes);
        return params_load_file(prm, ini);
    }
    /* a table sim calibrate refuses (a malformed row) is the case's error:
     * the prediction ran on the default parameters before, a calibrated
     * case's numbers without its calibration */
    return step_failed(c, "sim calibrate", code);
}

static sim_err run_sites(vcase *c, const char *script, const char *out)
{
    char vml[600];
    snprintf(vml, sizeof vml, "%s/vmlinux", workloads_linux_dir());
    pid_t pid = fork();
    if (pid < 0)
        return sim_fail(SIM_ERR_IO, "%s: fork failed", c->path);
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            _exit(127);
        dup2(fd, 1);
        close(fd);
        execlp("sh", "sh", script, vml, (char *)NULL);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return sim_fail(SIM_ERR_CHECK, "%s: transform.sites: %s %s failed",
                        c->path, script, vml);
    return SIM_OK;
}

/* The table tells EMUL_* rows apart (one has exits or is listed as never
 * hit); without any, its EMULINST holds every emulated instruction. */
static bool emul_rows(const table *t)
{
    for (int i = 0; i < EXIT__COUNT; i++)
        if (exit_is_emul((exit_type)i) &&
            ((t->rows[i].present && t->rows[i].count > 0) || t->never_hit[i]))
            return true;
    return false;
}

/* Step 4 (after the prediction): the measured table (recorded with the
 * host-noise seed `seed`). */
static sim_err measured(vcase *c, table *t, unsigned long seed,
                        json_t *notes)
{
    char p[600], buf[512], seed_set[40], sets[256];
    if (vcase_path(c, "measured.table", p, sizeof p)) {
        note(c, notes, "measured: %s", vcase_get(c, "measured.table"));
        return case_read_table(c, t, p);
    }
    snprintf(seed_set, sizeof seed_set, "seed=%lu", seed);
    const char *a = vcase_get(c, "measured.record");
    if (!a)
        return sim_fail(SIM_ERR_FORMAT, "%s: no measured.table or "
                                        "measured.record", c->path);
    char trace[600];
    snprintf(trace, sizeof trace, "%s/measured.bin", c->tmp);
    snprintf(buf, sizeof buf, "%s", a);
    const char *argv[MAX_ARGS + 12 + 2 * MAX_SET] = {"record"};
    int n = 1 + split(buf, argv + 1, MAX_ARGS);
    char rp[600];
    record_tail(c, argv, n, seed_set, sets, sizeof sets, rp, sizeof rp, trace);
    sim_err e = step(c, "sim record (measured)", argv, NULL);
    if (e != SIM_OK)
        return e;
    if (notes)
        note(c, notes, "measured: sim record %s", a);
    replay_opts ro = {.ticks = REPLAY_MEASURED};
    e = case_unit(c, &ro.unit);
    if (e != SIM_OK)
        return e;
    /* a 3.1+ kernel's rows, as the trace synthesised from its no-PV table
     * has (a recorded or given baseline keeps cpu440's rows, and so does
     * its measured run) */
    const char *how = vcase_get(c, "baseline");
    ro.rows_3x = ro.unit == STATS_TICKS && how && !strcmp(how, "synth-like");
    static stats s;
    replay_result rr;
    e = replay_file(trace, &ro, &s, &rr);
    if (e == SIM_OK)
        stats_to_table(&s, t);
    return e;
}

/* The baseline trace's own table (its recorded ticks), when it has them:
 * accumulated into own; false when the trace carries no ticks. */
static bool own_ticks(const char *trace, table *own, bool pooled,
                      stats_unit unit)
{
    replay_opts ro = {.unit = unit, .ticks = REPLAY_MEASURED};
    static stats s;
    static table t;
    replay_result rr;
    if (replay_file(trace, &ro, &s, &rr) != SIM_OK) {
        sim_clear_error();
        return false;
    }
    stats_to_table(&s, pooled ? &t : own);
    if (pooled)
        table_accumulate(own, &t);
    return true;
}

/* How well the model reproduces the baseline's own table (the trace's
 * ticks): the part of the final error the transform does not cause. */
static void baseline_fidelity(vcase *c, table *own, table *model,
                              bool pooled, bool fold, double threshold,
                              json_t *json)
{
    if (pooled) {
        table_finish(own);
        table_finish(model);
    }
    tcmp cmp;
    tcmp_make(&cmp, own, model, fold, threshold);
    if (c->out)
        fprintf(c->out, "  the model on the baseline itself (untransformed "
                        "prediction vs the baseline trace's own ticks): "
                        "total %+.1f%%, MAPE %.1f%%, MPE %+.1f%% over %d rows\n",
                100.0 * cmp.err_total, cmp.mape, cmp.mpe, cmp.n_major);
    json_object_set_new(json, "baseline_model", tcmp_to_json(&cmp));
}

static bool requirement_missing(vcase *c, char *why, size_t n)
{
    const char *r = vcase_get(c, "requires");
    if (!r)
        return false;
    if (!strcmp(r, "linux-image")) {
        char p[600];
        snprintf(p, sizeof p, "%s/vmlinux", workloads_linux_dir());
        if (access(p, R_OK) != 0) {
            snprintf(why, n, "the Linux image is not built (%.600s missing: "
                             "cmake --build build --target linux-image, "
                             "docs/linux-guest.md)", p);
            return true;
        }
        snprintf(p, sizeof p, "%s/vmlinux-pv", workloads_linux_dir());
        if (access(p, R_OK) != 0) {
            snprintf(why, n, "the PV Linux image is not built (%.600s missing)",
                     p);
            return true;
        }
        return false;
    }
    return false; /* refused before (known_requirement) */
}

static sim_err known_requirement(const vcase *c)
{
    const char *r = vcase_get(c, "requires");
    if (r && strcmp(r, "linux-image") != 0)
        return vcase_fail(c, "requires", "requires = %s: expected "
                                         "linux-image (the only requirement)",
                          r);
    return SIM_OK;
}

/* The major rows' sum sd (relative to the mean) and the comparison's
 * error in those sds, of a spread whose row t has its mean at
 * sum[t * stride] and its sd next to it (the count's likewise): appended
 * to buf (len bytes, n used; returns the new n) after lead, and into jr
 * per row. */
static int band_rows(char *buf, size_t len, int n, const char *lead,
                     const tcmp *cmp, const pdraw_band *b, const double *sum,
                     const double *count, size_t stride, json_t *jr)
{
    const char *sep = lead;
    for (int i = 0; i < cmp->n; i++) {
        int t = cmp->order[i];
        const tcmp_row *r = &cmp->rows[t];
        const double *m = sum + (size_t)t * stride;
        const double *q = count + (size_t)t * stride;
        if (!r->major || !b->present[t] || !(m[0] > 0))
            continue;
        double rs = m[1] / m[0];
        double rc = q[0] > 0 ? q[1] / q[0] : 0;
        double es = rs > 0 ? r->err_sum / rs : INFINITY;
        if (n >= 0 && (size_t)n < len)
            n += snprintf(buf + n, len - (size_t)n, "%s%s %.2f%% (%+.1f)",
                          sep, exit_name((exit_type)t), 100 * rs, es);
        sep = ", ";
        json_t *o = json_object();
        json_object_set_new(o, "sum_sd_pct", json_real(100 * rs));
        json_object_set_new(o, "count_sd_pct", json_real(100 * rc));
        json_object_set_new(o, "sum_err_sd",
                            isfinite(es) ? json_real(es) : json_null());
        json_object_set_new(jr, exit_name((exit_type)t), o);
    }
    return n;
}

/* A weighted spread (pdraw_view) into a note and JSON: the total's sd
 * relative to its mean, its mean against the draws' plain mean, the
 * untransformed model's sd, the comparison's error in those sds, the
 * major rows. */
static json_t *view_notes(vcase *c, json_t *notes, const char *lead,
                          const pdraw_band *b, const pdraw_view *v,
                          const tcmp *cmp)
{
    char buf[760];
    const double *tot = cmp->handled ? v->handled : v->total;
    const double *base = cmp->handled ? v->base_handled : v->base_total;
    const double *plain = cmp->handled ? b->handled : b->total;
    const char *what = cmp->handled ? "handled time" : "total";
    double rel = tot[1] / tot[0];
    double err = rel > 0 ? cmp->err_total / rel : INFINITY;
    int n;
    if (isfinite(rel))
        n = snprintf(buf, sizeof buf, "%s: %s sd %.2f%%, mean %+.2f%% from "
                     "the draws' plain mean (the untransformed model's: sd "
                     "%.2f%%); the %s's error is %+.1f sd", lead, what,
                     100 * rel, 100 * (tot[0] / plain[0] - 1),
                     100 * base[1] / base[0], what, err);
    else
        n = snprintf(buf, sizeof buf, "%s: no sd (one draw carries all the "
                     "weight): %s %+.2f%% from the draws' plain mean", lead,
                     what, 100 * (tot[0] / plain[0] - 1));
    json_t *j = json_object(), *jr = json_object();
    json_object_set_new(j, "total_sd_pct", isfinite(rel) ? json_real(100 * rel)
                                                         : json_null());
    json_object_set_new(j, "mean_shift_pct",
                        json_real(100 * (tot[0] / plain[0] - 1)));
    json_object_set_new(j, "untransformed_total_sd_pct",
                        isfinite(base[1]) ? json_real(100 * base[1] / base[0])
                                          : json_null());
    json_object_set_new(j, "total_err_sd",
                        isfinite(err) ? json_real(err) : json_null());
    if (isfinite(rel))
        band_rows(buf, sizeof buf, n, "; sum sd (err in sd) of the rows: ",
                  cmp, b, &v->sum[0][0], &v->count[0][0], 2, jr);
    json_object_set_new(j, "rows", jr);
    note(c, notes, "%s", buf);
    return j;
}

/* The draws' re-check: the calibration's objective (model/calib.c, the
 * function the fit minimised) of the table the case calibrated on - read
 * as sim calibrate read it, with the case's accounting and timebase -
 * over the baseline trace; its base name into name (n bytes). */
static sim_err draws_objective(const vcase *c, const char *trace,
                               stats_unit unit, calib_objective **obj,
                               char *name, size_t n)
{
    char p[600];
    if (!calibration_table(c, p, sizeof p))
        return sim_fail(SIM_ERR_FORMAT, "param_draws needs calibrate.table");
    const char *slash = strrchr(p, '/');
    snprintf(name, n, "%.200s", slash ? slash + 1 : p);
    static table cal;
    sim_err e = case_read_table(c, &cal, p);
    if (e == SIM_OK)
        e = calib_objective_open(obj, trace, &cal, unit);
    return e;
}

/* The draws against the parameters' ranges: the Gaussian's mass inside
 * them (draws / deviations drawn) and the fitted values whose own 1-sigma
 * reaches past their range (over 10% of their marginal outside). */
static void range_notes(vcase *c, json_t *notes, const pdraw *d,
                        const params *at, const pdraw_band *b)
{
    char buf[760];
    int n = snprintf(buf, sizeof buf, "parameter draws against the "
                     "declared ranges: the proposal's mass inside them "
                     "%.3g (%lu deviations for %u draws; those leaving a "
                     "range are drawn again)", (double)b->n /
                     (double)b->tries, b->tries, b->n);
    const char *sep = "; 1-sigmas reaching past the range (share of the "
                      "value's own Gaussian outside): ";
    for (int i = 0; i < d->n; i++) {
        double o = pdraw_outside_share(d, i, at);
        if (o < 0.1 || n < 0 || (size_t)n >= sizeof buf)
            continue;
        param_id id = d->id[i];
        n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%s %.4g +- %.3g "
                      "(%.0f%%)", sep, param_name(id), at->v[id],
                      d->sigma[i], 100 * o);
        sep = ", ";
    }
    note(c, notes, "%s", buf);
}

/* seeds 0: the model's own noise on the objective, the point at other
 * seeds (the re-check at the fit's own seed alone) */
static void noise_notes(vcase *c, json_t *notes, json_t *jc,
                        const pdraw_band *b)
{
    char buf[760];
    double xs[PDRAW_NOISE_SEEDS], lo, hi;
    json_t *jn = json_object(), *jx = json_array();
    for (int k = 0; k < PDRAW_NOISE_SEEDS; k++) {
        xs[k] = 2 * (b->cost_seed[k] - b->cost_fit) / b->resvar;
        json_array_append_new(jx, json_real(xs[k]));
    }
    double nes = pdraw_noise_ess(b->n, b->noise_sd);
    json_object_set_new(jn, "excess", jx);
    json_object_set_new(jn, "sd", json_real(b->noise_sd));
    json_object_set_new(jn, "ess_from_noise", json_real(nes));
    json_object_set_new(jc, "model_noise", jn);
    gsl_sort(xs, 1, PDRAW_NOISE_SEEDS);
    gsl_stats_minmax(&lo, &hi, xs, 1, PDRAW_NOISE_SEEDS);
    snprintf(buf, sizeof buf, "the model's own noise on that re-check: the "
             "point itself at %d other seeds of the model has excess %.1f "
             ".. %.1f, median %.1f, sd %.1f; noise of that sd alone leaves "
             "an ESS of about %.2g of %u%s", PDRAW_NOISE_SEEDS, lo, hi,
             gsl_stats_median_from_sorted_data(xs, 1, PDRAW_NOISE_SEEDS),
             b->noise_sd, nes, b->n,
             nes < pdraw_ess_floor(b->n)
                 ? ": the weights and the quantile read the model's noise "
                   "as much as the table"
                 : "");
    note(c, notes, "%s", buf);
}

/* seeds K: the model's noise the re-check carried (docs/calibration.md,
 * "Weighing the draws"): the point's own spread over the seeds, the fit's
 * seed advantage left out, the noise of a draw's excess, the departures
 * beyond it and the shrinkage of the log weights they give */
static void seeds_notes(vcase *c, json_t *notes, json_t *jc,
                        const pdraw_band *b)
{
    char buf[760];
    const pdraw_weighing *g = &b->wg;
    unsigned K = b->seeds;
    double adv = 2 * (b->cost_fit - b->cost_own) / b->resvar;
    double indep = sqrt(2.0 / K) * g->point_sd;
    json_t *jn = json_object(), *js = json_array(), *jp = json_array();
    for (unsigned j = 0; j < K; j++) {
        json_array_append_new(js, json_real(b->seed[j]));
        json_array_append_new(jp, json_real(b->cost_pt[j]));
    }
    json_object_set_new(jn, "seed_list", js);
    json_object_set_new(jn, "objective_at_point_per_seed", jp);
    json_object_set_new(jn, "objective_at_own_seed", json_real(b->cost_own));
    json_object_set_new(jn, "seed_advantage", json_real(adv));
    json_object_set_new(jn, "point_sd", json_real(g->point_sd));
    json_object_set_new(jn, "tau", json_real(g->tau));
    json_object_set_new(jn, "tau_if_independent", json_real(indep));
    json_object_set_new(jn, "departure_sd", json_real(sqrt(g->dep_var)));
    json_object_set_new(jn, "shrink", json_real(g->shrink));
    json_object_set_new(jn, "ess_unshrunk", json_real(g->ess_plain));
    json_object_set_new(jn, "chi2_q95_plain", json_real(g->q95_plain));
    json_object_set_new(jc, "noise", jn);
    const char *say = "";
    if (g->shrink < 0.5)
        say = ": the noise is most of the draws' differences - the weights "
              "are near equal because the re-check cannot tell the draws "
              "apart, not because the table allows them all";
    else if (b->ess < pdraw_ess_floor(b->n))
        say = ": the draws differ beyond the noise - the table, not the "
              "seed, rejects most of them";
    snprintf(buf, sizeof buf, "the model's own noise on that re-check: one "
             "evaluation of the point varies by sd %.1f over the %u seeds; "
             "at its own seed %.0f its excess is %+.1f against their mean "
             "(the seed the fit minimised, when it ran at it: out of the "
             "comparison); a "
             "draw's excess, the mean of %u paired differences, is "
             "uncertain by sd %.1f (pooled over the draws; %.1f were the "
             "draw's noise independent of the point's), its departure "
             "from %s varies by sd %.1f beyond that: log "
             "weights shrunk by %.2f (ESS %.1f of %u unshrunk)%s",
             g->point_sd, K, b->seed_own, -adv, K, g->tau, indep,
             b->proposal == PDRAW_CURVATURE ? "the proposal's quadratic"
                                            : "the linear model",
             sqrt(g->dep_var),
             g->shrink, g->ess_plain, b->n, say);
    note(c, notes, "%s", buf);
}

/* One measurement along a direction (pdraw_probe) as JSON */
static json_t *probe_json(const pdraw_probe *m)
{
    json_t *o = json_object();
    json_object_set_new(o, "step_plus_sigma", json_real(m->hp));
    json_object_set_new(o, "step_minus_sigma", json_real(m->hm));
    json_object_set_new(o, "excess_plus", json_real(m->xp));
    json_object_set_new(o, "excess_minus", json_real(m->xm));
    json_object_set_new(o, "curvature", json_real(m->curv));
    json_object_set_new(o, "curvature_se", json_real(m->curv_se));
    json_object_set_new(o, "slope", json_real(m->slope));
    json_object_set_new(o, "slope_se", json_real(m->slope_se));
    return o;
}

/* The proposal the draws came from (JSON param_draws.proposal) and, for
 * the curvature one, what was measured along each eigen-direction: a note
 * with the narrowed directions, sharpest first. */
static void proposal_notes(vcase *c, json_t *notes, json_t *jb,
                           const pdraw_band *b)
{
    const pdraw_curv *cv = &b->curv;
    json_t *jp = json_object();
    json_object_set_new(jp, "kind", json_string(b->proposal == PDRAW_CURVATURE
                                                    ? "curvature"
                                                    : "linear"));
    json_object_set_new(jb, "proposal", jp);
    if (b->proposal != PDRAW_CURVATURE)
        return;
    json_t *jd = json_array();
    int order[PARAM__COUNT], nn = 0, meas = 0, refined = 0;
    double klo = INFINITY, khi = -INFINITY;
    for (int j = 0; j < cv->n; j++) {
        const pdraw_dir *r = &cv->dir[j];
        json_t *o = json_object(), *jl = json_array();
        for (int k = 0; k < 2; k++)
            if (r->lead[k] >= 0)
                json_array_append_new(jl, json_string(param_name(
                                              (param_id)r->lead[k])));
        json_object_set_new(o, "leads", jl);
        json_object_set_new(o, "wide", probe_json(&r->wide));
        if (r->refined)
            json_object_set_new(o, "fine", probe_json(&r->fine));
        json_object_set_new(o, "curvature_used", json_real(r->used));
        json_object_set_new(o, "scale", json_real(r->scale));
        json_object_set_new(o, "shift_sigma", json_real(r->shift));
        json_array_append_new(jd, o);
        if (!(r->wide.hp > 0))
            continue;
        refined += r->refined;
        meas++;
        if (r->used > 1) {
            int k = nn++;
            while (k > 0 && cv->dir[order[k - 1]].used < r->used) {
                order[k] = order[k - 1];
                k--;
            }
            order[k] = j;
        } else {
            klo = fmin(klo, r->wide.curv);
            khi = fmax(khi, r->wide.curv);
        }
    }
    json_object_set_new(jp, "directions", jd);
    json_object_set_new(jp, "objective_evaluations", json_integer(cv->evals));
    json_object_set_new(jp, "narrowed", json_integer(cv->narrowed));
    json_object_set_new(jp, "shifted", json_integer(cv->shifted));
    char buf[760];
    int n = snprintf(buf, sizeof buf, "parameter draws' proposal: the "
                     "covariance's %d eigen-directions (%d measured, %d "
                     "again at the narrowed scale; docs/calibration.md, "
                     "\"Drawing along the measured curvature\"; %u replays "
                     "of the calibration objective), %u narrowed to "
                     "1/sqrt(c') of their sd, the centre moved along %u",
                     cv->n, meas, refined, cv->evals, cv->narrowed,
                     cv->shifted);
    /* the narrowed directions, sharpest first, as many as the line
     * holds beside its end */
    char tail[160] = "", ent[200];
    if (isfinite(klo))
        snprintf(tail, sizeof tail, "; the other %d kept at the linearised "
                 "sd (c %.2g .. %.2g)", meas - nn, klo, khi);
    const char *sep = ": ";
    int k = 0;
    for (; k < nn && n >= 0; k++) {
        const pdraw_dir *r = &cv->dir[order[k]];
        char mv[40] = "";
        if (r->shift != 0)
            snprintf(mv, sizeof mv, ", moved %+.2g sd", r->shift);
        int m = snprintf(ent, sizeof ent, "%s%s%s%s c' %.3g (x%.2g%s)", sep,
                         param_name((param_id)r->lead[0]),
                         r->lead[1] >= 0 ? "/" : "",
                         r->lead[1] >= 0 ? param_name((param_id)r->lead[1])
                                         : "",
                         r->used, r->scale, mv);
        if ((size_t)n + (size_t)m + strlen(tail) + 24 >= sizeof buf)
            break;
        n += snprintf(buf + n, sizeof buf - (size_t)n, "%s", ent);
        sep = ", ";
    }
    if (k < nn && n >= 0 && (size_t)n < sizeof buf)
        n += snprintf(buf + n, sizeof buf - (size_t)n, " and %d more", nn - k);
    if (n >= 0 && (size_t)n < sizeof buf)
        snprintf(buf + n, sizeof buf - (size_t)n, "%s", tail);
    note(c, notes, "%s", buf);
}

/* param_draws: the spread of the prediction over draws of the calibrated
 * point, relative to the draws' mean (so it applies to a pooled or scaled
 * prediction alike), against the comparison's error: the total's and
 * each major row's sum and count; then the draws re-checked against the
 * calibration table (named cal): weighted, and within the chi-square
 * quantile. */
static void band_notes(vcase *c, json_t *notes, json_t *json,
                       const pdraw_band *b, const tcmp *cmp, const char *cal)
{
    char buf[760];
    /* the comparison's total: the traced duration, or the exit rows' time
     * against a table without guest time (perf) */
    const double *tot = cmp->handled ? b->handled : b->total;
    const double *base = cmp->handled ? b->base_handled : b->base_total;
    const char *what = cmp->handled ? "handled time" : "total";
    double rel = tot[1] / tot[0];
    int n = snprintf(buf, sizeof buf, "parameter draws: %u of the calibrated "
                     "point (%s): %s sd "
                     "%.2f%% (draws %+.2f%% .. %+.2f%% of their mean; the "
                     "untransformed model's %s at the same draws: sd "
                     "%.2f%%); the %s's error is %+.1f sd", b->n,
                     b->proposal == PDRAW_CURVATURE
                         ? "its covariance narrowed by the measured "
                           "curvature"
                         : "its 1-sigmas and correlations",
                     what, 100 * rel, 100 * (tot[2] / tot[0] - 1),
                     100 * (tot[3] / tot[0] - 1), what,
                     100 * base[1] / base[0], what,
                     rel > 0 ? cmp->err_total / rel : INFINITY);
    json_t *jb = json_object(), *jr = json_object();
    json_object_set_new(jb, "draws", json_integer(b->n));
    json_object_set_new(jb, "total_sd_pct", json_real(100 * rel));
    json_object_set_new(jb, "untransformed_total_sd_pct",
                        json_real(100 * base[1] / base[0]));
    json_object_set_new(jb, "handled_only", json_boolean(cmp->handled));
    band_rows(buf, sizeof buf, n, "; sum sd (err in sd) of the rows >= the "
              "threshold: ", cmp, b, &b->sum[0][0], &b->count[0][0], 4, jr);
    json_object_set_new(jb, "rows", jr);
    json_object_set_new(json, "param_draws", jb);
    note(c, notes, "%s", buf);
    proposal_notes(c, notes, jb, b);
    if (!b->rechecked)
        return;

    /* the re-check: each draw's calibration objective against the fit's */
    json_t *jc = json_object(), *jd = json_array();
    json_object_set_new(jc, "calibration_table", json_string(cal));
    json_object_set_new(jc, "objective_at_point", json_real(b->cost_fit));
    json_object_set_new(jc, "fitted_values", json_integer(b->k));
    json_object_set_new(jb, "recheck", jc);
    if (!b->weighted) {
        for (unsigned k = 0; k < b->n; k++)
            json_array_append_new(jd, json_real(b->cost[k]));
        json_object_set_new(jc, "objective", jd);
        snprintf(buf, sizeof buf, "parameter draws re-checked against the "
                 "calibration table %s: the parameters file has no '; "
                 "resvar' line (a sim calibrate before the draws were "
                 "weighted): not weighted (calibrate again for the "
                 "weights)", cal);
        note(c, notes, "%s", buf);
        return;
    }
    double *x = calloc(b->n, sizeof *x);
    if (!x)
        return;
    unsigned K = b->seeds;
    for (unsigned k = 0; k < b->n; k++) {
        x[k] = b->x[k];
        json_t *o = json_object();
        json_object_set_new(o, "objective", json_real(b->cost[k]));
        json_object_set_new(o, "excess", json_real(x[k]));
        json_object_set_new(o, "m2", json_real(b->m2[k]));
        json_object_set_new(o, "outside", json_integer(b->outside[k]));
        json_object_set_new(o, "weight", json_real(b->w[k]));
        json_object_set_new(o, "within_chi2", json_boolean(b->within[k]));
        json_object_set_new(o, "predicted_usec",
                            json_real(cmp->handled ? b->handled_k[k]
                                                   : b->total_k[k]));
        if (K) {
            json_t *js = json_array();
            for (unsigned j = 0; j < K; j++)
                json_array_append_new(js,
                                      json_real(b->cost_ks[k * K + j]));
            json_object_set_new(o, "objective_per_seed", js);
        }
        json_array_append_new(jd, o);
    }
    json_object_set_new(jc, "per_draw", jd);
    double wmax = gsl_stats_max(b->w, 1, b->n);
    gsl_sort(x, 1, b->n);
    double med = gsl_stats_median_from_sorted_data(x, 1, b->n);
    bool trusted = b->ess >= pdraw_ess_floor(b->n);
    json_object_set_new(jc, "resvar", json_real(b->resvar));
    json_object_set_new(jc, "chi2_q95", json_real(b->chi2q));
    json_object_set_new(jc, "within_chi2", json_integer(b->n_within));
    json_object_set_new(jc, "clamped", json_integer(b->n_outside));
    json_object_set_new(jc, "mass_in_ranges",
                        json_real((double)b->n / (double)b->tries));
    json_object_set_new(jc, "ess", json_real(b->ess));
    json_object_set_new(jc, "ess_floor", json_real(pdraw_ess_floor(b->n)));
    json_object_set_new(jc, "ess_trusted", json_boolean(trusted));
    json_object_set_new(jc, "max_weight", json_real(wmax));
    json_object_set_new(jc, "seeds", json_integer(K));
    char ess[120] = "", where[200] = "", q[80];
    if (!trusted)
        snprintf(ess, sizeof ess, " - TOO FEW TO TRUST (below %.0f): the "
                 "weighted numbers rest on %s", pdraw_ess_floor(b->n),
                 b->ess < 1.5 ? "one draw" : "a few draws");
    snprintf(q, sizeof q, "%.1f", b->chi2q);
    if (K) {
        snprintf(where, sizeof where, " at the model's seeds %.0f..%.0f, "
                 "the point and each draw alike (their mean; not the "
                 "point's own seed %.0f)", b->seed[0], b->seed[K - 1],
                 b->seed_own);
        snprintf(q, sizeof q, "%.1f, %.1f with the noise",
                 b->wg.q95_plain, b->chi2q);
    }
    snprintf(buf, sizeof buf, "parameter draws re-checked against the "
             "calibration table %s (its objective, docs/calibration.md "
             "\"Weighing the draws\")%s: excess 2 (S - S_fit) / s^2 %.1f "
             ".. %.1f, median %.1f (s^2 %.4g; chi-square 95%% quantile of "
             "%d fitted values %s: %u of %u draws within; %u draws "
             "clamped); importance weights: ESS %.1f of %u, largest weight "
             "%.2f%s", cal, where, x[0], x[b->n - 1], med, b->resvar, b->k,
             q, b->n_within, b->n, b->n_outside, b->ess, b->n, wmax, ess);
    free(x);
    note(c, notes, "%s", buf);
    if (K)
        seeds_notes(c, notes, jc, b);
    else
        noise_notes(c, notes, jc, b);
    char lead[120];
    snprintf(lead, sizeof lead, "weighted draws (ESS %.1f of %u%s)", b->ess,
             b->n, trusted ? "" : ", too few to trust");
    json_object_set_new(jc, "weighted",
                        view_notes(c, notes, lead, b, &b->wv, cmp));
    if (b->n_within >= 2) {
        snprintf(lead, sizeof lead, "the %u draws within the chi-square "
                 "quantile alone%s", b->n_within,
                 b->n_within < pdraw_ess_floor(b->n) ? " (too few to trust)"
                                                     : "");
        json_object_set_new(jc, "within",
                            view_notes(c, notes, lead, b, &b->cv, cmp));
    }
}

/* budget.counts: every name a row of the compared tables (with fold = 1
 * the EMUL_* rows are inside EMULINST: a check of one would never run) */
static sim_err count_rows(const vcase *c, const char *list, bool fold)
{
    for (const char *s = list; s && *s;) {
        s += strspn(s, ", \t");
        size_t k = strcspn(s, ", \t");
        int t = k ? exit_from_namen(s, (unsigned)k) : -1;
        if (k && t < 0)
            return vcase_fail(c, "budget.counts", "budget.counts: '%.*s' is "
                                                  "not a row (EMULINST, DEC, "
                                                  "... as in the tables)",
                              (int)k, s);
        if (k && fold && t != EXIT_EMULINST && exit_is_emul((exit_type)t))
            return vcase_fail(c, "budget.counts", "budget.counts: '%.*s' is "
                                                  "folded into EMULINST "
                                                  "(fold = 1)",
                              (int)k, s);
        s += k;
    }
    return SIM_OK;
}

sim_err validate_whatif(vcase *c, vstatus *st, char *verdict,
                        size_t verdict_len, json_t *json)
{
    json_t *notes = json_array();
    json_object_set_new(json, "notes", notes);
    char why[1400];
    sim_err e = known_requirement(c);
    if (e != SIM_OK)
        return e;
    if (requirement_missing(c, why, sizeof why)) {
        *st = VSKIP;
        snprintf(verdict, verdict_len, "skipped: %s", why);
        return SIM_OK;
    }
    const char *spec = vcase_get(c, "transform");
    if (!spec)
        return sim_fail(SIM_ERR_FORMAT, "%s: no 'transform'", c->path);
    double total_budget, row_budget, count_budget, threshold, fold;
    e = vcase_num(c, "budget.total", 5, &total_budget);
    if (e == SIM_OK)
        e = vcase_num(c, "budget.rows", 15, &row_budget);
    if (e == SIM_OK)
        e = vcase_num(c, "budget.count", 10, &count_budget);
    if (e == SIM_OK)
        e = vcase_num(c, "budget.threshold", 1, &threshold);
    if (e == SIM_OK)
        e = vcase_num(c, "fold", 1, &fold);
    if (e != SIM_OK)
        return e;
    /* a budget is a percentage >= 0 (a negative one fails every case, a
     * threshold above 100 leaves no row to judge), fold 0 or 1 */
    static const char *const pct[] = {"budget.total", "budget.rows",
                                      "budget.count"};
    const double pv[] = {total_budget, row_budget, count_budget};
    for (size_t i = 0; i < 3; i++)
        if (pv[i] < 0)
            return vcase_fail(c, pct[i], "%s = %g: expected a percentage >= 0",
                              pct[i], pv[i]);
    if (threshold < 0 || threshold > 100)
        return vcase_fail(c, "budget.threshold", "budget.threshold = %g: "
                                                 "expected a percentage in "
                                                 "0..100", threshold);
    if (fold != 0 && fold != 1)
        return vcase_fail(c, "fold", "fold = %g: expected 0 or 1", fold);
    /* param_draws = N: the prediction again at N draws of the calibrated
     * point (docs/validation.md): how far the parameters the table leaves
     * free move it */
    double ndraws;
    if ((e = vcase_num(c, "param_draws", 0, &ndraws)) != SIM_OK)
        return e;
    if (ndraws != floor(ndraws) || ndraws < 0 || ndraws == 1 || ndraws > 1000)
        return vcase_fail(c, "param_draws", "param_draws = %g: expected 0 "
                                            "(none) or a whole number of "
                                            "draws in 2..1000", ndraws);
    /* param_draws.seeds = K: the re-check at K seeds of the model, the
     * point's and every draw's (docs/calibration.md, "Weighing the
     * draws"); 0 the fit's own seed alone */
    double nrseeds;
    if ((e = vcase_num(c, "param_draws.seeds", PDRAW_RECHECK_SEEDS,
                       &nrseeds)) != SIM_OK)
        return e;
    if (nrseeds != floor(nrseeds) || nrseeds < 0 || nrseeds == 1 ||
        nrseeds > PDRAW_SEEDS_MAX)
        return vcase_fail(c, "param_draws.seeds", "param_draws.seeds = %g: "
                          "expected 0 (the fit's own seed alone) or a whole "
                          "number of the model's seeds in 2..%d",
                          nrseeds, PDRAW_SEEDS_MAX);
    /* param_draws.proposal = linear | curvature: the Gaussian as the fit
     * linearised it, or narrowed along its eigen-directions by the
     * objective's measured curvature (docs/calibration.md, "Drawing along
     * the measured curvature") */
    pdraw_proposal prop = PDRAW_CURVATURE;
    const char *pk = vcase_get(c, "param_draws.proposal");
    if (pk && !strcmp(pk, "linear"))
        prop = PDRAW_LINEAR;
    else if (pk && strcmp(pk, "curvature") != 0)
        return vcase_fail(c, "param_draws.proposal", "param_draws.proposal "
                          "= %s: expected linear (the fit's linearised "
                          "covariance) or curvature (narrowed by the "
                          "measured curvature)", pk);
    if (ndraws > 0 && !vcase_get(c, "calibrate.table"))
        return vcase_fail(c, "param_draws", "param_draws needs "
                                            "calibrate.table: the draws are "
                                            "of the calibrated parameters' "
                                            "uncertainty");
    const char *counts = vcase_get(c, "budget.counts");
    if ((e = count_rows(c, counts, fold != 0)) != SIM_OK)
        return e;
    if (vcase_get(c, "budget.count") && !counts)
        return vcase_fail(c, "budget.count", "budget.count without "
                                             "budget.counts (the rows whose "
                                             "counts it bounds)");

    /* seeds = N: every step runs with the host-noise seeds K, K+1, ...
     * (K = baseline.seed, default 1) and the N runs' tables are compared
     * pooled (docs/validation.md): one run of a heavy-tailed host process
     * against another is no test of a transform */
    double nseeds, seed0;
    e = vcase_num(c, "seeds", 1, &nseeds);
    if (e == SIM_OK)
        e = vcase_num(c, "baseline.seed", 1, &seed0);
    if (e != SIM_OK)
        return e;
    if (nseeds < 1 || nseeds > 1000 || nseeds != (double)(unsigned)nseeds ||
        seed0 < 0 || seed0 + nseeds - 1 > 4294967295.0 ||
        seed0 != floor(seed0))
        return vcase_fail(c, vcase_line(c, "seeds") ? "seeds"
                                                    : "baseline.seed",
                          "seeds = %.10g, baseline.seed = %.10g: expected a whole "
                          "number of runs in 1..1000 and seeds (baseline.seed "
                          ".. + seeds - 1) in 0..2^32-1", nseeds, seed0);
    unsigned n_runs = (unsigned)nseeds;
    const char *set = vcase_get(c, "set");
    const char *how = vcase_get(c, "baseline");
    const char *table_rec = vcase_get(c, "baseline.table.record");
    bool synth = how && !strcmp(how, "synth-like");
    if (table_rec && !synth)
        return vcase_fail(c, "baseline.table.record", "baseline.table.record "
                          "needs baseline = synth-like (it is the table the "
                          "baseline is synthesised from)");
    if (table_rec && vcase_get(c, "baseline.table"))
        return vcase_fail(c, "baseline.table.record", "baseline.table and "
                          "baseline.table.record: give one (a table file, or "
                          "the recorded run whose table stands for one)");
    if (vcase_get(c, "baseline.table.form") && !table_rec)
        return vcase_fail(c, "baseline.table.form", "baseline.table.form "
                          "needs baseline.table.record (the form its "
                          "recorded table is written in)");
    int form;
    if ((e = record_form(c, &form)) != SIM_OK)
        return e;
    const char *ct = vcase_get(c, "calibrate.table");
    if (ct && !strcmp(ct, "baseline") && !synth)
        return vcase_fail(c, "calibrate.table", "calibrate.table = baseline "
                          "needs baseline = synth-like (the baseline's "
                          "table)");
    bool recorded = table_rec || (how && !strcmp(how, "record"));
    if (set && (!vcase_get(c, "measured.record") || !recorded))
        return vcase_fail(c, "set", "set = %s needs measured.record and "
                                    "baseline = record or "
                                    "baseline.table.record: it applies to "
                                    "both recordings and the prediction "
                                    "alike", set);
    if (vcase_get(c, "record.params") && !recorded &&
        !vcase_get(c, "measured.record"))
        return vcase_fail(c, "record.params", "record.params: the case "
                          "records nothing (baseline = record, "
                          "baseline.table.record, measured.record)");
    if (set) {
        char buf[256];
        int k = 0;
        snprintf(buf, sizeof buf, "%s", set);
        /* each K=V a parameter in range, here with the case's line, not
         * as the first recording's failure */
        static params chk;
        params_init(&chk);
        for (char *t = strtok(buf, ", \t"); t; t = strtok(NULL, ", \t")) {
            k++;
            if (params_set_str(&chk, t) != SIM_OK)
                return vcase_fail(c, "set", "set: %s", sim_errmsg());
        }
        if (k > MAX_SET || strlen(set) >= sizeof buf)
            return vcase_fail(c, "set", "set: at most %d settings",
                              MAX_SET);
    }
    /* seeds = N against a measured table: N draws of the synthesised
     * baseline, each calibrated and predicted, their predictions averaged
     * (a table is one run of its own; what varies is the trace the
     * pipeline makes of it) */
    bool draws = n_runs > 1 && !vcase_get(c, "measured.record");
    if (draws && !synth)
        return vcase_fail(c, "seeds", "seeds = %u needs measured.record "
                                      "(host-noise seeds, both sides pooled) "
                                      "or baseline = synth-like (draws of "
                                      "the synthesised baseline, averaged): "
                                      "a measured table is one run of its "
                                      "own", n_runs);

    /* the tables' accounting, read by every step below */
    stats_unit unit;
    e = case_unit(c, &unit);
    if (e != SIM_OK)
        return e;

    /* the transform too (its sites come later): a misspelt one failed
     * after the baseline and the calibration, minutes into the case */
    whatif_chain *early = NULL;
    if (whatif_chain_parse(&early, spec) != SIM_OK)
        return vcase_fail(c, "transform", "%s", sim_errmsg());
    whatif_chain_free(early);

    /* a file that is not there fails now, not after minutes of baseline,
     * calibration and prediction (existence only: the measured table's
     * contents are still read at step 4) */
    static const char *const files[] = {"baseline.trace", "baseline.table",
                                        "params", "calibrate.table",
                                        "transform.sites", "measured.table",
                                        "record.params"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char fp[600];
        if (i == 3 && ct && !strcmp(ct, "baseline"))
            continue; /* the baseline's table, made at step 1 */
        if (vcase_path(c, files[i], fp, sizeof fp) && access(fp, R_OK) != 0)
            return vcase_fail(c, files[i], "%s = %s: %s", files[i],
                              vcase_get(c, files[i]), strerror(errno));
        /* a directory passes access(): it failed at its step, the
         * measured table's after the whole prediction */
        struct stat sb;
        if (vcase_path(c, files[i], fp, sizeof fp) && stat(fp, &sb) == 0 &&
            S_ISDIR(sb.st_mode))
            return vcase_fail(c, files[i], "%s = %s: is a directory",
                              files[i], vcase_get(c, files[i]));
    }
    if (!vcase_get(c, "measured.table") && !vcase_get(c, "measured.record"))
        return sim_fail(SIM_ERR_FORMAT, "%s: no measured.table or "
                                        "measured.record", c->path);
    /* the measured table is parsed now as well, and its numbers dropped:
     * a malformed file, or one that fold = 0 cannot compare, fails before
     * the prediction's minutes, not after them (a 10M-exit case spent 12
     * minutes before such a refusal). The prediction never sees it: its
     * numbers are read again at step 4, for the comparison alone. */
    char mp[600];
    if (vcase_path(c, "measured.table", mp, sizeof mp)) {
        static table early_meas;
        sim_err me = case_read_table(c, &early_meas, mp);
        if (me != SIM_OK)
            return me;
        /* a synthesised or recorded baseline's records carry cpu440's
         * EMUL_* subtypes, so its prediction has those rows (a trace
         * file's is known after the prediction: checked there) */
        const char *bh = vcase_get(c, "baseline");
        bool subtyped = bh && (!strcmp(bh, "synth-like") ||
                               !strcmp(bh, "record"));
        if (!fold && subtyped && !emul_rows(&early_meas))
            return vcase_fail(c, "fold", "fold = 0, but the measured table "
                              "has no EMUL_* row (the seed's layout: its "
                              "EMULINST holds every emulated instruction); "
                              "fold = 1 compares it with the prediction's");
        memset(&early_meas, 0, sizeof early_meas);
    }
    /* the synthesis's and the prediction's values, with the case's line
     * and before the first step (they failed as a step's message, or,
     * mix, after the baseline and the calibration) */
    const char *bx = vcase_get(c, "baseline.exits");
    unsigned long long nx;
    if (synth && bx && (cli_parse_u64(bx, &nx) || nx == 0 || nx > (1ULL << 40)))
        return vcase_fail(c, "baseline.exits", "baseline.exits = %s: "
                          "expected a number of exits from 1 to 2^40 "
                          "(k/M/G suffixes: 10M)", bx);
    if (synth && seed0 < 1)
        return vcase_fail(c, "baseline.seed", "baseline.seed = %.10g: a "
                          "synthesised baseline's seed is 1 .. 4294967295",
                          seed0);
    static const char *const mixes[] = {"baseline.mix", "mix"};
    for (size_t i = 0; i < 2; i++) {
        char mb[600];
        const char *m = case_mix(c, mixes[i], mb, sizeof mb);
        static exitprof chk;
        if (m && strcmp(m, "none") != 0 && exitprof_load(&chk, m) != SIM_OK)
            return vcase_fail(c, mixes[i], "%s", sim_errmsg());
    }

    /* 1-3: predict, with no access to the measured data */
    char trace[600];
    snprintf(trace, sizeof trace, "%s/base.bin", c->tmp);
    static params prm;
    static table pred, own, model;
    table_init(&pred);
    table_init(&own);
    table_init(&model);
    bool have_own = true;
    uint64_t trace_exits = 0;
    static pdraw_band band;
    bool have_band = false;
    char cal_name[300] = "";
    /* each run's total, traced [k] and handled (its exit rows) [n_runs + k]:
     * against a table without guest time (perf's) the handled one, as the
     * comparison's (a perf table's traced duration is unknown: the draws'
     * errors read +inf% .. -inf%) */
    double *tot_pred = calloc(2 * (size_t)n_runs, sizeof *tot_pred);
    double *tot_meas = calloc(2 * (size_t)n_runs, sizeof *tot_meas);
    /* each seed's calibration on its own table: its total, then the part
     * in the rows it fits (cal_fitted) */
    double *cal_fit = calloc(2 * (size_t)n_runs, sizeof *cal_fit);
    double *cal_fitted = cal_fit ? cal_fit + n_runs : NULL;
    if (!tot_pred || !tot_meas || !cal_fit) {
        free(tot_pred);
        free(tot_meas);
        free(cal_fit);
        return sim_fail(SIM_ERR_NOMEM, "validate: out of memory");
    }
    for (unsigned k = 0; k < n_runs; k++)
        cal_fit[k] = cal_fitted[k] = NAN;
    for (unsigned k = 0; k < n_runs && e == SIM_OK; k++) {
        unsigned long seed = (unsigned long)seed0 + k;
        json_t *nk = k == 0 ? notes : NULL;
        e = baseline(c, trace, seed, nk);
        /* parameters once, or per seed when the table calibrated on is
         * each seed's own recorded one */
        if (e == SIM_OK && (k == 0 || draws || (table_rec && ct &&
                                                !strcmp(ct, "baseline")))) {
            char unfit[200];
            e = calibrate(c, trace, &prm, nk, &cal_fit[k], &cal_fitted[k],
                          unfit, sizeof unfit);
            /* a calibration that does not reproduce its own table is what
             * the prediction stands on: said where the verdict is read
             * (a board's table the model fits badly, a fit stuck far
             * from it), not only as the fit's number above; a miss that
             * is all in a row the fit gives no weight (a table's own
             * EMUL_WAIT: the guest's idle phase, which the synthesised
             * trace draws at random in the tick) is not the costs' and
             * is said as such */
            if (e == SIM_OK && k == 0 && isfinite(cal_fit[k]) &&
                fabs(cal_fit[k]) > total_budget && unfit[0] &&
                fabs(cal_fitted[k]) <= total_budget) {
                char w[600];
                snprintf(w, sizeof w, "the calibrated model misses its own "
                         "table's total by %+.1f%%, more than budget.total "
                         "(%g%%), in a row it does not fit: %s; its fitted "
                         "rows %+.1f%%, within it. A synthesised trace idles "
                         "at a random point of the guest's tick and the "
                         "prediction's waits are drawn so too (docs/"
                         "calibration.md, \"Idle waits\")",
                         cal_fit[k], total_budget, unfit, cal_fitted[k]);
                note(c, nk, "%s", w);
            } else if (e == SIM_OK && k == 0 && isfinite(cal_fit[k]) &&
                fabs(cal_fit[k]) > total_budget) {
                char w[400];
                snprintf(w, sizeof w, "WARNING: the calibrated model misses "
                         "its own table's total by %+.1f%%, more than "
                         "budget.total (%g%%): the prediction stands on a "
                         "model that does not reproduce the baseline; its "
                         "rows: sim calibrate on the baseline trace (docs/"
                         "validation.md, \"Your own board's tables\")",
                         cal_fit[k], total_budget);
                note(c, nk, "%s", w);
            }
            if (e == SIM_OK && set) {
                char buf[256];
                snprintf(buf, sizeof buf, "%s", set);
                for (char *t = strtok(buf, ", \t"); t && e == SIM_OK;
                     t = strtok(NULL, ", \t"))
                    e = params_set_str(&prm, t);
                if (e == SIM_OK)
                    note(c, nk, "set in every recording, the calibration "
                                "and the prediction: %s", set);
            }
            if (e == SIM_OK && k == 0 && n_runs > 1 && table_rec && ct &&
                !strcmp(ct, "baseline"))
                note(c, notes, "%s", "each seed is calibrated on its own "
                                     "recorded table");
            if (e == SIM_OK && k == 0 && draws && ct)
                note(c, notes, "%s", "each draw is calibrated on the table "
                                     "(its own synthesised trace)");
            if (e == SIM_OK && k == 0 && synth && n_runs == 1 &&
                !vcase_get(c, "measured.record")) {
                char sd[24];
                snprintf(sd, sizeof sd, "%lu", seed);
                note(c, notes, "one draw of the synthesised baseline, seed "
                               "%s (seeds = N averages N draws and gives "
                               "their spread; docs/validation.md)", sd);
            }
        }
        if (e == SIM_OK && k == 0) {
            if (e == SIM_OK && n_runs > 1) {
                char buf[200];
                if (draws)
                    snprintf(buf, sizeof buf, "%u draws of the synthesised "
                             "baseline, seeds %lu..%lu (sim trace synth "
                             "--seed, the prediction's seed alike), "
                             "predictions averaged", n_runs, seed,
                             seed + n_runs - 1);
                else
                    snprintf(buf, sizeof buf, "%u runs, host-noise seeds "
                             "%lu..%lu (--set seed=N in every recording "
                             "and prediction), tables pooled",
                             n_runs, seed, seed + n_runs - 1);
                note(c, notes, "%s", buf);
            }
        }
        /* the prediction's noise seed: each run's; a synthesised
         * baseline's given seed is that draw's too, so that a draw of
         * seeds = N is what seeds = 1 with its baseline.seed predicts */
        if (e == SIM_OK &&
            (n_runs > 1 || (synth && vcase_get(c, "baseline.seed"))))
            e = params_set(&prm, PARAM_seed, (double)seed, c->path);
        /* transform.sites: a script listing the guest kernel's template
         * sites (its plain vmlinux: the workload, not the measurement) */
        char spec_buf[1400], script[600], sites[600];
        snprintf(spec_buf, sizeof spec_buf, "%s", spec);
        if (e == SIM_OK &&
            vcase_path(c, "transform.sites", script, sizeof script)) {
            snprintf(sites, sizeof sites, "%s/sites.txt", c->tmp);
            e = k == 0 ? run_sites(c, script, sites) : SIM_OK;
            if (e == SIM_OK) {
                size_t len = strlen(spec_buf);
                snprintf(spec_buf + len, sizeof spec_buf - len, ":sites=%s",
                         sites);
                if (k == 0)
                    note(c, notes, "template sites: %s of the plain vmlinux",
                         vcase_get(c, "transform.sites"));
            }
        }
        whatif_chain *chain = NULL;
        if (e == SIM_OK && (e = whatif_chain_parse(&chain, spec_buf)) != SIM_OK)
            e = vcase_fail(c, "transform", "%s", sim_errmsg());
        static stats sb, sp;
        whatif_result res;
        /* the guest's wall-time-driven exits: the case's `mix`, else the
         * profile the baseline was made from (docs/whatif.md) */
        static exitprof wall;
        char mixbuf[600];
        const char *mix = case_mix(c, "mix", mixbuf, sizeof mixbuf);
        if (e == SIM_OK && !mix) {
            trace_reader *rd;
            if (trace_reader_open(&rd, trace) == SIM_OK) {
                const trace_header *h = trace_reader_header(rd);
                mix = exitprof_of_trace(h->source, h->workload);
                trace_reader_close(rd);
            }
            sim_clear_error();
        }
        bool wall_on = mix && strcmp(mix, "none") != 0;
        if (e == SIM_OK && wall_on && (e = exitprof_load(&wall, mix)) != SIM_OK)
            e = vcase_fail(c, "mix", "%s", sim_errmsg());
        if (e == SIM_OK) {
            whatif_opts wo = {.unit = unit, .wall = wall_on ? &wall : NULL};
            e = whatif_run(trace, chain, &prm, &wo, &sb, &sp, &res);
            if (e == SIM_OK && k == 0 && ndraws > 0) {
                char ini[600];
                snprintf(ini, sizeof ini, "%s/calibrated.ini", c->tmp);
                static pdraw pd;
                calib_objective *obj = NULL;
                if ((e = pdraw_load(&pd, ini)) != SIM_OK ||
                    (e = draws_objective(c, trace, unit, &obj, cal_name,
                                         sizeof cal_name)) != SIM_OK) {
                    e = vcase_fail(c, "param_draws", "%s", sim_errmsg());
                } else {
                    e = pdraw_band_run(trace, spec_buf, &prm, &wo, &pd,
                                       prop, obj,
                                       (unsigned)nrseeds, (unsigned)ndraws,
                                       seed, fold != 0,
                                       NULL, NULL, &band);
                    have_band = e == SIM_OK;
                    if (have_band)
                        range_notes(c, notes, &pd, &prm, &band);
                    if (have_band && pd.clipped)
                        note(c, notes, "parameter draws: %s", "the "
                             "correlations as written are not positive "
                             "definite; their negative eigenvalues were "
                             "set to 0");
                }
                pdraw_free(&pd);
                calib_objective_close(obj);
            }
        }
        if (e == SIM_OK && k == 0) {
            /* the emulations counted with their EMUL_* subtypes: the
             * line said 'EMULINST 0' of a 426 whose 14 were EMUL_MTSPR .. */
            uint64_t rm = 0, ad = 0, em = 0;
            for (int t = 0; t < EXIT__COUNT; t++) {
                rm += res.wall_removed[t];
                ad += res.wall_added[t];
                if (t == EXIT_EMULINST || (exit_flags((exit_type)t) & EXF_EMUL))
                    em += res.wall_removed[t];
            }
            char line[1024];
            if (wall_on)
                snprintf(line, sizeof line, "guest tick exits: rates of "
                         "profile %s; the prediction ran %.3f s shorter on the "
                         "guest ticks' clock, "
                         "%llu exits dropped (of them ITLBVIRT %llu, "
                         "DTLBVIRT %llu, EMULINST with its EMUL_* %llu), "
                         "%llu repeated", mix, res.wall_gain,
                         (unsigned long long)rm,
                         (unsigned long long)res.wall_removed[EXIT_ITLBVIRT],
                         (unsigned long long)res.wall_removed[EXIT_DTLBVIRT],
                         (unsigned long long)em,
                         (unsigned long long)ad);
            else
                snprintf(line, sizeof line, "guest tick exits: off (%s)",
                         mix ? "mix = none" : "no profile known for the "
                                              "baseline");
            note(c, notes, "%s", line);
        }
        if (e == SIM_OK && k == 0 && (c->out || notes)) {
            if (c->out)
                fprintf(c->out,
                        "  transform%s: %s (%llu exits removed, %llu "
                        "of them VIRT misses re-derived away; %llu "
                        "inserted)\n",
                        n_runs > 1 ? " (the first seed's run)" : "", spec,
                        (unsigned long long)res.removed,
                        (unsigned long long)res.misses_rederived,
                        (unsigned long long)res.inserted);
            /* the transforms' counters, a line each, indented as the
             * report; a note among them (a baseline already on the magic
             * page) is one of the JSON notes too */
            char *rb = NULL;
            size_t rl = 0;
            FILE *m = open_memstream(&rb, &rl);
            if (m) {
                whatif_chain_report(chain, m);
                fclose(m);
            }
            for (char *l = rb; l && *l;) {
                size_t n = strcspn(l, "\n");
                if (c->out)
                    fprintf(c->out, "  %.*s\n", (int)n, l);
                char *nt = strstr(l, ": note: ");
                if (notes && nt && nt < l + n)
                    json_array_append_new(notes, json_stringn(l, n));
                l += n + (l[n] == '\n');
            }
            free(rb);
            char gl[512];
            whatif_guest_line(gl, sizeof gl, &res);
            if (c->out)
                fprintf(c->out, "  %s\n", gl);
        }
        whatif_chain_free(chain);
        if (e != SIM_OK)
            break;
        trace_exits = res.base_exits;
        static table t;
        /* one run: its tables as they are; more: pooled */
        stats_to_table(&sp, n_runs > 1 ? &t : &pred);
        if (n_runs > 1)
            table_accumulate(&pred, &t);
        tot_pred[k] = table_traced_or_sum(n_runs > 1 ? &t : &pred);
        tot_pred[n_runs + k] = table_handled_usec(n_runs > 1 ? &t : &pred);
        stats_to_table(&sb, n_runs > 1 ? &t : &model);
        if (n_runs > 1)
            table_accumulate(&model, &t);
        have_own = have_own && own_ticks(trace, &own, n_runs > 1, unit);
    }
    if (e != SIM_OK) {
        free(tot_pred);
        free(cal_fit);
        free(tot_meas);
        return e;
    }
    if (n_runs > 1 && isfinite(cal_fit[1])) {
        /* each seed calibrated on its own table: how well each fit it */
        double lo, hi, mean = gsl_stats_mean(cal_fit, 1, n_runs);
        gsl_stats_minmax(&lo, &hi, cal_fit, 1, n_runs);
        char buf[300];
        int len = snprintf(buf, sizeof buf, "each %s calibrated model on %s "
                                  "table: total %+.2f%% .. %+.2f%%, mean "
                                  "%+.2f%%", draws ? "draw's" : "seed's",
                 draws ? "the" : "its own", lo, hi, mean);
        bool part = false;
        for (unsigned k = 0; k < n_runs; k++)
            part |= isfinite(cal_fitted[k]) && cal_fitted[k] != cal_fit[k];
        if (part) { /* a row not fitted (EMUL_WAIT): the fitted rows too */
            double flo, fhi, fmean = gsl_stats_mean(cal_fitted, 1, n_runs);
            gsl_stats_minmax(&flo, &fhi, cal_fitted, 1, n_runs);
            snprintf(buf + len, sizeof buf - (size_t)len, "; its fitted "
                     "rows %+.2f%% .. %+.2f%%, mean %+.2f%%", flo, fhi,
                     fmean);
        }
        note(c, notes, "%s", buf);
    }
    if (n_runs > 1)
        table_finish(&pred);
    if (draws) /* one run's prediction: the mean of the draws' */
        scale_table(&pred, 1.0 / n_runs);
    double scale;
    e = scale_to_table(c, &pred, trace_exits, notes, &scale);
    if (e != SIM_OK) {
        free(tot_pred);
        free(cal_fit);
        free(tot_meas);
        return e;
    }
    /* each seed's own total by the same factor as the pooled table (the
     * per-seed errors compared the unscaled run: -96% beside +7361%) */
    for (unsigned k = 0; k < 2 * n_runs; k++)
        tot_pred[k] *= scale;
    if (have_own)
        baseline_fidelity(c, &own, &model, n_runs > 1, fold != 0, threshold,
                          json);

    /* 4: the measured table, for the comparison only */
    static table meas;
    table_init(&meas);
    for (unsigned k = 0; k < (draws ? 1 : n_runs) && e == SIM_OK; k++) {
        static table t;
        e = measured(c, n_runs > 1 && !draws ? &t : &meas,
                     (unsigned long)seed0 + k, k == 0 ? notes : NULL);
        if (e == SIM_OK && n_runs > 1 && !draws) {
            table_accumulate(&meas, &t);
            tot_meas[k] = table_traced_or_sum(&t);
            tot_meas[n_runs + k] = table_handled_usec(&t);
        }
    }
    for (unsigned k = 0; draws && e == SIM_OK && k < n_runs; k++) {
        tot_meas[k] = table_traced_or_sum(&meas);
        tot_meas[n_runs + k] = table_handled_usec(&meas);
    }
    if (e == SIM_OK && n_runs > 1) {
        /* the spread: each run's own total error */
        json_t *js = json_array();
        unsigned h = table_handled_only(&meas) ? n_runs : 0;
        /* each run's error, in place of its predicted total (not read
         * again) */
        double *x = tot_pred + h;
        for (unsigned k = 0; k < n_runs; k++) {
            x[k] = 100.0 * (tot_pred[h + k] - tot_meas[h + k]) /
                   tot_meas[h + k];
            json_array_append_new(js, json_real(x[k]));
        }
        double lo, hi, mean = gsl_stats_mean(x, 1, n_runs);
        double sd = gsl_stats_sd_m(x, 1, n_runs, mean);
        gsl_stats_minmax(&lo, &hi, x, 1, n_runs);
        json_object_set_new(json, "per_seed_total_err_pct", js);
        char buf[200];
        snprintf(buf, sizeof buf, "%s: %s error "
                                  "%+.1f%% .. %+.1f%%, mean %+.2f%%, sd "
                                  "%.2f%% over the %u %s",
                 draws ? "each draw's prediction against the table"
                       : "one run against one run",
                 h ? "handled-time" : "total",
                 lo, hi, mean, sd, n_runs, draws ? "draws" : "seeds");
        note(c, notes, "%s", buf);
    }
    free(tot_pred);
    free(cal_fit);
    free(tot_meas);
    if (e != SIM_OK)
        return e;
    if (n_runs > 1 && !draws)
        table_finish(&meas);
    if (!fold && !emul_rows(&meas) && emul_rows(&pred))
        /* the seed's layout: its EMULINST against the prediction's
         * EMULINST without its EMUL_* rows read as -99% */
        return vcase_fail(c, "fold", "fold = 0, but the measured table has "
                          "no EMUL_* row (the seed's layout: its EMULINST "
                          "holds every emulated instruction); fold = 1 "
                          "compares it with the prediction's");
    tcmp cmp;
    tcmp_make(&cmp, &meas, &pred, fold != 0, threshold);
    if (have_band)
        band_notes(c, notes, json, &band, &cmp, cal_name);
    if (c->out) {
        fputc('\n', c->out);
        tcmp_write_text(c->out, &cmp, "measured", "predicted");
    }
    json_object_set_new(json, "compare", tcmp_to_json(&cmp));

    /* 5: the budget */
    int fails = 0, nc = 0, cfail = 0, rfail = 0;
    char worst_row[64] = "-";
    double worst = 0;
    bool total_ok = fabs(100.0 * cmp.err_total) <= total_budget;
    fails += !total_ok;
    json_t *jb = json_array();
    /* every row budget.counts names is checked, in the list's order: one
     * that neither table has (0 against 0) holds, one only the prediction
     * has fails (no relative error against 0) */
    for (const char *q = counts; q && *q;) {
        q += strspn(q, ", \t");
        size_t k = strcspn(q, ", \t");
        int i = k ? exit_from_namen(q, (unsigned)k) : -1;
        q += k;
        if (i < 0)
            continue;
        const tcmp_row *r = &cmp.rows[i];
        bool none = r->count_ref == 0 && r->count == 0;
        double err = none ? 0 : r->err_count;
        nc++;
        bool ok = isfinite(err) && fabs(100.0 * err) <= count_budget;
        cfail += !ok;
        json_t *x = json_object();
        json_object_set_new(x, "check", json_string("count"));
        json_object_set_new(x, "row", json_string(exit_name((exit_type)i)));
        json_object_set_new(x, "err", isfinite(err) ? json_real(err)
                                                    : json_null());
        json_object_set_new(x, "ok", json_boolean(ok));
        json_array_append_new(jb, x);
    }
    for (int j = 0; j < cmp.n; j++) {
        int i = cmp.order[j];
        const tcmp_row *r = &cmp.rows[i];
        const char *name = exit_name((exit_type)i);
        if (r->major) {
            double a = isfinite(r->err_sum) ? fabs(100.0 * r->err_sum) : 1e9;
            if (a > row_budget)
                rfail++;
            if (a > worst) {
                worst = a;
                snprintf(worst_row, sizeof worst_row, "%s", name);
            }
        }
    }
    json_object_set_new(json, "budget_checks", jb);
    fails += cfail + rfail;
    *st = fails ? VFAIL : VPASS;
    int len = snprintf(verdict, verdict_len,
                       "%s %+.1f%% (budget %g%%)",
                       cmp.handled ? "handled time (no guest time in a table)"
                                   : "total",
                       100.0 * cmp.err_total,
                       total_budget);
    if (nc && len > 0 && (size_t)len < verdict_len)
        len += snprintf(verdict + len, verdict_len - (size_t)len,
                        "; counts of %s: %d of %d within %g%%", counts,
                        nc - cfail, nc, count_budget);
    if (len > 0 && (size_t)len < verdict_len && cmp.n_major == 0)
        /* no MAPE over no rows ("MAPE nan%, worst - 0.0%") */
        snprintf(verdict + len, verdict_len - (size_t)len,
                 "; no row holds >= %g%% of the measured time: no row sum "
                 "judged", threshold);
    else if (len > 0 && (size_t)len < verdict_len)
        snprintf(verdict + len, verdict_len - (size_t)len,
                 "; sums of rows >= %g%% of the time: %d of %d within %g%% "
                 "(worst %s %.1f%%); MAPE %.1f%%, MPE %+.1f%%",
                 threshold, cmp.n_major - rfail, cmp.n_major, row_budget,
                 worst_row, worst, cmp.mape, cmp.mpe);
    if (c->out && c->plot_dir) {
        char base[700], title[256];
        snprintf(base, sizeof base, "%s/%s", c->plot_dir, c->name);
        snprintf(title, sizeof title, "%s: predicted vs measured", c->name);
        e = cli_plot_compare(base, &cmp, "measured", "predicted", title,
                             row_budget);
        if (e != SIM_OK)
            return e;
        fprintf(c->out, "  pictures: %s.png, %s.svg\n", base, base);
    } else if (c->plot_dir) {
        char base[700], title[256];
        snprintf(base, sizeof base, "%s/%s", c->plot_dir, c->name);
        snprintf(title, sizeof title, "%s: predicted vs measured", c->name);
        e = cli_plot_compare(base, &cmp, "measured", "predicted", title,
                             row_budget);
    }
    return e;
}
