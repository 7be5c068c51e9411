/* sim_err: the one status type of sim440. Fallible functions return it; a
 * programming bug is an assert, a user mistake is a message + SIM_ERR_INPUT. */
#ifndef SIM_ERR_H
#define SIM_ERR_H

#include <stdarg.h>

#define SIM_MUST_CHECK __attribute__((warn_unused_result))

typedef enum sim_err {
    SIM_OK = 0,
    SIM_ERR_IO,       /* open/read/write/rename failed (errno in the message) */
    SIM_ERR_FORMAT,   /* input is malformed: bad magic, CRC, syntax ... */
    SIM_ERR_VERSION,  /* file version too old or too new */
    SIM_ERR_TRUNC,    /* input ends early */
    SIM_ERR_RANGE,    /* a value is out of its valid range */
    SIM_ERR_USAGE,    /* bad command line */
    SIM_ERR_NOMEM,    /* allocation failed */
    SIM_ERR_UNSUPP,   /* a valid request this build cannot do */
    SIM_ERR_CHECK,    /* a consistency / invariant check failed */
} sim_err;

/* "text (SIM_ERR_X)" */
const char *sim_strerror(sim_err e);

/* Exit code for a status: 0 ok, 1 a check failed, 2 bad usage or input. */
int sim_exit_code(sim_err e);

/* The last error message, set by the function that returned the error. It
 * names the file and line/byte offset where one applies. Thread-local. */
const char *sim_errmsg(void);
/* Sets the message and returns e, so callers write
 *   return sim_fail(SIM_ERR_FORMAT, "%s: byte %llu: bad magic", path, off); */
sim_err sim_fail(sim_err e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sim_clear_error(void);

#endif
