/* cli_progress: a progress line on stderr for long runs, only on a terminal. */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct cli_progress {
    const char *what;  /* "replay" */
    const char *unit;  /* "records" */
    bool enabled;      /* stderr is a terminal */
    double start, last;
    double every;      /* seconds between redraws (SIM_PROGRESS_SECONDS) */
    bool shown;
} cli_progress;

void cli_progress_init(cli_progress *p, const char *what, const char *unit);
/* Redraws at most 4 times a second; the environment variable
 * SIM_PROGRESS_SECONDS (0 to 3600) sets another interval, 0 redrawing at
 * every update (the tests use it: a fast command never waits a quarter
 * second). */
void cli_progress_update(void *p, uint64_t done, uint64_t total);
/* Clears the line if one was drawn. */
void cli_progress_done(cli_progress *p);

#endif
