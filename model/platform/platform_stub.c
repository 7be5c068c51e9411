/* platform_stub: the timed platform when this build has no SystemC
 * (STYLE 7: optional parts compile to stubs). */
#include "platform.h"

#include <string.h>

int platform_available(void)
{
    return 0;
}

sim_err platform_replay(const char *path, cost_model *m, const replay_opts *o,
                        stats *s, replay_result *res)
{
    (void)m;
    (void)o;
    (void)s;
    memset(res, 0, sizeof *res);
    return sim_fail(SIM_ERR_UNSUPP,
                    "%s: this build has no SystemC platform "
                    "(install libsystemc-dev and reconfigure)",
                    path);
}

void platform_last_counts(platform_counts *c)
{
    memset(c, 0, sizeof *c);
}
