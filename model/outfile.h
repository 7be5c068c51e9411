/* outfile: write a file under a temporary name beside its final path and
 * rename it into place only when complete, so an interrupted or failed run
 * never leaves a partial file under the real name. */
#ifndef OUTFILE_H
#define OUTFILE_H

#include <stdio.h>

#include "sim_err.h"

typedef struct outfile {
    FILE *f;          /* write here */
    char *path;       /* final name */
    char *tmp;        /* temporary name */
} outfile;

/* path "-" means stdout (commit/abort then do nothing but flush). */
SIM_MUST_CHECK sim_err outfile_open(outfile *o, const char *path);
/* Flushes, fsyncs, closes and renames; frees o's strings. */
SIM_MUST_CHECK sim_err outfile_commit(outfile *o);
/* Closes and removes the temporary file. Safe after a failed commit. */
void outfile_abort(outfile *o);

#endif
