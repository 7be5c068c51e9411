/* validate: the `sim validate` harness (docs/validation.md). A case is one
 * small declarative file validation/cases/<name>.case of `key = value`
 * lines; its `kind` names the function that runs it (one table in
 * cli_validate.c: adding a kind = one file tools/validate_<kind>.c and one
 * line). A kind obtains its prediction without the measured data, then
 * hands the measured data to the comparison only. */
#ifndef VALIDATE_H
#define VALIDATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "sim_err.h"

#define VCASE_MAX_KEYS 64

typedef struct vcase {
    char name[64];  /* file name without .case */
    char path[512]; /* the case file */
    char dir[512];  /* its directory: relative paths in values start here */
    char tmp[512];  /* a scratch directory for this case's files */
    unsigned n;
    char key[VCASE_MAX_KEYS][64];
    char val[VCASE_MAX_KEYS][512];
    unsigned line[VCASE_MAX_KEYS];
    const char *plot_dir; /* NULL: no pictures */
    FILE *out;            /* the text report (NULL with --format json) */
} vcase;

/* The value of key, or NULL. */
const char *vcase_get(const vcase *c, const char *key);
/* A path value resolved against the case's directory (buf of n bytes);
 * NULL if the key is absent. */
const char *vcase_path(const vcase *c, const char *key, char *buf, size_t n);
/* A number value; SIM_ERR_FORMAT naming the file and line if it is not one
 * (nan and inf are not; absent: *v = dflt). */
SIM_MUST_CHECK sim_err vcase_num(const vcase *c, const char *key, double dflt,
                                 double *v);
/* The line of key in the case file (0 when absent). */
unsigned vcase_line(const vcase *c, const char *key);
/* SIM_ERR_FORMAT with "FILE:LINE: " (the line of key; "FILE: " when the key
 * is absent) before the message. */
SIM_MUST_CHECK sim_err vcase_fail(const vcase *c, const char *key,
                                  const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

typedef enum vstatus { VPASS, VFAIL, VSKIP } vstatus;

/* What a kind returns: its status and, in *json, an object for --format
 * json ("verdict" is added by the harness). It prints its text report to
 * c->out when that is not NULL. Errors (bad case file, a step failing)
 * are returned as sim_err and reported by the harness. */
typedef sim_err (*vkind_fn)(vcase *c, vstatus *st, char *verdict,
                            size_t verdict_len, json_t *json);

/* Runs `sim ARGS...` (this binary) with stdout and stderr into log (a
 * file path); returns its exit code, or -1 if it could not run. */
int validate_run_self(const char *log, const char *const *argv);
/* A SIGINT, SIGTERM or SIGHUP arrived during `sim validate`: the running
 * step was stopped (validate_run_self returns -1) and the case must end;
 * its scratch directory is removed and sim exits 128 + the signal. */
bool validate_interrupted(void);

/* Kinds, and the keys each reads besides kind and description
 * (NULL-terminated): any other key in a case file is refused, so a
 * misspelt budget cannot silently fall back to its default. */
sim_err validate_whatif(vcase *c, vstatus *st, char *verdict,
                        size_t verdict_len, json_t *json);
extern const char *const validate_whatif_keys[];
sim_err validate_measurable(vcase *c, vstatus *st, char *verdict,
                            size_t verdict_len, json_t *json);
extern const char *const validate_measurable_keys[];

#endif
