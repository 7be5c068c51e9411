/* fuzz_params: the parameter INI reader (model/params.c, libinih) and the
 * --set parser on arbitrary bytes; whatever loads is shown and must stay
 * within every parameter's range. Nothing may crash, hang, leak or trip
 * UBSan. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    static params p;
    params_init(&p);
    if (params_load_string(&p, text, "fuzz") == SIM_OK) {
        static FILE *sink;
        if (!sink)
            sink = fopen("/dev/null", "w");
        if (sink)
            params_write_show(sink, &p);
        for (int i = 0; i < PARAM__COUNT; i++)
            if (params_set(&p, (param_id)i, p.v[i], "check") != SIM_OK)
                abort(); /* the reader let an out-of-range value in */
    }
    /* the same bytes as one --set argument */
    sim_err e = params_set_str(&p, text);
    (void)e;
    free(text);
    return 0;
}
