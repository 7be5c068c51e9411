/* params: the parameter table (params.h) turned into defaults, an INI reader
 * (Debian libinih), --set parsing, `sim params show` and the markdown docs. */
#include "params.h"

#include "nearest.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct param_def {
    const char *name;
    int kind;
    const char *unit;
    double def, min, max;
    const char *source;
    const char *help;
} param_def;

static const param_def defs[PARAM__COUNT] = {
#define X(n, k, u, d, lo, hi, s, h) {#n, k, u, d, lo, hi, s, h},
    PARAM_LIST(X)
#undef X
};

void params_init(params *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < PARAM__COUNT; i++)
        p->v[i] = defs[i].def;
}

const char *param_name(param_id id)
{
    return defs[id].name;
}
const char *param_unit(param_id id)
{
    return defs[id].unit;
}
const char *param_help(param_id id)
{
    return defs[id].help;
}
double param_default(param_id id)
{
    return defs[id].def;
}

const char *param_source(param_id id)
{
    return defs[id].source;
}

int param_from_name(const char *name)
{
    for (int i = 0; i < PARAM__COUNT; i++)
        if (!strcmp(defs[i].name, name))
            return i;
    return -1;
}

double param_min(param_id id)
{
    return defs[id].min;
}
double param_max(param_id id)
{
    return defs[id].max;
}
int param_kind(param_id id)
{
    return defs[id].kind;
}

int param_is_linear(param_id id)
{
    switch (id) {
#define X(n) case PARAM_##n:
        PARAM_SWEEP_LINEAR(X)
#undef X
        return 1;
    default: return 0;
    }
}

const char *param_nearest_name(const char *name)
{
    nearest n;
    nearest_init(&n, name);
    for (int i = 0; i < PARAM__COUNT; i++)
        nearest_offer(&n, defs[i].name);
    return nearest_best(&n);
}

/* A number with an optional k/M/G suffix: powers of base, 1000 (core_hz
 * = 667M) or 1024 for a size in bytes (icache_bytes = 32K is 32768, the
 * 440's cache; read as 32000 it was a cache of 1000 lines). */
static int parse_number(const char *s, double *v, double base)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s)
        return -1;
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || errno == ERANGE)
        return -1;
    if (*end == 'k' || *end == 'K')
        x *= base, end++;
    else if (*end == 'M')
        x *= base * base, end++;
    else if (*end == 'G')
        x *= base * base * base, end++;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end || !isfinite(x))
        return -1;
    *v = x;
    return 0;
}

sim_err params_set(params *p, param_id id, double v, const char *where)
{
    const param_def *d = &defs[id];
    if (!isfinite(v))
        return sim_fail(SIM_ERR_RANGE, "%s: %s: not a finite number", where,
                        d->name);
    if (d->kind != PK_REAL && v != floor(v))
        return sim_fail(SIM_ERR_RANGE,
                        "%s: %s = %.15g: must be a whole number "
                        "of %s",
                        where, d->name, v, d->unit);
    if (v < d->min || v > d->max)
        return sim_fail(SIM_ERR_RANGE,
                        "%s: %s = %g %s is out of range "
                        "[%g, %g]",
                        where, d->name, v, d->unit, d->min, d->max);
    if (d->kind == PK_POW2 && (v < 1 || v != ldexp(1.0, ilogb(v))))
        return sim_fail(SIM_ERR_RANGE, "%s: %s = %g %s: must be a power of two",
                        where, d->name, v, d->unit);
    p->v[id] = v;
    return SIM_OK;
}

/* Where a resolved value came from, for messages. */
static const char *origin_name(const params *p, int id)
{
    return p->origin[id] == PO_SET    ? "--set"
           : p->origin[id] == PO_FILE ? p->file
                                      : "default";
}

sim_err params_check(const params *p)
{
    double line = P(p, cache_line_bytes);
    for (int i = 0; i < PARAM__COUNT; i++)
        if (defs[i].kind == PK_LINES && fmod(p->v[i], line) != 0)
            return sim_fail(SIM_ERR_RANGE,
                            "%s: %s = %g bytes is not a whole number of "
                            "cache lines (cache_line_bytes = %g, from %s)",
                            origin_name(p, i), defs[i].name, p->v[i], line,
                            origin_name(p, PARAM_cache_line_bytes));
    return SIM_OK;
}

/* Parses "name = value" text once a name is known to be valid. */
static sim_err set_named(params *p, const char *name, const char *value,
                         const char *where, int *idp)
{
    int id = param_from_name(name);
    if (id < 0)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: unknown parameter '%s' (did you "
                        "mean '%s'? see `sim params show`)",
                        where, name, param_nearest_name(name));
    double v;
    if (parse_number(value, &v,
                     strcmp(defs[id].unit, "bytes") ? 1000 : 1024) != 0)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: %s = '%s': expected a number "
                        "(in %s)",
                        where, name, value, defs[id].unit);
    *idp = id;
    return params_set(p, (param_id)id, v, where);
}

sim_err params_set_str(params *p, const char *assign)
{
    const char *eq = strchr(assign, '=');
    if (!eq || eq == assign)
        return sim_fail(SIM_ERR_USAGE, "--set %s: expected name=value", assign);
    char name[64];
    size_t n = (size_t)(eq - assign);
    while (n > 0 && assign[n - 1] == ' ')
        n--;
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, assign, n);
    name[n] = '\0';
    int id;
    sim_err e = set_named(p, name, eq + 1, "--set", &id);
    if (e == SIM_OK)
        p->origin[id] = PO_SET;
    return e;
}

typedef struct ini_ctx {
    params *p;
    const char *path;
    int failed; /* first error recorded; later lines ignored */
    sim_err err;
    char msg[512];
    bool seen[PARAM__COUNT]; /* each parameter once per file */
} ini_ctx;

/* inih (Debian's build) gives the handler no line number; returning 0 makes
 * ini_parse return the line of the first error, which is then put into the
 * message recorded here. */
static int params_ini_line(void *user, const char *section, const char *name,
                           const char *value)
{
    ini_ctx *c = user;
    if (c->failed)
        return 1;
    if (section && *section) {
        c->failed = 1;
        c->err = SIM_ERR_FORMAT;
        snprintf(c->msg, sizeof c->msg,
                 "section [%s]: parameters are not "
                 "grouped in sections; write `name = value` lines",
                 section);
        return 0;
    }
    /* inih strips inline ';' comments only; '#' ones are documented too
     * (no value holds a '#') */
    char v[256];
    snprintf(v, sizeof v, "%s", value);
    char *hash = strchr(v, '#');
    if (hash)
        *hash = '\0';
    int id = -1;
    sim_err e = set_named(c->p, name, v, "@", &id);
    if (e != SIM_OK) {
        c->failed = 1;
        c->err = e;
        /* drop the "@: " placeholder; the caller prefixes path:line */
        const char *m = sim_errmsg();
        snprintf(c->msg, sizeof c->msg, "%s", strncmp(m, "@: ", 3) ? m : m + 3);
        return 0;
    }
    /* a second value (a repeated line, or inih's continuation of an
     * indented line) would silently replace the first */
    if (c->seen[id]) {
        c->failed = 1;
        c->err = SIM_ERR_FORMAT;
        snprintf(c->msg, sizeof c->msg,
                 "%s given twice (a parameter file sets each once; an "
                 "indented line continues the one before)", name);
        return 0;
    }
    c->seen[id] = true;
    c->p->origin[id] = PO_FILE;
    return 1;
}

/* The outcome of ini_parse / ini_parse_string as a status. */
static sim_err ini_result(params *p, ini_ctx *c, int rc, const char *name)
{
    if (rc == -2)
        return sim_fail(SIM_ERR_NOMEM, "%s: out of memory", name);
    if (rc > 0) {
        if (c->failed)
            return sim_fail(c->err, "%s:%d: %s", name, rc, c->msg);
        return sim_fail(SIM_ERR_FORMAT,
                        "%s:%d: expected `name = value`",
                        name, rc);
    }
    snprintf(p->file, sizeof p->file, "%s", name);
    return SIM_OK;
}

/* What inih (Debian's build) would read otherwise than it is written,
 * refused before it parses: a NUL byte (fgets ends its line there: the rest
 * of "1.5\0garbage" passed unseen), a line longer than its buffer (split
 * in two: the tail read as a line of its own, every later error named one
 * line too far) and ':' for '=' (inih's other delimiter, not this file's
 * `name = value`). Fed one character at a time, EOF last. */
#define INI_LINE_MAX 198 /* inih's 200-byte buffer: the line, '\n', NUL */
typedef struct ini_scan {
    const char *name;
    unsigned line, len; /* the line (from 1), its bytes so far */
    int first;          /* its first non-blank character; 0: none yet */
    bool eq, colon;     /* an '=' seen; a ':' seen before any '=' */
} ini_scan;

static sim_err ini_scan_char(ini_scan *s, int ch)
{
    if (ch == '\0')
        return sim_fail(SIM_ERR_FORMAT, "%s:%u: a NUL byte: a parameter "
                        "file is text", s->name, s->line);
    if (ch == '\n' || ch == EOF) {
        bool note = s->first && !strchr(";#[", s->first);
        if (note && s->colon)
            return sim_fail(SIM_ERR_FORMAT, "%s:%u: expected `name = value`, "
                            "found ':' before any '='", s->name, s->line);
        s->line++;
        s->len = 0;
        s->first = 0;
        s->eq = s->colon = false;
        return SIM_OK;
    }
    if (++s->len > INI_LINE_MAX)
        return sim_fail(SIM_ERR_FORMAT, "%s:%u: a line of more than %d "
                        "characters (the parameter reader would split it)",
                        s->name, s->line, INI_LINE_MAX);
    if (!s->first && ch != ' ' && ch != '\t' && ch != '\r')
        s->first = ch;
    if (ch == '=')
        s->eq = true;
    else if (ch == ':' && !s->eq)
        s->colon = true;
    return SIM_OK;
}

sim_err params_load_file(params *p, const char *path)
{
    ini_ctx c = {.p = p, .path = path};
    FILE *f = fopen(path, "r");
    if (!f)
        return sim_fail(SIM_ERR_IO, "%s: cannot open: %s", path,
                        strerror(errno));
    /* a directory opens, then reads as an empty file: refuse it */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return sim_fail(SIM_ERR_IO, "%s: is a directory, not a parameter "
                                    "file", path);
    }
    ini_scan s = {.name = path, .line = 1};
    for (int ch = 0; ch != EOF;) {
        ch = getc(f);
        sim_err e = ini_scan_char(&s, ch);
        if (e != SIM_OK) {
            fclose(f);
            return e;
        }
    }
    rewind(f);
    int rc = ini_parse_file(f, params_ini_line, &c);
    int bad = ferror(f);
    fclose(f);
    if (bad && rc == 0)
        return sim_fail(SIM_ERR_IO, "%s: read failed", path);
    return ini_result(p, &c, rc, path);
}

sim_err params_load_string(params *p, const char *text, const char *name)
{
    ini_ctx c = {.p = p, .path = name};
    ini_scan s = {.name = name, .line = 1};
    for (const char *t = text;; t++) {
        sim_err e = ini_scan_char(&s, *t ? (unsigned char)*t : EOF);
        if (e != SIM_OK)
            return e;
        if (!*t)
            break;
    }
    return ini_result(p, &c, ini_parse_string(text, params_ini_line, &c), name);
}

/* %g that keeps integers whole (667000000, not 6.67e+08). */
static void fmt_value(char *buf, size_t n, double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%g", v);
}

void params_write_show(FILE *f, const params *p)
{
    fprintf(f, "# %-22s %12s %-12s %s\n", "name", "value", "unit", "source");
    for (int i = 0; i < PARAM__COUNT; i++) {
        char v[32];
        fmt_value(v, sizeof v, p->v[i]);
        /* a default names where it comes from, as docs/parameters.md */
        const char *o = p->origin[i] == PO_SET    ? "--set"
                        : p->origin[i] == PO_FILE ? "file"
                                                  : "default:";
        fprintf(f, "%-24s %12s %-12s %s", defs[i].name, v, defs[i].unit, o);
        if (p->origin[i] == PO_FILE)
            fprintf(f, " %s", p->file);
        else if (p->origin[i] == PO_DEFAULT)
            fprintf(f, " %s", defs[i].source);
        fputc('\n', f);
    }
}

void params_write_doc(FILE *f)
{
    fprintf(
        f,
        "# sim440 parameters\n"
        "\n"
        "Generated by `sim params doc` from the one parameter table in\n"
        "`model/params.h`; a test checks that this file equals the output.\n"
        "Costs are in core cycles (timebase ticks = core cycles on "
        "440EP/EPx).\n"
        "\n"
        "Every default is a **default, not a fitted value**: it comes from\n"
        "`docs/kvm440.md` (section given) or is an assumption "
        "to\n"
        "be calibrated. Calibration may use the no-PV hardware table; the PV\n"
        "table is for validation only and is never used to set a parameter.\n"
        "\n"
        "The host's rates (`host_tick_hz`, `host_irq_hz`, `signal_hz`) are "
        "one\n"
        "set for `sim record` (cpu440), the cycle model and the SystemC\n"
        "platform. Each is an exit rate of the no-PV table divided by its\n"
        "guest-time share, since only arrivals while the guest runs are\n"
        "DEC/EXTINT exits. That kernel truncated every sample to whole usec\n"
        "before adding it up, so the table's sums lose about 0.5 usec per\n"
        "sample: with that added back for its 20M samples the run lasted\n"
        "212.24 s (printed: 202.24) and the guest ran 7.47%% of it (printed:\n"
        "5.37%%). A synthetic trace drawn from that table agrees: replayed on\n"
        "the SystemC platform at 1068/s it gets the trace's own DEC count.\n"
        "The host's own UTLB pages (`common_host_pages`,\n"
        "`path_host_pages`, `qemu_host_pages`, `hostirq_host_pages`) are one\n"
        "set too: the\n"
        "guest shadow entries they evict decide the VIRT misses of a run\n"
        "`sim record` records and of one the cycle model predicts, by one\n"
        "rule (`docs/cost-model.md`, \"Soft TLB state\"; `docs/cpu440.md`).\n"
        "So is the UTLB's geometry (`utlb_entries`, `utlb_pinned`): the\n"
        "recorded guest's UTLB and the model's soft TLB have the same slots\n"
        "(`docs/cpu440.md`, \"A UTLB of another size\").\n"
        "\n"
        "Override with an INI file (`--params P`, lines `name = value`, `;` "
        "or\n"
        "`#` comments, no sections, each parameter once, lines of at most 198\n"
        "characters, values may end in\n"
        "k/M/G: powers of 1000, of 1024 for a size in bytes, `32K` = 32768)\n"
        "or with\n"
        "`--set name=value`; `sim params show` prints the resolved values.\n"
        "\n"
        "| name | default | unit | range | source of the default | meaning |\n"
        "|---|---|---|---|---|---|\n");
    for (int i = 0; i < PARAM__COUNT; i++) {
        char d[32], lo[32], hi[32];
        fmt_value(d, sizeof d, defs[i].def);
        fmt_value(lo, sizeof lo, defs[i].min);
        fmt_value(hi, sizeof hi, defs[i].max);
        fprintf(f, "| `%s` | %s | %s | %s .. %s%s | %s | %s |\n", defs[i].name,
                d, defs[i].unit, lo, hi,
                defs[i].kind == PK_INT    ? ", whole"
                : defs[i].kind == PK_POW2 ? ", a power of two"
                : defs[i].kind == PK_LINES ? ", whole cache lines"
                                           : "",
                defs[i].source,
                defs[i].help);
    }
}
