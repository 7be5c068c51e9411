/* outfile: every file a command writes goes through here, so that what is
 * at the output path is never destroyed.
 *
 * - A regular file or a new path is written under a temporary name beside
 *   its final name and renamed into place only when complete: an
 *   interrupted or failed run never leaves a partial file under the real
 *   name. A symlink is followed: the temporary file goes beside the file it
 *   points to (or would point to, when dangling), and the link stays.
 * - A device, FIFO or other non-regular file (/dev/null, /dev/full, a pipe,
 *   a terminal) is written in place: it is never renamed over. A path that
 *   is this process's stdout or stderr (/dev/stdout, /proc/self/fd/1) is
 *   written through that stream.
 * - A directory is refused when the path is checked or opened, before any
 *   work. A target written in place takes one output at a time: a second
 *   outfile_open of it fails.
 * - SIGINT, SIGTERM, SIGHUP and SIGPIPE remove every temporary file still
 *   open, then end the process by that signal, unless the command set its
 *   own handler for the signal (sim record finishes its trace on Ctrl-C). */
#ifndef OUTFILE_H
#define OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "sim_err.h"

typedef struct outfile {
    FILE *f;        /* write here */
    char *path;     /* final name (a symlink's target), NULL for a stream */
    char *tmp;      /* temporary name; NULL when written in place */
    bool in_place;  /* a device/FIFO written directly (f is ours to close) */
    int slot;       /* 1 + tmp's slot among the files removed on a signal;
                       0: none */
    int busy;       /* written in place: 1 + its slot among the targets being
                       written (one output at a time each); 0: none */
} outfile;

/* Checks that path can be written the way outfile_open would, without
 * creating anything: refuses a directory, a missing parent directory, a
 * symlink loop. Commands call it for every output before their work
 * starts; path "-" is always fine. SIM_ERR_IO/SIM_ERR_USAGE naming path. */
SIM_MUST_CHECK sim_err outfile_check(const char *path);
/* SIM_ERR_USAGE if path is the regular file input (the same file, whatever
 * the names or symlinks): writing it would replace the input. A device
 * (/dev/null as both), "-", a missing path or a NULL input is fine. */
SIM_MUST_CHECK sim_err outfile_check_not_input(const char *path,
                                               const char *input);
/* SIM_ERR_USAGE if two outputs of one command would land in the same
 * regular file (the same name, or names leading to it through "..", "."
 * or symlinks), whether or not it exists yet: the second written would
 * replace the first. NULL, "-" and devices are fine. */
SIM_MUST_CHECK sim_err outfile_check_distinct(const char *a, const char *b);
/* True if path is "-" or this process's stdout by another name
 * (/dev/stdout): a command then keeps its report off stdout. */
bool outfile_is_stdout(const char *path);
/* path "-" means stdout (commit/abort then do nothing but flush). */
SIM_MUST_CHECK sim_err outfile_open(outfile *o, const char *path);
/* Flushes; for a temporary file also fsyncs, closes and renames; frees o's
 * strings. A write error (e.g. /dev/full) is SIM_ERR_IO naming the path. */
SIM_MUST_CHECK sim_err outfile_commit(outfile *o);
/* Closes and removes the temporary file. Safe after a failed commit. */
void outfile_abort(outfile *o);
/* The end of an output whose writing gave e: committed when e is SIM_OK
 * (the commit's status returned), else aborted (e returned, its message
 * kept). */
SIM_MUST_CHECK sim_err outfile_finish(outfile *o, sim_err e);

/* For an output another program writes by name (gnuplot's `set output`):
 * o->tmp names an empty temporary file beside path for it, o->f is NULL;
 * outfile_commit renames it into place, outfile_abort (or a signal)
 * removes it. A device, pipe or stdout is refused (SIM_ERR_USAGE). */
SIM_MUST_CHECK sim_err outfile_open_named(outfile *o, const char *path);
/* A scratch file for intermediate data (a plot's data or script):
 * $TMPDIR/sim-<tag>-XXXXXX (else /tmp), named o->tmp and open for writing
 * in o->f; outfile_abort removes it, as does a signal. */
SIM_MUST_CHECK sim_err outfile_scratch(outfile *o, const char *tag);
/* The same in directory dir (NULL or "": $TMPDIR, else /tmp). */
SIM_MUST_CHECK sim_err outfile_scratch_in(outfile *o, const char *dir,
                                          const char *tag);
/* Leaves a scratch file where it is (a debugging aid): closes it and
 * forgets it, no longer removed by outfile_abort or a signal. */
void outfile_keep(outfile *o);

#endif
