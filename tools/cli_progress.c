/* cli_progress: terminal progress line (records done, %, rate). */
#include "cli_progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_init(cli_progress *p, const char *what, const char *unit)
{
    p->what = what;
    p->unit = unit;
    p->enabled = isatty(STDERR_FILENO);
    p->start = p->last = now_s();
    p->shown = false;
    p->every = 0.25;
    const char *e = getenv("SIM_PROGRESS_SECONDS");
    if (e && *e) {
        char *end;
        double v = strtod(e, &end);
        if (*end == '\0' && v >= 0 && v <= 3600) /* else the default */
            p->every = v;
    }
}

void cli_progress_update(void *vp, uint64_t done, uint64_t total)
{
    cli_progress *p = vp;
    if (!p->enabled)
        return;
    double t = now_s();
    if (t - p->last < p->every)
        return;
    p->last = t;
    double rate = (double)done / (t - p->start);
    /* millions a second for records and lines, as is for slow units (a
     * sweep's replays: "0.0 M/s" said nothing) */
    char r[32];
    if (rate >= 1e5)
        snprintf(r, sizeof r, "%.1f M/s", rate / 1e6);
    else
        snprintf(r, sizeof r, "%.1f/s", rate);
    if (total)
        fprintf(stderr, "\r%s: %llu / %llu %s (%.0f%%), %s   ", p->what,
                (unsigned long long)done, (unsigned long long)total, p->unit,
                100.0 * (double)done / (double)total, r);
    else
        fprintf(stderr, "\r%s: %llu %s, %s   ", p->what,
                (unsigned long long)done, p->unit, r);
    p->shown = true;
}

void cli_progress_done(cli_progress *p)
{
    if (p->shown)
        fprintf(stderr, "\r%*s\r", 72, "");
    p->shown = false;
}
