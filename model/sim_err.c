/* sim_err: status codes and the thread-local last-error message. */
#include "sim_err.h"

#include <stdio.h>

static _Thread_local char errbuf[1024];

const char *sim_strerror(sim_err e)
{
    switch (e) {
    case SIM_OK: return "success (SIM_OK)";
    case SIM_ERR_IO: return "input/output error (SIM_ERR_IO)";
    case SIM_ERR_FORMAT: return "malformed input (SIM_ERR_FORMAT)";
    case SIM_ERR_VERSION: return "unsupported file version (SIM_ERR_VERSION)";
    case SIM_ERR_TRUNC: return "truncated input (SIM_ERR_TRUNC)";
    case SIM_ERR_RANGE: return "value out of range (SIM_ERR_RANGE)";
    case SIM_ERR_USAGE: return "bad usage (SIM_ERR_USAGE)";
    case SIM_ERR_NOMEM: return "out of memory (SIM_ERR_NOMEM)";
    case SIM_ERR_UNSUPP: return "not supported (SIM_ERR_UNSUPP)";
    case SIM_ERR_CHECK: return "check failed (SIM_ERR_CHECK)";
    }
    return "unknown error";
}

int sim_exit_code(sim_err e)
{
    if (e == SIM_OK)
        return 0;
    if (e == SIM_ERR_CHECK)
        return 1;
    return 2;
}

const char *sim_errmsg(void)
{
    return errbuf;
}

sim_err sim_fail(sim_err e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errbuf, sizeof errbuf, fmt, ap);
    va_end(ap);
    return e;
}

void sim_clear_error(void)
{
    errbuf[0] = '\0';
}
