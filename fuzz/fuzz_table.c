/* fuzz_table: the exit-timing table parsers (model/tableio.c) on arbitrary
 * bytes, in every format and by auto-detection; whatever parses is checked,
 * folded, diffed and written in every format. Nothing may crash, hang, leak
 * or trip UBSan. */
#include <stdint.h>
#include <stdio.h>

#include "table.h"

static FILE *sink(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    return f;
}

static void exercise(const table *t)
{
    FILE *f = sink();
    if (!f)
        return;
    sim_err e = table_check(t, "fuzz", f);
    (void)e; /* inconsistent input is expected */
    for (int fold = 0; fold < 2; fold++)
        for (int w = 0; w < TFMT__COUNT; w++) {
            table_write_opts o = {.fold_emul = fold,
                                  .tb_per_usec =
                                      w == TFMT_DEBUGFS && fold ? 667 : 0};
            e = table_write(f, t, (table_fmt)w, &o);
            (void)e;
        }
    table folded;
    table_fold_emul(t, &folded);
    e = table_diff(f, t, "a", &folded, "b", true);
    (void)e;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    table t;
    if (table_parse(&t, text, size, TFMT_AUTO, "fuzz") == SIM_OK)
        exercise(&t);
    for (int fmt = 0; fmt < TFMT__COUNT; fmt++)
        if (table_parse(&t, text, size, (table_fmt)fmt, "fuzz") == SIM_OK)
            exercise(&t);
    if (table_parse_debugfs_tb(&t, text, size, "fuzz", 533) == SIM_OK)
        exercise(&t);
    return 0;
}
