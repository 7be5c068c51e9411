/* fuzz_tracetext: `sim trace pack` (model/tracetext.c) on arbitrary text.
 * It must never crash, hang or leak, and whatever it accepts must round
 * trip: pack -> dump -> pack gives the same bytes, and the dump of both the
 * same text. Traces go to a private temporary directory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace.h"
#include "tracetext.h"

static char path_a[512], path_b[512];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    char dir[400];
    snprintf(dir, sizeof dir, "%s/fuzz_tracetext.XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        abort();
    snprintf(path_a, sizeof path_a, "%s/a.bin", dir);
    snprintf(path_b, sizeof path_b, "%s/b.bin", dir);
    return 0;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        abort();
    char *s = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&s, &n);
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, k, m);
    fclose(f);
    fclose(m);
    *len = n;
    return s;
}

static char *dump(const char *path, size_t *len)
{
    char *s = NULL;
    FILE *m = open_memstream(&s, len);
    if (tracetext_dump(path, m, NULL, NULL) != SIM_OK)
        abort(); /* pack wrote it: it must read back */
    fclose(m);
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (tracetext_pack_buf("fuzz.txt", (const char *)data, size, path_a) !=
        SIM_OK)
        return 0;
    size_t la, lt, lb, lt2;
    char *text = dump(path_a, &lt);
    if (tracetext_pack_buf("dump.txt", text, lt, path_b) != SIM_OK)
        abort();
    char *a = slurp(path_a, &la), *b = slurp(path_b, &lb);
    char *text2 = dump(path_b, &lt2);
    if (la != lb || memcmp(a, b, la) != 0 || lt != lt2 ||
        memcmp(text, text2, lt) != 0)
        abort();
    free(a);
    free(b);
    free(text);
    free(text2);
    unlink(path_a);
    unlink(path_b);
    return 0;
}
