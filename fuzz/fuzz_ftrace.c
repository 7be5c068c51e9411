/* fuzz_ftrace: `sim import ftrace` (model/ftrace.c, model/ftimport.c) and
 * `sim trace dump --ftrace` (model/ftexport.c) on arbitrary text. Nothing
 * may crash, hang or leak; an import that succeeds must write a trace that
 * reads back with the exits it reported, and the export of that trace must
 * import again without a malformed line and with as many exits. Traces go
 * to a private temporary directory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftexport.h"
#include "ftimport.h"
#include "ftrace.h"
#include "trace.h"

static char path_a[512], path_b[512];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* every accepted input writes (and fsyncs) two traces: on tmpfs that
     * costs nothing, on a disk it bounds the run rate */
    const char *tmp = getenv("TMPDIR");
    if (!tmp)
        tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    char dir[400];
    snprintf(dir, sizeof dir, "%s/fuzz_ftrace.XXXXXX", tmp);
    if (!mkdtemp(dir))
        abort();
    snprintf(path_a, sizeof path_a, "%s/a.bin", dir);
    snprintf(path_b, sizeof path_b, "%s/b.bin", dir);
    return 0;
}

static uint64_t count_exits(const char *path)
{
    trace_reader *r;
    if (trace_reader_open(&r, path) != SIM_OK)
        abort();
    uint64_t n_exits = 0;
    for (;;) {
        const trace_rec *recs;
        size_t n;
        if (trace_reader_next(r, &recs, &n) != SIM_OK)
            abort(); /* the importer wrote it: it must read back */
        if (n == 0)
            break;
        for (size_t i = 0; i < n; i++)
            n_exits += recs[i].kind == TREC_EXIT;
    }
    trace_reader_close(r);
    return n_exits;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* every line through the parser alone */
    const char *s = (const char *)data, *e = s + size;
    while (s < e) {
        const char *nl = memchr(s, '\n', (size_t)(e - s));
        size_t len = nl ? (size_t)(nl - s) : (size_t)(e - s);
        ftrace_line l;
        ftrace_parse_line(s, len, &l);
        s += len + 1;
    }
    ftimport_opts o;
    ftimport_defaults(&o);
    o.name = "fuzz.txt";
    ftimport_report rep;
    if (ftimport_buf((const char *)data, size, &o, path_a, &rep) != SIM_OK)
        return 0;
    if (!rep.written || count_exits(path_a) != rep.exits)
        abort();
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    ftexport_opts eo;
    ftexport_defaults(&eo);
    eo.ns = true;
    ftexport_stats st;
    if (ftexport_trace(path_a, m, &eo, &st) != SIM_OK)
        abort();
    fclose(m);
    ftimport_report rep2;
    if (ftimport_buf(text, len, &o, path_b, &rep2) != SIM_OK ||
        rep2.malformed != 0 || rep2.exits != rep.exits)
        abort();
    free(text);
    unlink(path_a);
    unlink(path_b);
    return 0;
}
