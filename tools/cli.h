/* cli: the `sim` subcommands. Each takes argc/argv from its own name on
 * (argv[0] = "trace", ...) and returns the process exit code: 0 ok, 1 a check
 * failed, 2 bad usage or bad input (message already printed). */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cost.h"
#include "sim_err.h"
#include "stats.h"
#include "table.h"

int cli_trace(int argc, char **argv);  /* cli_trace.c: info|dump|pack|synth */
int cli_replay(int argc, char **argv); /* cli_replay.c */
int cli_import(int argc, char **argv); /* cli_import.c: ftrace */
int cli_record(int argc, char **argv); /* cli_record.c (+ microbench) */
int cli_microbench(int argc, char **argv);
int cli_table(int argc, char **argv);  /* cli_table.c: show|convert|diff */
int cli_params(int argc, char **argv); /* cli_params.c: show|doc */
int cli_calibrate(int argc, char **argv); /* cli_calibrate.c */
int cli_whatif(int argc, char **argv); /* cli_whatif.c */
int cli_validate(int argc, char **argv); /* cli_validate.c */
int cli_sweep(int argc, char **argv);  /* cli_sweep.c */
int cli_sensitivity(int argc, char **argv); /* cli_sensitivity.c */
int cli_measurable(int argc, char **argv);  /* cli_measurable.c */
/* Defaults, then the INI file (may be NULL), then each "name=value"; 0 or
 * the exit code after printing the error (cli_params.c). */
struct params;
int cli_params_resolve(struct params *p, const char *file, char *const *sets,
                       int nsets);
/* `sim trace synth ...` (argv[0] = "synth"), in cli_synth.c */
int cli_trace_synth(int argc, char **argv);
/* `sim trace profile ...` (argv[0] = "profile"), in cli_synth.c */
int cli_trace_profile(int argc, char **argv);

/* Prints "sim <command>: <message>" (the command and subcommand being run,
 * the last sim_errmsg or else the status text) to stderr and returns the
 * exit code for e. Every error of a command carries the same prefix. */
int cli_report(sim_err e);
/* Prints "sim <cmd>: <fmt>" plus a hint to run --help; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The usage error for getopt_long's '?' (opterr = 0): "option '--set'
 * needs a value" when the option exists and its value is missing (opts'
 * val is what getopt_long leaves in optopt; a short one of shortopts
 * too), else
 * "unknown option". Returns 2. */
struct option;
int cli_bad_option(const char *cmd, const char *shortopts,
                   const struct option *opts, char **argv);
/* A subcommand of a command (`sim trace dump`: "dump"). */
typedef struct cli_sub {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] = the subcommand */
} cli_sub;
/* Runs argv[1] from subs; no argument prints usage to stderr (exit 2),
 * --help/-h/help to stdout (exit 0); an unknown one is a usage error naming
 * the `noun` ("subcommand", "format") and the valid names. */
int cli_dispatch(const char *cmd, const char *noun, int argc, char **argv,
                 const cli_sub *subs, size_t n, void (*usage)(FILE *));
/* Parses --accounting: "2.6.29" (each sample truncated to whole usec
 * before it is added, as kernels 2.6.29-2.6.37) or "3.1" (timebase ticks
 * added, divided to usec when printed, as 3.1+); tables are in usec either
 * way. 0 on success, else the usage error's exit code (2). */
/* --tb-per-usec N: a 3.1+ debugfs table's timebase ticks per usec (1 to
 * 100000). Returns 0, or 2 after the usage message. */
int cli_parse_tb_per_usec(const char *cmd, const char *arg, double *tb);
int cli_parse_accounting(const char *cmd, const char *arg, stats_unit *u);
/* The deprecated --unit usec|ticks, the same choice: warns on stderr. */
int cli_parse_unit(const char *cmd, const char *arg, stats_unit *u);
/* --format of a table (kvm, debugfs, perf, csv, json): 0, or the usage
 * error's exit code (2) naming the valid ones. */
int cli_parse_table_fmt(const char *cmd, const char *arg, table_fmt *f);
/* --guest-time trace|model: 0, or the usage error's exit code (2). */
int cli_parse_guest_time(const char *cmd, const char *arg,
                         cost_guest_mode *g);
/* --platform c|systemc: *systemc set; 0, or the usage error's code (2). */
int cli_parse_platform(const char *cmd, const char *arg, bool *systemc);
/* --by-insn's limits (docs/tables.md "By instruction"): '#' lines after a
 * kvm or perf table, each exit's handler from the direct path; 0, or the
 * usage error's exit code (2). */
int cli_check_by_insn(const char *cmd, table_fmt fmt, bool systemc);
/* --threads N, 1..64: 0, or the usage error's exit code (2). */
int cli_parse_threads(const char *cmd, const char *arg,
                      unsigned long long *n);
/* "2.6.29" or "3.1", as --accounting takes it. */
const char *cli_accounting_name(stats_unit u);
/* A table that states its accounting (json's "accounting"): without
 * --accounting (given false) *u becomes the table's; a --accounting that
 * contradicts it is a usage error (2, naming `path`): read in the other
 * accounting, every row would be fitted or synthesised off by the
 * truncation. 0 when fine. */
int cli_table_accounting(const char *cmd, const table *t, const char *path,
                         bool given, stats_unit *u);
/* One line each, after prefix, for rows that say a table is not of the
 * kernels and guest the model follows: HALT (no 44x kernel charges it;
 * the model prices those exits as a bare exit), HCALL and DTLBPV (its
 * guest maps the PV magic page already). Nothing for other tables. */
void cli_table_notes(FILE *f, const char *prefix, const table *t);

/* Checks an output path before the work starts (outfile_check: a directory
 * or a missing directory is refused); 0, or the exit code after the
 * message. NULL and "-" are fine. */
int cli_check_output(const char *path);
/* The same, and path must not be the file input (a command's input
 * trace or table): writing it would replace what is being read. */
int cli_check_output_of(const char *path, const char *input);

/* Stores arg in *slot for an option that takes one value (a file, a
 * list, a transform): a second one is a usage error (exit code 2) naming
 * both, not a silent replacement of the first. 0 on success. */
int cli_once(const char *cmd, const char *opt, const char **slot,
             const char *arg);
/* Two outputs of one command must not be the same file (outfile_check_
 * distinct): 0, or the exit code after the message. */
int cli_check_distinct(const char *a, const char *b);
/* A command's table output and its --plot (either may be NULL): each
 * checked, neither naming the trace or the --params file it reads, and
 * not both the same file. 0, or the exit code after the message. */
int cli_check_out_and_plot(const char *out, const char *plot,
                           const char *trace, const char *pfile);
/* Neither output (either may be NULL) is a file the transform chain reads
 * (pv:sites=FILE): 0, or the exit code after the message. */
struct whatif_chain;
int cli_check_chain_inputs(const struct whatif_chain *c, const char *out,
                           const char *plot);
/* --tb-hz of a trace that gets the same core_hz (import, synth): within
 * core_hz's range, since replay prices its exits at that clock (1 kHz
 * made every cycle a millisecond). 0, or the usage error's code (2). */
int cli_parse_tb_hz(const char *cmd, const char *arg,
                    unsigned long long *hz);
/* --seed of a GSL mt19937 (synth, sweep's hypercube): 1 .. 2^32 - 1; 0
 * and 2^32 + k drew what 4357 and k draw. 0, or the usage error's code. */
int cli_parse_seed(const char *cmd, const char *arg,
                   unsigned long long *seed);
/* A text option written as one line of an output (a title, a header
 * string): printable (ASCII only when ascii), at most max characters;
 * else a usage error (exit code 2) instead of a line break in the output
 * or a silent cut. 0 when fine. */
int cli_check_text(const char *cmd, const char *opt, const char *s,
                   size_t max, bool ascii);
/* Parses an unsigned number, decimal (010 is ten) or hex after 0x, with
 * an optional k/M/G suffix; no sign, no blanks. 0 on success. */
int cli_parse_u64(const char *s, unsigned long long *v);
/* The same for a memory size: K/M/G are KiB, MiB, GiB (256M = 256 MiB,
 * as the sizes the defaults are given in). */
int cli_parse_bytes(const char *s, unsigned long long *v);

#endif
