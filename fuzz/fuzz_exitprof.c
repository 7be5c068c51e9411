/* fuzz_exitprof: the exit-profile reader (model/exitprof.c) on arbitrary
 * bytes; whatever parses is written back, must parse again to the same
 * profile, and dresses a small table's counts (synth --like). Nothing may
 * crash, hang, leak or trip UBSan. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitprof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static exitprof p, q;
    if (exitprof_parse(&p, (const char *)data, size, "fuzz") != SIM_OK)
        return 0;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return 0;
    exitprof_write(f, &p);
    fclose(f);
    /* what the writer prints, the reader reads back (names aside) */
    if (exitprof_parse(&q, buf, len, "fuzz-again") != SIM_OK)
        abort();
    if (memcmp(p.count, q.count, sizeof p.count) ||
        memcmp(p.nword, q.nword, sizeof p.nword) || p.ngtlb != q.ngtlb)
        abort();
    free(buf);
    return 0;
}
