/* tableio: the five text forms of an exit-timing table, read and written:
 * kvm (the seed's layout), debugfs (arch/powerpc/kvm/timing.c's seq_printf),
 * perf (perf kvm stat report), csv and json (jansson). Every form is
 * described in docs/tables.md. Parsers never trust the input: each problem
 * is "name:line: expected <what>, found '<token>'". */
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "table.h"
#include "table_priv.h"

/* ==== lexing ==== */

typedef struct tok {
    const char *s;
    size_t n;
} tok;

typedef struct lex {
    const char *p, *end;
    const char *name;
    unsigned lineno;
    tok line; /* current line, without "\n" or "\r\n" */
} lex;

static void lex_init(lex *x, const char *text, size_t len, const char *name)
{
    *x = (lex){.p = text, .end = text + len, .name = name};
}

static bool next_line(lex *x)
{
    if (x->p >= x->end)
        return false;
    const char *nl = memchr(x->p, '\n', (size_t)(x->end - x->p));
    const char *e = nl ? nl : x->end;
    x->line = (tok){x->p, (size_t)(e - x->p)};
    if (x->line.n && x->line.s[x->line.n - 1] == '\r')
        x->line.n--;
    x->p = nl ? nl + 1 : x->end;
    x->lineno++;
    return true;
}

/* The length of the blank at s (at most n bytes), 0 if none: a space, a
 * tab, or a UTF-8 no-break space (C2 A0), which a table copied from a
 * web page or an HTML mail has between its columns. */
static size_t blank_at(const char *s, size_t n)
{
    if (n && (*s == ' ' || *s == '\t'))
        return 1;
    if (n >= 2 && (unsigned char)s[0] == 0xc2 && (unsigned char)s[1] == 0xa0)
        return 2;
    return 0;
}

/* The same, of the blank that ends at s + n. */
static size_t blank_before(const char *s, size_t n)
{
    if (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        return 1;
    if (n >= 2 && (unsigned char)s[n - 2] == 0xc2 &&
        (unsigned char)s[n - 1] == 0xa0)
        return 2;
    return 0;
}

static tok trim(tok t)
{
    size_t k;
    while ((k = blank_at(t.s, t.n)) != 0)
        t.s += k, t.n -= k;
    while ((k = blank_before(t.s, t.n)) != 0)
        t.n -= k;
    return t;
}

/* Blank lines and "#" comments carry nothing in any text form. */
static bool is_filler(tok line)
{
    tok t = trim(line);
    return t.n == 0 || t.s[0] == '#';
}

/* Next line that is not blank or a comment; false at end of input. */
static bool next_content(lex *x)
{
    while (next_line(x))
        if (!is_filler(x->line))
            return true;
    return false;
}

/* Splits on blanks (blank_at). Returns the number of tokens (counting
 * past max, so callers can tell "too many"). */
static size_t split_ws(tok line, tok *out, size_t max)
{
    size_t n = 0, i = 0, k;
    while (i < line.n) {
        while ((k = blank_at(line.s + i, line.n - i)) != 0)
            i += k;
        if (i >= line.n)
            break;
        size_t b = i;
        while (i < line.n && !blank_at(line.s + i, line.n - i))
            i++;
        if (n < max)
            out[n] = (tok){line.s + b, i - b};
        n++;
    }
    return n;
}

static bool tok_is(tok t, const char *s)
{
    return t.n == strlen(s) && memcmp(t.s, s, t.n) == 0;
}

static bool tok_starts(tok t, const char *s)
{
    size_t n = strlen(s);
    return t.n >= n && memcmp(t.s, s, n) == 0;
}

/* A token as it may appear in a message: at most 40 bytes, non-printable
 * bytes as \xNN (the input may be anything). */
static const char *show(char buf[200], tok t)
{
    size_t o = 0;
    for (size_t i = 0; i < t.n && o < 190; i++) {
        unsigned char c = (unsigned char)t.s[i];
        if (i == 40) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        if (c >= 0x20 && c < 0x7f && c != '\'')
            buf[o++] = (char)c;
        else
            o += (size_t)snprintf(buf + o, 200 - o, "\\x%02x", c);
    }
    buf[o] = '\0';
    return buf;
}

static sim_err expected(const lex *x, const char *what, tok found)
{
    char b[200];
    return sim_fail(SIM_ERR_FORMAT, "%s:%u: expected %s, found '%s'", x->name,
                    x->lineno, what, show(b, found));
}

static sim_err expected_eof(const lex *x, const char *what)
{
    /* the position is the last line read: the file ends after it */
    return sim_fail(SIM_ERR_FORMAT,
                    "%s:%u: expected %s after this line, found the end of "
                    "the file",
                    x->name, x->lineno, what);
}

/* ==== numbers ==== */

typedef enum numst {
    NUM_OK,
    NUM_SYNTAX,
    NUM_NEG,
    NUM_NONFINITE,
    NUM_LONG,
    NUM_OVERFLOW,
} numst;

/* A decimal number. With `commas`, ',' separates digit groups anywhere
 * inside the integer part, as the seed's "7259,180" (= 7259180): never
 * first, last or doubled. */
static numst scan_num(tok t, bool commas, double *v)
{
    char buf[80];
    size_t k = 0, i = 0;
    bool neg = false;
    if (i < t.n && (t.s[i] == '-' || t.s[i] == '+'))
        neg = t.s[i++] == '-';
    tok rest = {t.s + i, t.n - i};
    if (rest.n >= 3 && (strncasecmp(rest.s, "nan", 3) == 0 ||
                        strncasecmp(rest.s, "inf", 3) == 0)) {
        if (rest.n == 3 || (rest.n == 8 && !strncasecmp(rest.s, "infinity", 8)))
            return NUM_NONFINITE;
        return NUM_SYNTAX;
    }
    size_t digits = 0;
    bool after_comma = false;
    for (; i < t.n; i++) {
        char c = t.s[i];
        if (c >= '0' && c <= '9') {
            if (k >= 64)
                return NUM_LONG;
            buf[k++] = c;
            digits++;
            after_comma = false;
        } else if (c == ',' && commas && digits && !after_comma) {
            after_comma = true;
        } else {
            break;
        }
    }
    if (!digits || after_comma)
        return NUM_SYNTAX;
    if (i < t.n && t.s[i] == '.') {
        buf[k++] = '.';
        size_t fd = 0;
        for (i++; i < t.n && t.s[i] >= '0' && t.s[i] <= '9'; i++, fd++) {
            if (k >= 72)
                return NUM_LONG;
            buf[k++] = t.s[i];
        }
        if (!fd)
            return NUM_SYNTAX;
    }
    if (i < t.n && (t.s[i] == 'e' || t.s[i] == 'E')) {
        buf[k++] = 'e';
        i++;
        if (i < t.n && (t.s[i] == '-' || t.s[i] == '+'))
            buf[k++] = t.s[i++];
        size_t ed = 0;
        for (; i < t.n && t.s[i] >= '0' && t.s[i] <= '9'; i++, ed++) {
            if (k >= 78)
                return NUM_LONG;
            buf[k++] = t.s[i];
        }
        if (!ed)
            return NUM_SYNTAX;
    }
    if (i != t.n)
        return NUM_SYNTAX;
    buf[k] = '\0';
    *v = strtod(buf, NULL);
    if (!isfinite(*v))
        return NUM_NONFINITE;
    if (neg && *v != 0)
        return NUM_NEG;
    *v = fabs(*v); /* "-0" is 0 */
    return NUM_OK;
}

static numst scan_count(tok t, bool commas, uint64_t *v)
{
    size_t i = 0;
    if (t.n && t.s[0] == '-') {
        double d;
        return scan_num(t, commas, &d) == NUM_SYNTAX ? NUM_SYNTAX : NUM_NEG;
    }
    if (t.n && t.s[0] == '+')
        i++;
    uint64_t x = 0;
    size_t digits = 0;
    bool after_comma = false;
    for (; i < t.n; i++) {
        char c = t.s[i];
        if (c >= '0' && c <= '9') {
            unsigned d = (unsigned)(c - '0');
            if (x > (UINT64_MAX - d) / 10)
                return NUM_OVERFLOW;
            x = x * 10 + d;
            digits++;
            after_comma = false;
        } else if (c == ',' && commas && digits && !after_comma) {
            after_comma = true;
        } else {
            return NUM_SYNTAX;
        }
    }
    if (!digits || after_comma)
        return NUM_SYNTAX;
    *v = x;
    return NUM_OK;
}

/* Parses a value column; "-" means "not given" when dash_ok. */
static sim_err get_num(const lex *x, tok t, bool commas, bool dash_ok,
                       const char *what, double *v)
{
    char w[96], b[200];
    if (dash_ok && tok_is(t, "-")) {
        *v = NAN;
        return SIM_OK;
    }
    switch (scan_num(t, commas, v)) {
    case NUM_OK: return SIM_OK;
    case NUM_NEG:
        snprintf(w, sizeof w, "a non-negative %s", what);
        return expected(x, w, t);
    case NUM_NONFINITE:
        return sim_fail(SIM_ERR_RANGE,
                        "%s:%u: %s is not a finite number: "
                        "'%s'",
                        x->name, x->lineno, what, show(b, t));
    case NUM_LONG:
        snprintf(w, sizeof w, "%s with at most 64 digits", what);
        return expected(x, w, t);
    default:
        snprintf(w, sizeof w, "a number for %s", what);
        return expected(x, w, t);
    }
}

static sim_err get_count(const lex *x, tok t, bool commas, uint64_t *v)
{
    char b[200];
    switch (scan_count(t, commas, v)) {
    case NUM_OK: return SIM_OK;
    case NUM_NEG: return expected(x, "a non-negative count", t);
    case NUM_OVERFLOW:
        return sim_fail(SIM_ERR_FORMAT,
                        "%s:%u: expected a count below 2^64, "
                        "found '%s' (count overflow)",
                        x->name, x->lineno, show(b, t));
    default: return expected(x, "an integer count", t);
    }
}

/* ==== rows ==== */

/* Exit type of a row name; unknown names are an error, never dropped. */
static sim_err get_type(const lex *x, tok t, int *type)
{
    int ty = exit_from_namen(t.s, (unsigned)(t.n > 64 ? 64 : t.n));
    if (ty >= 0 && t.n <= 64) {
        *type = ty;
        return SIM_OK;
    }
    char name[65], b[200];
    size_t n = t.n < 64 ? t.n : 64;
    memcpy(name, t.s, n);
    name[n] = '\0';
    return sim_fail(SIM_ERR_FORMAT,
                    "%s:%u: unknown exit type '%s' (did you mean %s?)", x->name,
                    x->lineno, show(b, t), exit_nearest_name(name));
}

/* A row that contradicts itself beyond any printing's rounding: time
 * without exits, a printed avg 1% or more away from its own sum/count, an
 * avg outside its min and max, or a stddev wider than they allow (a typo,
 * a column shifted). Rounding stays far below that (avg printed
 * with 4 decimals, or 2 in perf, whose sum is avg x count anyway); smaller
 * mismatches are for `sim table show --check`. Commands that read a table
 * (calibrate fits its avg) must not take a side silently. Writes the
 * problem into msg and returns true. */
static bool row_contradicts(const table_row *r, const char *type, char *msg,
                            size_t n)
{
    if (r->count == 0 && (r->sum > 0 || r->max > 0)) {
        snprintf(msg, n, "%s: no exits (count 0) but sum %g and max %g usec",
                 type, r->sum, r->max);
        return true;
    }
    /* a share of a total: more than 100 is no rounding (a column shifted,
     * a sum typed there); read, it was carried into every output */
    if (isfinite(r->time_pct) && r->time_pct > 100.005) {
        snprintf(msg, n, "%s: time%% %.2f, more than 100: the row "
                 "contradicts itself (a column mistyped or shifted?)",
                 type, r->time_pct);
        return true;
    }
    if (r->count == 0)
        return false;
    if (!isnan(r->avg)) {
        double q = r->sum / (double)r->count;
        /* a sum printed truncated to whole usec (3.1+'s, from ticks) may
         * be up to 1 usec short of the one the avg was printed from */
        double up = r->sum == floor(r->sum) ? 1.0 / (double)r->count : 0;
        double tol = fmax(0.01 * fabs(q), 0.005);
        if (r->avg < q - tol || r->avg > q + up + tol) {
            snprintf(msg, n, "%s: avg %.4f but sum/count = %.4f (%.0f / "
                     "%llu): the row contradicts itself", type, r->avg, q,
                     r->sum, (unsigned long long)r->count);
            return true;
        }
    }
    /* min <= avg <= max: the kernel truncates min, max and sum alike
     * (2.6.29 each sample, 3.1+ each total: floor(n a) >= n floor(a)), so
     * only the avg's printing (2 decimals in perf) and a max truncated
     * below the true one (< 1 usec) separate them. Checked before the
     * spread, which a max typed too small breaks as well: the message
     * names the column that is off, not its consequence */
    double avg = isnan(r->avg) ? r->sum / (double)r->count : r->avg;
    if (isfinite(avg) && isfinite(r->min) && isfinite(r->max) &&
        (avg < r->min - 0.01 || avg > r->max + 1.01)) {
        snprintf(msg, n, "%s: avg %.4f %s its %s %g (min %g, max %g): the "
                 "row contradicts itself (a column mistyped or shifted?)",
                 type, avg, avg < r->min ? "below" : "above",
                 avg < r->min ? "min" : "max", avg < r->min ? r->min : r->max,
                 r->min, r->max);
        return true;
    }
    /* samples between min and max spread at most (max - min) / 2 (+1: a
     * max printed truncated; x sqrt(n / (n - 1)) for an n - 1 stddev). A
     * 3.1+ debugfs file read without its ticks per usec breaks it: its
     * sum_squared, in tick x usec, made DEC's 203.9 usec read as 5704 */
    /* a stddev derived from sum and sum_squared: the smallest one their
     * printing allows (a sum truncated toward zero, up to 1 usec short:
     * with a few exits that alone makes 12, 12, 12, 13 usec read as a
     * spread of 1.3 where min 12 and max 12 allow 0.58) */
    bool derived = isnan(r->stddev);
    double sd = derived ? table_stddev_of(r->count, r->sum + 1, r->sum_sq)
                        : r->stddev;
    double n1 = r->count > 1 ? (double)r->count : 2;
    double bound = (r->max + 1 - r->min) / 2 * sqrt(n1 / (n1 - 1)) + 0.001;
    if (isfinite(sd) && isfinite(r->min) && isfinite(r->max) && sd > bound) {
        /* the timebase hint only where the stddev comes from sum_squared
         * (debugfs): a printed stddev has no ticks in it */
        snprintf(msg, n, "%s: stddev %.3f, more than samples between min %g "
                 "and max %g can spread (%.3f): the row contradicts itself%s",
                 type, sd, r->min, r->max, bound,
                 derived ? " (a 3.1+ debugfs file needs its timebase ticks "
                           "per usec: --tb-per-usec, a validation case's "
                           "params core_hz)"
                         : " (a column mistyped or shifted?)");
        return true;
    }
    return false;
}

/* 3.5+ prints its three unnamed types (RFCI, DBELL, GDBELL) as "(null)":
 * harmless while unused, in the debugfs file and in any form made from it
 * (kvm, csv); *skip says the row is one. With exits it is refused: sim440
 * does not model them. */
static sim_err null_row(const lex *x, tok name, uint64_t count, bool *skip)
{
    *skip = false;
    if (!tok_is(name, "(null)"))
        return SIM_OK;
    if (count == 0) {
        *skip = true;
        return SIM_OK;
    }
    return sim_fail(SIM_ERR_FORMAT,
                    "%s:%u: expected count 0 in an unnamed '(null)' row "
                    "(RFCI, DBELL or GDBELL of 3.5+, which sim440 does not "
                    "model), found %llu",
                    x->name, x->lineno, (unsigned long long)count);
}

/* Stores a parsed row: rejects a second row of a type and absurd values;
 * a row with count 0 and nothing in it becomes "never hit" (debugfs prints
 * every type). */
static sim_err put_row(const lex *x, table *t, int ty, table_row r)
{
    table_row *o = &t->rows[ty];
    if (o->present || t->never_hit[ty]) {
        char w[96];
        snprintf(w, sizeof w, "one row per type (the first %s is at line %u)",
                 exit_name((exit_type)ty), o->line);
        return sim_fail(SIM_ERR_FORMAT,
                        "%s:%u: expected %s, found a second '%s' row", x->name,
                        x->lineno, w, exit_name((exit_type)ty));
    }
    r.line = x->lineno;
    if (r.count > 0 && !(r.min <= r.max))
        return sim_fail(SIM_ERR_RANGE, "%s:%u: %s: min %g > max %g", x->name,
                        x->lineno, exit_name((exit_type)ty), r.min, r.max);
    char why[320];
    if (row_contradicts(&r, exit_name((exit_type)ty), why, sizeof why))
        return sim_fail(SIM_ERR_RANGE, "%s:%u: %s", x->name, x->lineno, why);
    if (r.count == 0 && r.sum == 0 && r.max == 0) {
        t->never_hit[ty] = true;
        o->line = x->lineno;
        return SIM_OK;
    }
    r.present = true;
    *o = r;
    return SIM_OK;
}

static table_row blank_row(void)
{
    return (table_row){.min = NAN,
                       .max = NAN,
                       .sum = NAN,
                       .sum_sq = NAN,
                       .avg = NAN,
                       .stddev = NAN,
                       .time_pct = NAN};
}

/* Fills what the format did not carry (avg, stddev, time%) and leaves what
 * it did alone, so table_check can compare the two. */
static void fill_missing(table *t)
{
    for (int i = 0; i < EXIT__COUNT; i++) {
        table_row *r = &t->rows[i];
        if (!r->present || r->count == 0)
            continue;
        if (isnan(r->avg))
            r->avg = r->sum / (double)r->count;
        if (isnan(r->stddev))
            r->stddev = table_stddev_of(r->count, r->sum, r->sum_sq);
        if (isnan(r->time_pct) && isfinite(t->traced_usec) &&
            t->traced_usec > 0)
            r->time_pct = 100.0 * r->sum / t->traced_usec;
    }
}

/* The kernel charges every usec to one row, guest time included: when the
 * table has TIMEINGUEST, the sum of all rows is the traced duration. */
static double sum_of_rows_if_guest(const table *t)
{
    if (!table_row_has_data(&t->rows[EXIT_TIMEINGUEST]))
        return NAN;
    double s = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        if (table_row_has_data(&t->rows[i]))
            s += t->rows[i].sum;
    return s;
}

static sim_err set_title(const lex *x, table *t, tok title)
{
    char b[200];
    if (title.n >= sizeof t->title)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s:%u: expected a title of at most "
                        "%zu characters, found '%s' (%zu)",
                        x->name, x->lineno, sizeof t->title - 1, show(b, title),
                        title.n);
    for (size_t i = 0; i < title.n; i++)
        if ((unsigned char)title.s[i] < 0x20 || title.s[i] == 0x7f)
            return expected(x, "a printable title", title);
    memcpy(t->title, title.s, title.n);
    t->title[title.n] = '\0';
    return SIM_OK;
}

/* ==== kvm: the seed's layout ==== */

static const char *const kvm_header[] = {"type", "count", "min",    "max",
                                         "sum",  "avg",   "stddev", "time%"};
#define KVM_HEADER "type count min max sum avg stddev time%"
#define OTHER_NAME "(other)"

static bool is_header(tok line, const char *const *names, size_t n)
{
    tok tk[16];
    if (split_ws(line, tk, 16) != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!tok_is(tk[i], names[i]))
            return false;
    return true;
}

/* One "NAME count min max sum avg stddev time%" row. */
static sim_err kvm_row(const lex *x, tok *tk, size_t n, table_row *r)
{
    if (n < 8)
        return expected(x, "8 columns (" KVM_HEADER ")", trim(x->line));
    if (n > 8) {
        /* "16 937": digits grouped by a blank (a space, a no-break space)
         * read as two columns; the message names the likely cause */
        tok all[9];
        split_ws(x->line, all, 9);
        for (size_t i = 2; i < 9; i++) {
            tok a = all[i - 1], b = all[i];
            bool group = b.n == 3 && isdigit((unsigned char)a.s[a.n - 1]);
            for (size_t j = 0; group && j < 3; j++)
                group = isdigit((unsigned char)b.s[j]) != 0;
            if (group)
                return expected(x, "end of line after 8 columns (digits "
                                   "grouped by a blank? only ',' groups "
                                   "digits)", tk[8]);
        }
        return expected(x, "end of line after 8 columns", tk[8]);
    }
    /* avg, stddev and time% have decimals: one without a '.' whose last
     * ',' is not followed by a group of three digits ("14,2804", "45,36")
     * is a decimal comma, which read as a digit group made the value 10^k
     * times itself */
    static const char *const dec_cols[] = {"avg", "stddev", "time%"};
    for (size_t i = 5; i < 8; i++) {
        tok v = tk[i];
        const char *c = NULL;
        for (size_t j = 0; j < v.n; j++) {
            if (v.s[j] == '.')
                c = NULL, j = v.n;
            else if (v.s[j] == ',')
                c = v.s + j;
        }
        if (c && v.s + v.n - c - 1 != 3) {
            char w[96];
            snprintf(w, sizeof w, "a number for %s with '.' as its decimal "
                     "point (',' groups digits: a decimal comma?)",
                     dec_cols[i - 5]);
            return expected(x, w, v);
        }
    }
    *r = blank_row();
    sim_err e;
    if ((e = get_count(x, tk[1], true, &r->count)) ||
        (e = get_num(x, tk[2], true, false, "min", &r->min)) ||
        (e = get_num(x, tk[3], true, false, "max", &r->max)) ||
        (e = get_num(x, tk[4], true, false, "sum", &r->sum)) ||
        (e = get_num(x, tk[5], true, true, "avg", &r->avg)) ||
        (e = get_num(x, tk[6], true, true, "stddev", &r->stddev)) ||
        (e = get_num(x, tk[7], true, true, "time%", &r->time_pct)))
        return e;
    return SIM_OK;
}

static sim_err kvm_never_hit(const lex *x, table *t, tok rest)
{
    size_t i = 0, k;
    while (i < rest.n) {
        while (i < rest.n && ((k = blank_at(rest.s + i, rest.n - i)) != 0 ||
                              rest.s[i] == ','))
            i += k ? k : 1;
        if (i >= rest.n)
            break;
        size_t b = i;
        while (i < rest.n && !blank_at(rest.s + i, rest.n - i) &&
               rest.s[i] != ',')
            i++;
        tok name = {rest.s + b, i - b};
        int ty = -1;
        sim_err e = get_type(x, name, &ty);
        if (e)
            return e;
        if (table_row_has_data(&t->rows[ty])) {
            char w[96];
            snprintf(w, sizeof w,
                     "a type without a row (%s has one at line "
                     "%u)",
                     exit_name((exit_type)ty), t->rows[ty].line);
            return expected(x, w, name);
        }
        if (t->never_hit[ty])
            return expected(x, "each type once in the never-hit list", name);
        t->never_hit[ty] = true;
        t->rows[ty].line = x->lineno;
    }
    return SIM_OK;
}

/* The `--fold-emul` block: EMUL_* rows and "(other)", the part of EMULINST
 * without a subtype. Restores the unfolded rows. */
static sim_err kvm_breakdown(lex *x, table *t)
{
    if (!next_content(x))
        return expected_eof(x, "header '" KVM_HEADER "'");
    if (!is_header(x->line, kvm_header, 8))
        return expected(x, "header '" KVM_HEADER "'", trim(x->line));
    table_row folded = t->rows[EXIT_EMULINST];
    if (!folded.present)
        return expected(x, "an EMULINST row above its breakdown",
                        trim(x->line));
    t->rows[EXIT_EMULINST] = blank_row();
    uint64_t parts = 0;
    bool other = false;
    while (next_content(x)) {
        tok tk[9];
        size_t n = split_ws(x->line, tk, 9);
        table_row r;
        sim_err e = kvm_row(x, tk, n, &r);
        if (e)
            return e;
        int ty = -1;
        if (tok_is(tk[0], OTHER_NAME)) {
            if (other)
                return expected(x, "one " OTHER_NAME " row", tk[0]);
            other = true;
            ty = EXIT_EMULINST;
        } else {
            if ((e = get_type(x, tk[0], &ty)))
                return e;
            if (!exit_is_emul((exit_type)ty))
                return expected(x, "an EMUL_* type or " OTHER_NAME, tk[0]);
        }
        if ((e = put_row(x, t, ty, r)))
            return e;
        parts += r.count;
    }
    if (parts != folded.count)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s:%u: expected the EMULINST breakdown to add up to "
                        "EMULINST's count %llu (line %u), found %llu",
                        x->name, x->lineno, (unsigned long long)folded.count,
                        folded.line, (unsigned long long)parts);
    return SIM_OK;
}

/* The kvm and json forms state the traced duration, and the kernel
 * charges every usec to one row: with TIMEINGUEST the rows add up to it
 * (exactly in the seed's tables and in sim440's; allowed: 1 usec a row of
 * rounding and 0.1%); without it the exit rows cannot add up to more. Rows
 * missing at the end of a file cut at a line boundary are otherwise
 * invisible: the table would read as if they never happened. Returns the
 * sum of the rows when it misses the stated traced duration, else NAN. */
static double rows_miss_traced(const table *t)
{
    if (!isfinite(t->traced_usec))
        return NAN;
    bool guest = table_row_has_data(&t->rows[EXIT_TIMEINGUEST]);
    double sum = 0, rows = 0;
    for (int i = 0; i < EXIT__COUNT; i++)
        if (table_row_has_data(&t->rows[i])) {
            sum += t->rows[i].sum;
            rows++;
        }
    double tol = rows + 0.001 * t->traced_usec;
    if (guest ? fabs(sum - t->traced_usec) <= tol
              : sum - t->traced_usec <= tol)
        return NAN;
    return sum;
}

static sim_err kvm_rows_add_up(const lex *x, const table *t,
                               unsigned traced_line)
{
    double sum = rows_miss_traced(t);
    if (isnan(sum))
        return SIM_OK;
    return sim_fail(SIM_ERR_FORMAT,
                    "%s:%u: the rows add up to %.0f usec, but line %u gives "
                    "a traced duration of %.0f usec (%+.2f%%): a truncated or "
                    "edited table?",
                    x->name, x->lineno, sum, traced_line, t->traced_usec,
                    100.0 * (sum - t->traced_usec) / t->traced_usec);
}

static sim_err parse_kvm(table *t, lex *x)
{
    sim_err e;
    tok tk[9];
    if (!next_content(x))
        return expected_eof(x, "a title or 'unit is usec'");
    if (!tok_starts(trim(x->line), "unit is")) {
        if ((e = set_title(x, t, trim(x->line))))
            return e;
        if (!next_content(x))
            return expected_eof(x, "'unit is usec'");
    }
    size_t n = split_ws(x->line, tk, 4);
    if (n < 2 || !tok_is(tk[0], "unit") || !tok_is(tk[1], "is"))
        return expected(x, "'unit is usec'", trim(x->line));
    if (n != 3 || !tok_is(tk[2], "usec"))
        return expected(x, "unit 'usec'", n > 2 ? tk[2] : trim(x->line));

    if (!next_content(x))
        return expected_eof(x, "'traced duration N usec'");
    /* The traced duration line is optional: the kernel prints none (it is
     * the author's sum in the seed's post), and a table without it is
     * read as csv and debugfs are, its traced duration the sum of all rows
     * when it has a TIMEINGUEST row (the kernel charges every usec to one
     * row), else unknown. Given, it must be the rows' sum (below). */
    unsigned traced_line = 0;
    t->traced_usec = NAN;
    if (!is_header(x->line, kvm_header, 8)) {
        n = split_ws(x->line, tk, 5);
        if (n < 3 || !tok_is(tk[0], "traced") || !tok_is(tk[1], "duration"))
            return expected(x, "'traced duration N usec' or header '"
                               KVM_HEADER "'", trim(x->line));
        if ((e = get_num(x, tk[2], true, false, "traced duration",
                         &t->traced_usec)))
            return e;
        traced_line = x->lineno;
        if (n != 4 || !tok_is(tk[3], "usec"))
            return expected(x, "'usec' after the traced duration",
                            n > 3 ? tk[3] : trim(x->line));

        if (!next_content(x))
            return expected_eof(x, "header '" KVM_HEADER "'");
        if (!is_header(x->line, kvm_header, 8))
            return expected(x, "header '" KVM_HEADER "'", trim(x->line));
    }

    bool never_seen = false;
    while (next_content(x)) {
        tok line = trim(x->line);
        /* "*never hit", any blanks between the words as between columns */
        n = split_ws(line, tk, 3);
        if (n >= 2 && tok_is(tk[0], "*never") && tok_is(tk[1], "hit")) {
            if (never_seen)
                return expected(x, "one '*never hit' line", line);
            never_seen = true;
            const char *after = tk[1].s + 3;
            tok rest = {after, line.n - (size_t)(after - line.s)};
            if ((e = kvm_never_hit(x, t, rest)))
                return e;
            continue;
        }
        n = split_ws(line, tk, 9);
        if (n == 2 && tok_is(tk[0], "EMULINST") && tok_is(tk[1], "breakdown")) {
            if (traced_line == 0)
                t->traced_usec = sum_of_rows_if_guest(t);
            return (e = kvm_rows_add_up(x, t, traced_line)) ? e
                                                            : kvm_breakdown(x, t);
        }
        if (never_seen)
            return expected(x, "'EMULINST breakdown' or end of file", line);
        table_row r;
        int ty = -1;
        bool skip;
        if (tok_is(tk[0], "(null)")) {
            if ((e = kvm_row(x, tk, n, &r)) ||
                (e = null_row(x, tk[0], r.count, &skip)))
                return e;
            continue;
        }
        if ((e = get_type(x, tk[0], &ty)) || (e = kvm_row(x, tk, n, &r)) ||
            (e = put_row(x, t, ty, r)))
            return e;
    }
    if (traced_line == 0)
        t->traced_usec = sum_of_rows_if_guest(t);
    return kvm_rows_add_up(x, t, traced_line);
}

/* ==== debugfs: arch/powerpc/kvm/timing.c ==== */

static const char *const debugfs_header[] = {"type", "count", "min",
                                             "max",  "sum",   "sum_squared"};
#define DEBUGFS_HEADER "type count min max sum sum_squared"

/* An unused row's min is the kernel's initial 0xFFFFFFFF, divided by the
 * timebase's ticks per usec in 3.1+: the file says which form it is, and
 * at which timebase. Read as the other, every row's spread was off by the
 * factor, silently unless a row happened to contradict itself. Checked
 * over the rows (a copy of the lexer after the header) before any is
 * read, so that this, the cause, is what the message names. */
static sim_err debugfs_unused_min(lex y, double tb_per_usec)
{
    double unused = tb_per_usec > 0 ? floor(4294967295.0 / tb_per_usec)
                                    : 4294967295.0;
    while (next_content(&y)) {
        tok tk[7];
        table_row r = blank_row();
        if (split_ws(y.line, tk, 7) != 6 || get_count(&y, tk[1], false,
                                                      &r.count) ||
            get_num(&y, tk[2], false, false, "min", &r.min) ||
            get_num(&y, tk[3], false, false, "max", &r.max) ||
            get_num(&y, tk[4], false, false, "sum", &r.sum)) {
            sim_clear_error(); /* the row's own problem: named when read */
            continue;
        }
        if (r.count != 0 || r.max != 0 || r.sum != 0 || !(r.min > 0) ||
            r.min == unused)
            continue;
        char how[96], tn[16];
        double n = floor(4294967295.0 / r.min);
        if (r.min == 4294967295.0)
            snprintf(how, sizeof how, "a 2.6.29-2.6.37 file's (no "
                                      "--tb-per-usec)");
        else
            snprintf(how, sizeof how, "a 3.1+ file's of %.0f ticks per usec "
                                      "(--tb-per-usec %.0f)", n, n);
        snprintf(tn, sizeof tn, "%.*s", (int)(tk[0].n < 15 ? tk[0].n : 15),
                 tk[0].s);
        return sim_fail(SIM_ERR_FORMAT,
                        "%s:%u: %s: unused, its min %.0f is 0xFFFFFFFF as "
                        "%s, not %.0f as read with %s (a validation case: "
                        "its accounting and the params' core_hz)",
                        y.name, y.lineno, tn, r.min, how, unused,
                        tb_per_usec > 0 ? "this --tb-per-usec"
                                        : "no --tb-per-usec");
    }
    return SIM_OK;
}

static sim_err parse_debugfs(table *t, lex *x, double tb_per_usec)
{
    if (!next_content(x))
        return expected_eof(x, "header '" DEBUGFS_HEADER "'");
    if (!is_header(x->line, debugfs_header, 6))
        return expected(x, "header '" DEBUGFS_HEADER "'", trim(x->line));
    sim_err ue = debugfs_unused_min(*x, tb_per_usec);
    if (ue != SIM_OK)
        return ue;
    while (next_content(x)) {
        tok tk[7];
        size_t n = split_ws(x->line, tk, 7);
        if (n < 6)
            return expected(x, "6 columns (" DEBUGFS_HEADER ")", trim(x->line));
        if (n > 6)
            return expected(x, "end of line after 6 columns", tk[6]);
        table_row r = blank_row();
        sim_err e;
        if ((e = get_count(x, tk[1], false, &r.count)) ||
            (e = get_num(x, tk[2], false, false, "min", &r.min)) ||
            (e = get_num(x, tk[3], false, false, "max", &r.max)) ||
            (e = get_num(x, tk[4], false, false, "sum", &r.sum)) ||
            (e = get_num(x, tk[5], false, true, "sum_squared", &r.sum_sq)))
            return e;
        bool skip;
        if ((e = null_row(x, tk[0], r.count, &skip)))
            return e;
        if (skip)
            continue;
        int ty = -1;
        if ((e = get_type(x, tk[0], &ty)))
            return e;
        /* 3.1+: sum_squared is sum(ticks^2) / tb = usec^2 * tb */
        if (tb_per_usec > 0)
            r.sum_sq /= tb_per_usec;
        if (r.count == 0)
            r.min = 0; /* 0xFFFFFFFF (/ tb): the kernel's "unused" */
        if ((e = put_row(x, t, ty, r)))
            return e;
    }
    t->traced_usec = sum_of_rows_if_guest(t);
    return SIM_OK;
}

/* ==== perf: perf kvm stat report ==== */

/* "12.00us", "64.24%": a number with a unit suffix. */
static sim_err get_suffixed(const lex *x, tok t, const char *suffix,
                            const char *what, double *v)
{
    size_t n = strlen(suffix);
    if (t.n <= n || memcmp(t.s + t.n - n, suffix, n) != 0) {
        char w[96];
        snprintf(w, sizeof w, "%s ending in '%s'", what, suffix);
        return expected(x, w, t);
    }
    return get_num(x, (tok){t.s, t.n - n}, false, false, what, v);
}

#define PERF_TOTAL "'Total Samples:N, Total events handled time:Tus.'"

static sim_err perf_total(const lex *x, tok line, uint64_t *samples,
                          double *usec)
{
    static const char a[] = "Total Samples:",
                      b[] = "Total events handled time:";
    tok t = trim(line);
    if (!tok_starts(t, a))
        return expected(x, PERF_TOTAL, t);
    const char *p = t.s + strlen(a), *end = t.s + t.n;
    const char *comma = memchr(p, ',', (size_t)(end - p));
    if (!comma)
        return expected(x, PERF_TOTAL, t);
    sim_err e =
        get_count(x, trim((tok){p, (size_t)(comma - p)}), false, samples);
    if (e)
        return e;
    tok rest = trim((tok){comma + 1, (size_t)(end - comma - 1)});
    if (!tok_starts(rest, b))
        return expected(x, PERF_TOTAL, t);
    rest = trim((tok){rest.s + strlen(b), rest.n - strlen(b)});
    if (rest.n && rest.s[rest.n - 1] == '.')
        rest.n--;
    return get_suffixed(x, rest, "us", "the handled time", usec);
}

static sim_err parse_perf(table *t, lex *x)
{
    static const char *const hdr[] = {"VM-EXIT", "Samples", "Samples%", "Time%",
                                      "Min",     "Time",    "Max",      "Time",
                                      "Avg",     "time"};
    const char *hdr_text = "header 'VM-EXIT Samples Samples% Time% Min Time "
                           "Max Time Avg time'";
    if (!next_content(x))
        return expected_eof(x, "'Analyze events for ...' or the header");
    if (tok_starts(trim(x->line), "Analyze events") && !next_content(x))
        return expected_eof(x, hdr_text);
    if (!is_header(x->line, hdr, 10))
        return expected(x, hdr_text, trim(x->line));
    uint64_t total_n = 0, rows_n = 0;
    double total_us = NAN, rows_us = 0, rounding = 0.005;
    bool have_total = false;
    while (next_content(x)) {
        tok line = trim(x->line);
        if (tok_starts(line, "Total")) {
            sim_err e = perf_total(x, line, &total_n, &total_us);
            if (e)
                return e;
            have_total = true;
            break;
        }
        tok tk[16];
        size_t n = split_ws(line, tk, 16);
        if (n < 8)
            return expected(x,
                            "a row 'NAME Samples Samples% Time% Min Max "
                            "Avg ( +- rel% )'",
                            line);
        int ty = -1;
        table_row r = blank_row();
        double share, sem;
        sim_err e;
        if ((e = get_type(x, tk[0], &ty)) ||
            (e = get_count(x, tk[1], false, &r.count)) ||
            (e = get_suffixed(x, tk[2], "%", "Samples%", &share)) ||
            (e = get_suffixed(x, tk[3], "%", "Time%", &r.time_pct)) ||
            (e = get_suffixed(x, tk[4], "us", "Min Time", &r.min)) ||
            (e = get_suffixed(x, tk[5], "us", "Max Time", &r.max)) ||
            (e = get_suffixed(x, tk[6], "us", "Avg time", &r.avg)))
            return e;
        if (ty == EXIT_TIMEINGUEST)
            return expected(x, "an exit (perf has no guest-time row)", tk[0]);
        /* "( +- 0.58% )" with any spacing */
        char rel[64];
        size_t k = 0;
        for (size_t i = 7; i < n && i < 16; i++)
            for (size_t j = 0; j < tk[i].n && k < sizeof rel - 1; j++)
                rel[k++] = tk[i].s[j];
        rel[k] = '\0';
        if (n > 16 || k < 6 || strncmp(rel, "(+-", 3) != 0 ||
            strcmp(rel + k - 2, "%)") != 0)
            return expected(x, "'( +- rel% )' after Avg time", tk[7]);
        if ((e = get_num(x, (tok){rel + 3, k - 5}, false, false,
                         "the relative error", &sem)))
            return e;
        /* perf's "+-" is the standard error of the mean relative to it,
         * with the sample variance (n - 1): stddev_stats() in
         * tools/perf/util/stat.c. Back to the population stddev: */
        r.stddev =
            r.count > 1 ? sem / 100.0 * r.avg * sqrt((double)r.count - 1) : 0.0;
        r.sum = r.avg * (double)r.count;
        rows_n += r.count;
        rows_us += r.sum;
        rounding += 0.005 * (double)r.count;
        if ((e = put_row(x, t, ty, r)))
            return e;
    }
    if (!have_total)
        return expected_eof(x, PERF_TOTAL);
    if (total_n != rows_n)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s:%u: expected Total Samples to be "
                        "the rows' sum %llu, found %llu",
                        x->name, x->lineno, (unsigned long long)rows_n,
                        (unsigned long long)total_n);
    /* each sum is avg (2 decimals) * count */
    if (fabs(total_us - rows_us) > rounding + 1e-9 * total_us)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s:%u: expected the handled time to "
                        "be the rows' avg*count sum %.2fus (within %.2f), "
                        "found %.2fus",
                        x->name, x->lineno, rows_us, rounding, total_us);
    while (next_line(x))
        if (!is_filler(x->line))
            return expected(x, "end of file after the total", trim(x->line));
    /* perf has no guest time: the traced duration stays unknown */
    t->traced_usec = NAN;
    return SIM_OK;
}

/* ==== csv ==== */

#define CSV_HEADER "type,count,min,max,sum,avg,stddev,time_percent"

/* Splits a csv line into fields (at most 9 kept, the count going past),
 * with RFC 4180's quoting as a spreadsheet writes it: a field in double
 * quotes may hold commas (a number it formats with digit groups,
 * "6,423,699"), and quoted[i] says so. Nothing a table holds has a quote
 * in it, so a quote inside a field, or one not closed, is an error. */
static sim_err csv_fields(const lex *x, tok *f, bool *quoted, size_t *nf)
{
    size_t n = 0;
    const char *p = x->line.s, *end = x->line.s + x->line.n;
    for (;;) {
        tok v = trim((tok){p, (size_t)(end - p)});
        bool q = v.n && v.s[0] == '"';
        const char *fe;
        if (q) {
            const char *cl = memchr(v.s + 1, '"', (size_t)(end - v.s - 1));
            if (!cl)
                return expected(x, "a closing '\"'", v);
            tok after = trim((tok){cl + 1, (size_t)(end - cl - 1)});
            if (after.n && after.s[0] != ',')
                return expected(x, "',' or end of line after a quoted field",
                                after);
            v = (tok){v.s + 1, (size_t)(cl - v.s - 1)};
            fe = after.n ? after.s : end;
        } else {
            const char *c = memchr(p, ',', (size_t)(end - p));
            fe = c ? c : end;
            v = trim((tok){p, (size_t)(fe - p)});
            if (memchr(v.s, '"', v.n))
                return expected(x, "a field without '\"' inside", v);
        }
        if (n < 9) {
            f[n] = v;
            quoted[n] = q;
        }
        n++;
        if (fe >= end)
            break;
        p = fe + 1;
    }
    *nf = n;
    return SIM_OK;
}

static sim_err parse_csv(table *t, lex *x)
{
    static const char *const names[] = {"type", "count", "min", "max",
                                        "sum",  "avg",   "stddev",
                                        "time_percent"};
    if (!next_content(x))
        return expected_eof(x, "header '" CSV_HEADER "'");
    tok f[9];
    bool quoted[9];
    size_t n = 0;
    bool head = csv_fields(x, f, quoted, &n) == SIM_OK && n == 8;
    sim_clear_error();
    for (size_t i = 0; head && i < 8; i++)
        head = tok_is(f[i], names[i]);
    if (!head)
        return expected(x, "header '" CSV_HEADER "'", trim(x->line));
    while (next_content(x)) {
        sim_err e = csv_fields(x, f, quoted, &n);
        if (e != SIM_OK)
            return e;
        if (n < 8)
            return expected(x, "8 fields (" CSV_HEADER ")", trim(x->line));
        if (n > 8)
            return expected(x, "end of line after 8 fields", f[8]);
        /* an empty avg/stddev/time_percent is a value the table lacked */
        for (size_t i = 5; i < 8; i++)
            if (f[i].n == 0)
                f[i] = (tok){"-", 1};
        int ty = -1;
        table_row r = blank_row();
        bool skip;
        if ((e = get_count(x, f[1], quoted[1], &r.count)) ||
            (e = null_row(x, f[0], r.count, &skip)))
            return e;
        if (skip)
            continue;
        /* digit groups only inside quotes: unquoted, a ',' ends the field */
        if ((e = get_type(x, f[0], &ty)) ||
            (e = get_count(x, f[1], quoted[1], &r.count)) ||
            (e = get_num(x, f[2], quoted[2], false, "min", &r.min)) ||
            (e = get_num(x, f[3], quoted[3], false, "max", &r.max)) ||
            (e = get_num(x, f[4], quoted[4], false, "sum", &r.sum)) ||
            (e = get_num(x, f[5], quoted[5], true, "avg", &r.avg)) ||
            (e = get_num(x, f[6], quoted[6], true, "stddev", &r.stddev)) ||
            (e = get_num(x, f[7], quoted[7], true, "time_percent",
                         &r.time_pct)) ||
            (e = put_row(x, t, ty, r)))
            return e;
    }
    t->traced_usec = sum_of_rows_if_guest(t);
    return SIM_OK;
}

/* ==== json ==== */

static const char *json_kind(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real";
    case JSON_TRUE: return "true";
    case JSON_FALSE: return "false";
    case JSON_NULL: return "null";
    }
    return "?";
}

static sim_err json_bad(const char *name, const char *where, const char *what,
                        const json_t *v)
{
    return sim_fail(SIM_ERR_FORMAT, "%s: %s: expected %s, found %s", name,
                    where, what, v ? json_kind(v) : "nothing");
}

/* The first member of object o (json_object_foreach order) whose name is
 * not one of keys[0..n-1]; NULL when all are known. */
static const char *json_unknown_key(json_t *o, const char *const *keys,
                                    size_t n)
{
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v)
    {
        size_t i = 0;
        while (i < n && strcmp(key, keys[i]) != 0)
            i++;
        if (i == n)
            return key;
    }
    return NULL;
}

/* A number member; `opt` allows missing or null (-> NAN). */
static sim_err json_num(const char *name, const char *where, json_t *obj,
                        const char *key, bool opt, double *v)
{
    char w[128], what[64];
    snprintf(w, sizeof w, "%s.%s", where, key);
    json_t *j = json_object_get(obj, key);
    if (!j || json_is_null(j)) {
        if (opt) {
            *v = NAN;
            return SIM_OK;
        }
        snprintf(what, sizeof what, "a number");
        return json_bad(name, w, what, j);
    }
    if (!json_is_number(j))
        return json_bad(name, w, "a number", j);
    *v = json_number_value(j);
    if (!isfinite(*v))
        return sim_fail(SIM_ERR_RANGE, "%s: %s: not a finite number", name, w);
    if (*v < 0)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: %s: expected a non-negative "
                        "number, found %g",
                        name, w, *v);
    return SIM_OK;
}

static sim_err json_row(const char *name, const char *where, json_t *o,
                        bool breakdown, table *t)
{
    static const char *const keys[] = {"type", "count",  "min",
                                       "max",  "sum",    "sum_squared",
                                       "avg",  "stddev", "time_percent"};
    if (!json_is_object(o))
        return json_bad(name, where, "a row object", o);
    const char *key = json_unknown_key(o, keys, sizeof keys / sizeof keys[0]);
    if (key)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: %s: expected a row key (%s), "
                        "found '%.40s'",
                        name, where,
                        "type count min max sum sum_squared avg stddev "
                        "time_percent",
                        key);
    json_t *jt = json_object_get(o, "type");
    if (!json_is_string(jt))
        return json_bad(name, where, "a string \"type\"", jt);
    const char *tn = json_string_value(jt);
    int ty;
    if (breakdown && strcmp(tn, OTHER_NAME) == 0) {
        ty = EXIT_EMULINST;
    } else {
        ty = exit_from_name(tn);
        if (ty < 0)
            return sim_fail(SIM_ERR_FORMAT,
                            "%s: %s: unknown exit type '%.40s' (did you mean "
                            "%s?)",
                            name, where, tn, exit_nearest_name(tn));
        if (breakdown && !exit_is_emul((exit_type)ty))
            return sim_fail(SIM_ERR_FORMAT,
                            "%s: %s: expected an EMUL_* type "
                            "or \"" OTHER_NAME "\", found '%s'",
                            name, where, tn);
    }
    table_row r = blank_row();
    json_t *jc = json_object_get(o, "count");
    if (!json_is_integer(jc))
        return json_bad(name, where, "an integer \"count\"", jc);
    if (json_integer_value(jc) < 0)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: %s: expected a non-negative "
                        "count, found %lld",
                        name, where, (long long)json_integer_value(jc));
    r.count = (uint64_t)json_integer_value(jc);
    sim_err e;
    if ((e = json_num(name, where, o, "min", false, &r.min)) ||
        (e = json_num(name, where, o, "max", false, &r.max)) ||
        (e = json_num(name, where, o, "sum", false, &r.sum)) ||
        (e = json_num(name, where, o, "sum_squared", true, &r.sum_sq)) ||
        (e = json_num(name, where, o, "avg", true, &r.avg)) ||
        (e = json_num(name, where, o, "stddev", true, &r.stddev)) ||
        (e = json_num(name, where, o, "time_percent", true, &r.time_pct)))
        return e;
    if (r.count > 0 && !(r.min <= r.max))
        return sim_fail(SIM_ERR_RANGE, "%s: %s: %s: min %g > max %g", name,
                        where, tn, r.min, r.max);
    char why[320];
    if (row_contradicts(&r, tn, why, sizeof why))
        return sim_fail(SIM_ERR_RANGE, "%s: %s: %s", name, where, why);
    if (t->rows[ty].present || t->never_hit[ty])
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: %s: expected one row per type, "
                        "found a second '%s'",
                        name, where, tn);
    if (r.count == 0 && r.sum == 0 && r.max == 0) {
        t->never_hit[ty] = true;
        return SIM_OK;
    }
    r.present = true;
    t->rows[ty] = r;
    return SIM_OK;
}

static sim_err json_rows(const char *name, json_t *root, const char *key,
                         bool breakdown, table *t)
{
    json_t *a = json_object_get(root, key);
    if (!a && breakdown)
        return SIM_OK;
    if (!json_is_array(a))
        return json_bad(name, key, "an array of rows", a);
    size_t i;
    json_t *o;
    json_array_foreach(a, i, o)
    {
        char where[64];
        snprintf(where, sizeof where, "%s[%zu]", key, i);
        sim_err e = json_row(name, where, o, breakdown, t);
        if (e)
            return e;
    }
    return SIM_OK;
}

static sim_err parse_json_doc(table *t, json_t *root, const char *name)
{
    static const char *const keys[] = {
        "title",     "unit",     "accounting",        "traced_duration",
        "rows",      "never_hit", "emulinst_breakdown"};
    if (!json_is_object(root))
        return json_bad(name, "top level", "an object", root);
    const char *key =
        json_unknown_key(root, keys, sizeof keys / sizeof keys[0]);
    if (key)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: expected a key (title unit accounting "
                        "traced_duration rows never_hit "
                        "emulinst_breakdown), found '%.40s'",
                        name, key);
    json_t *j = json_object_get(root, "title");
    if (j && !json_is_null(j)) {
        if (!json_is_string(j))
            return json_bad(name, "title", "a string", j);
        const char *s = json_string_value(j);
        size_t n = strlen(s);
        if (n >= sizeof t->title)
            return sim_fail(SIM_ERR_FORMAT,
                            "%s: title: expected at most %zu "
                            "characters, found %zu",
                            name, sizeof t->title - 1, n);
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
                return sim_fail(SIM_ERR_FORMAT,
                                "%s: title: expected "
                                "printable characters",
                                name);
        memcpy(t->title, s, n + 1);
    }
    j = json_object_get(root, "unit");
    if (j && !(json_is_string(j) && !strcmp(json_string_value(j), "usec")))
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: unit: expected \"usec\", found "
                        "%s%s%.20s",
                        name, json_kind(j), json_is_string(j) ? " " : "",
                        json_is_string(j) ? json_string_value(j) : "");
    j = json_object_get(root, "accounting");
    if (j && !(json_is_string(j) && (!strcmp(json_string_value(j), "2.6.29") ||
                                     !strcmp(json_string_value(j), "3.1"))))
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: accounting: expected \"2.6.29\" or \"3.1\", "
                        "found %s%s%.20s",
                        name, json_kind(j), json_is_string(j) ? " " : "",
                        json_is_string(j) ? json_string_value(j) : "");
    if (j)
        snprintf(t->accounting, sizeof t->accounting, "%s",
                 json_string_value(j));
    sim_err e = json_num(name, "top level", root, "traced_duration", true,
                         &t->traced_usec);
    if (e)
        return e;

    /* breakdown first: it replaces the folded EMULINST row */
    table bd;
    table_init(&bd);
    if ((e = json_rows(name, root, "emulinst_breakdown", true, &bd)) ||
        (e = json_rows(name, root, "rows", false, t)))
        return e;
    if (json_object_get(root, "emulinst_breakdown")) {
        const table_row *f = &t->rows[EXIT_EMULINST];
        uint64_t parts = 0;
        for (int i = 0; i < EXIT__COUNT; i++) {
            if (!bd.rows[i].present)
                continue;
            if (i != EXIT_EMULINST && t->rows[i].present)
                return sim_fail(SIM_ERR_FORMAT,
                                "%s: emulinst_breakdown: "
                                "expected one row per type, found a second "
                                "'%s'",
                                name, exit_name((exit_type)i));
            parts += bd.rows[i].count;
        }
        if (!f->present || parts != f->count)
            return sim_fail(SIM_ERR_FORMAT,
                            "%s: emulinst_breakdown: expected "
                            "the parts to add up to EMULINST's count %llu, "
                            "found %llu",
                            name,
                            (unsigned long long)(f->present ? f->count : 0),
                            (unsigned long long)parts);
        for (int i = 0; i < EXIT__COUNT; i++)
            if (exit_is_emul((exit_type)i) || i == EXIT_EMULINST) {
                t->rows[i] = bd.rows[i];
                t->never_hit[i] = bd.never_hit[i] && i != EXIT_EMULINST;
            }
    }

    double sum = rows_miss_traced(t);
    if (!isnan(sum))
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: traced_duration: the rows add up to %.0f usec, "
                        "but it says %.0f usec (%+.2f%%): an edited table?",
                        name, sum, t->traced_usec,
                        100.0 * (sum - t->traced_usec) / t->traced_usec);

    j = json_object_get(root, "never_hit");
    if (j) {
        if (!json_is_array(j))
            return json_bad(name, "never_hit", "an array of type names", j);
        size_t i;
        json_t *s;
        json_array_foreach(j, i, s)
        {
            char where[48];
            snprintf(where, sizeof where, "never_hit[%zu]", i);
            if (!json_is_string(s))
                return json_bad(name, where, "a type name", s);
            int ty = exit_from_name(json_string_value(s));
            if (ty < 0)
                return sim_fail(SIM_ERR_FORMAT,
                                "%s: %s: unknown exit type '%.40s' (did you "
                                "mean %s?)",
                                name, where, json_string_value(s),
                                exit_nearest_name(json_string_value(s)));
            if (table_row_has_data(&t->rows[ty]))
                return sim_fail(SIM_ERR_FORMAT,
                                "%s: %s: expected a type "
                                "without a row, found '%s'",
                                name, where, exit_name((exit_type)ty));
            t->never_hit[ty] = true;
        }
    }
    return SIM_OK;
}

static sim_err parse_json(table *t, const char *text, size_t len,
                          const char *name)
{
    json_error_t err;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!root)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s:%d:%d: expected a JSON table, "
                        "found an error: %s",
                        name, err.line, err.column, err.text);
    sim_err e = parse_json_doc(t, root, name);
    json_decref(root);
    return e;
}

/* ==== dispatch ==== */

/* From the first line with content: json starts with '{', csv (its
 * names quoted or not) and debugfs with their headers, perf with "Analyze events" or its VM-EXIT header;
 * anything else is read as the seed's layout. */
static table_fmt guess(const char *text, size_t len)
{
    lex x;
    lex_init(&x, text, len, "");
    if (!next_content(&x))
        return TFMT_KVM;
    tok l = trim(x.line);
    tok tk[8];
    if (l.s[0] == '{')
        return TFMT_JSON;
    if (tok_starts(l, "type,count") || tok_starts(l, "\"type\","))
        return TFMT_CSV;
    if (is_header(l, debugfs_header, 6))
        return TFMT_DEBUGFS;
    size_t n = split_ws(l, tk, 8);
    if (tok_starts(l, "Analyze events") || (n && tok_is(tk[0], "VM-EXIT")))
        return TFMT_PERF;
    return TFMT_KVM;
}

sim_err table_parse_any(table *out, const char *text, size_t len, table_fmt fmt,
                        const char *name, double tb_per_usec)
{
    if (!name)
        name = "<input>";
    if (!text)
        len = 0;
    if (fmt != TFMT_AUTO && (unsigned)fmt >= TFMT__COUNT)
        return sim_fail(SIM_ERR_USAGE, "%s: no such table format %d", name,
                        (int)fmt);
    if (isnan(tb_per_usec) || tb_per_usec < 0 || isinf(tb_per_usec))
        return sim_fail(SIM_ERR_USAGE, "%s: tb_per_usec must be >= 0, not %g",
                        name, tb_per_usec);
    /* a UTF-8 byte order mark, as a spreadsheet saves "CSV UTF-8": not
     * part of the first line (a csv was read as kvm and refused at line 2,
     * a kvm title kept it) */
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
        text += 3;
        len -= 3;
    }
    lex x;
    lex_init(&x, text, len, name);
    if (!next_content(&x))
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: empty file, expected an "
                        "exit-timing table",
                        name);
    lex_init(&x, text, len, name);
    if (fmt == TFMT_AUTO)
        fmt = guess(text, len);
    /* a table (~3 kB) on the stack, copied out only when it is whole */
    table t;
    table_init(&t);
    sim_err e;
    switch (fmt) {
    case TFMT_KVM: e = parse_kvm(&t, &x); break;
    case TFMT_DEBUGFS: e = parse_debugfs(&t, &x, tb_per_usec); break;
    case TFMT_PERF: e = parse_perf(&t, &x); break;
    case TFMT_CSV: e = parse_csv(&t, &x); break;
    default: e = parse_json(&t, text, len, name); break;
    }
    if (e != SIM_OK)
        return e;
    /* each count fits 64 bits, their sum must too: table_exits wrapped
     * (two rows of 1e19 read as 1.6e18 exits, and synth --like and a
     * case's scaling took that) */
    uint64_t all = 0;
    for (int i = 0; i < EXIT__COUNT; i++) {
        if (i == EXIT_TIMEINGUEST || !t.rows[i].present)
            continue;
        if (t.rows[i].count > UINT64_MAX - all)
            return sim_fail(SIM_ERR_RANGE, "%s: the exit counts add up "
                            "beyond 2^64", name);
        all += t.rows[i].count;
    }
    fill_missing(&t);
    *out = t;
    return SIM_OK;
}

sim_err table_parse(table *t, const char *text, size_t len, table_fmt fmt,
                    const char *name)
{
    return table_parse_any(t, text, len, fmt, name, 0.0);
}

sim_err table_parse_debugfs_tb(table *t, const char *text, size_t len,
                               const char *name, double tb_per_usec)
{
    if (!(tb_per_usec > 0) || !isfinite(tb_per_usec))
        return sim_fail(SIM_ERR_USAGE, "%s: tb_per_usec must be > 0, not %g",
                        name ? name : "<input>", tb_per_usec);
    return table_parse_any(t, text, len, TFMT_DEBUGFS, name, tb_per_usec);
}

/* ==== writers ==== */

/* Types named on the never-hit line: no data, not the guest-time row, and
 * no EMUL_* when the table does not distinguish them (folded layout). */
static bool listed_never_hit(const table *t, int i)
{
    if (i == EXIT_TIMEINGUEST || table_row_has_data(&t->rows[i]))
        return false;
    return !exit_is_emul((exit_type)i) || table_has_emul_subtypes(t);
}

/* time% as the kvm layout means it: of the traced duration it prints. A
 * table that does not know its traced duration prints the sum of its rows
 * there, and its time% are then of that sum (a csv without TIMEINGUEST
 * kept its given time_percent, of another total: EMULINST 45.36 under a
 * traced line its 91.7 s are 47.9% of). */
static double kvm_time_pct(const table *t, const table_row *r)
{
    if (isfinite(t->traced_usec))
        return table_row_time_pct(t, r);
    double tr = table_traced_or_sum(t);
    return tr > 0 ? 100.0 * r->sum / tr : NAN;
}

static void kvm_row_out(FILE *f, const char *name, const table *t,
                        const table_row *r)
{
    char c[TABLE_NUMBUF], mn[TABLE_NUMBUF], mx[TABLE_NUMBUF], s[TABLE_NUMBUF],
        a[TABLE_NUMBUF], d[TABLE_NUMBUF], p[TABLE_NUMBUF];
    fprintf(f, "%s %s %s %s %s %s %s %s\n", name,
            table_num_int(c, (double)r->count, true),
            table_num_int(mn, r->min, true), table_num_int(mx, r->max, true),
            table_num_int(s, r->sum, true),
            table_num_fixed(a, table_row_avg(r), 4),
            table_num_fixed(d, table_row_stddev(r), 3),
            table_num_fixed(p, kvm_time_pct(t, r), 2));
}

static void write_kvm(FILE *f, const table *w, const table *orig, bool fold)
{
    char b[TABLE_NUMBUF];
    if (w->title[0])
        fprintf(f, "%s\n", w->title);
    /* A table that does not know its traced duration (perf's, a csv
     * without TIMEINGUEST: no guest time) gets no traced duration line, the
     * layout's reader takes none: its exit rows' sum there read as a
     * traced duration that was only the handled time */
    if (isfinite(w->traced_usec))
        fprintf(f, "unit is usec\ntraced duration %s usec\n%s\n",
                table_num_int(b, w->traced_usec, true), KVM_HEADER);
    else
        fprintf(f, "unit is usec\n# no traced duration: no guest time in "
                   "this table; time%% of its exit rows' sum, %s usec "
                   "handled\n%s\n",
                table_num_int(b, table_traced_or_sum(w), true), KVM_HEADER);
    int idx[EXIT__COUNT];
    int n = table_rows_by_sum(w, idx, true);
    for (int k = 0; k < n; k++)
        kvm_row_out(f, exit_name((exit_type)idx[k]), w, &w->rows[idx[k]]);
    const char *sep = "*never hit ";
    for (int i = 0; i < EXIT__COUNT; i++)
        if (listed_never_hit(w, i)) {
            fprintf(f, "%s%s", sep, exit_name((exit_type)i));
            sep = ", ";
        }
    if (sep[0] == ',')
        fputc('\n', f);
    if (!fold || !table_has_emul_subtypes(orig))
        return;
    /* the breakdown: the original rows, time% still of the traced time */
    table bd;
    table_init(&bd);
    bd.traced_usec = orig->traced_usec;
    for (int i = 0; i < EXIT__COUNT; i++)
        if (exit_is_emul((exit_type)i) || i == EXIT_EMULINST) {
            bd.rows[i] = orig->rows[i];
            if (isnan(bd.rows[i].time_pct))
                bd.rows[i].time_pct = table_row_time_pct(orig, &orig->rows[i]);
        }
    fprintf(f, "\nEMULINST breakdown\n%s\n", KVM_HEADER);
    n = table_rows_by_sum(&bd, idx, false);
    for (int k = 0; k < n; k++)
        kvm_row_out(f,
                    idx[k] == EXIT_EMULINST ? OTHER_NAME
                                            : exit_name((exit_type)idx[k]),
                    &bd, &bd.rows[idx[k]]);
}

static void write_debugfs(FILE *f, const table *w, double tb)
{
    /* the kernel's seq_printf formats, tab-separated */
    fprintf(f, "type\tcount\tmin\tmax\tsum\tsum_squared\n");
    bool emul = table_has_emul_subtypes(w);
    char c[TABLE_NUMBUF], mn[TABLE_NUMBUF], mx[TABLE_NUMBUF], s[TABLE_NUMBUF],
        q[TABLE_NUMBUF];
    for (int i = 0; i < EXIT__COUNT; i++) {
        if (exit_is_emul((exit_type)i) && !emul)
            continue;
        const table_row *r = &w->rows[i];
        if (!table_row_has_data(r)) {
            /* min starts at 0xFFFFFFFF; 3.1+ divides it by tb when printing */
            double unused = tb > 0 ? floor(4294967295.0 / tb) : 4294967295.0;
            fprintf(f, "%12s\t%10d\t%10s\t%10d\t%20d\t%20d\n",
                    exit_name((exit_type)i), 0,
                    table_num_int(mn, unused, false), 0, 0, 0);
            continue;
        }
        double sq = r->sum_sq;
        if (isnan(sq)) {
            /* not carried (kvm, csv, perf): rebuilt from avg and stddev */
            double a = table_row_avg(r), d = table_row_stddev(r);
            sq = floor((double)r->count * (d * d + a * a) + 0.5);
        }
        if (tb > 0)
            sq = floor(sq * tb + 0.5); /* 3.1+: sum(ticks^2)/tb = usec^2*tb */
        fprintf(
            f, "%12s\t%10s\t%10s\t%10s\t%20s\t%20s\n", exit_name((exit_type)i),
            table_num_int(c, (double)r->count, false),
            table_num_int(mn, r->min, false), table_num_int(mx, r->max, false),
            table_num_int(s, r->sum, false), table_num_int(q, sq, false));
    }
}

/* perf's "+-": standard error of the mean relative to it, with the sample
 * variance (n - 1), as stddev_stats()/rel_stddev_stats() in perf. */
static double perf_rel_sem(const table_row *r)
{
    double avg = table_row_avg(r), sd = table_row_stddev(r);
    if (r->count < 2 || !(avg > 0))
        return 0.0;
    return 100.0 * sd / sqrt((double)r->count - 1) / avg;
}

static void write_perf(FILE *f, const table *w)
{
    int idx[EXIT__COUNT], n = 0;
    double total_n = 0, total_us = 0;
    for (int i = 0; i < EXIT__COUNT; i++) {
        const table_row *r = &w->rows[i];
        if (i == EXIT_TIMEINGUEST || !table_row_has_data(r) || r->count == 0)
            continue;
        total_n += (double)r->count;
        total_us += r->sum;
        int j = n++;
        while (j > 0 && w->rows[idx[j - 1]].count < r->count) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
    fprintf(f, "Analyze events for all VMs, all VCPUs:\n\n");
    fprintf(f, "%20s %10s %9s %9s %11s %11s %16s\n\n", "VM-EXIT", "Samples",
            "Samples%", "Time%", "Min Time", "Max Time", "Avg time");
    for (int k = 0; k < n; k++) {
        const table_row *r = &w->rows[idx[k]];
        fprintf(f,
                "%20s %10llu %8.2f%% %8.2f%% %9.2fus %9.2fus %9.2fus "
                "( +-%7.2f%% )\n",
                exit_name((exit_type)idx[k]), (unsigned long long)r->count,
                100.0 * (double)r->count / total_n,
                total_us > 0 ? 100.0 * r->sum / total_us : 0.0, r->min, r->max,
                table_row_avg(r), perf_rel_sem(r));
    }
    fprintf(f, "\nTotal Samples:%.0f, Total events handled time:%.2fus.\n",
            total_n, total_us);
}

/* min/max/sum: an integer when integral, else 3 decimals. */
static const char *csv_val(char buf[TABLE_NUMBUF], double x)
{
    if (!isfinite(x))
        return "";
    if (x == floor(x))
        return table_num_int(buf, x, false);
    return table_num_fixed(buf, x, 3);
}

static const char *csv_fixed(char buf[TABLE_NUMBUF], double x, int dec)
{
    return isfinite(x) ? table_num_fixed(buf, x, dec) : "";
}

static void write_csv(FILE *f, const table *w)
{
    fprintf(f, CSV_HEADER "\n");
    char c[TABLE_NUMBUF], mn[TABLE_NUMBUF], mx[TABLE_NUMBUF], s[TABLE_NUMBUF],
        a[TABLE_NUMBUF], d[TABLE_NUMBUF], p[TABLE_NUMBUF];
    for (int i = 0; i < EXIT__COUNT; i++) {
        const table_row *r = &w->rows[i];
        if (!table_row_has_data(r))
            continue;
        fprintf(f, "%s,%s,%s,%s,%s,%s,%s,%s\n", exit_name((exit_type)i),
                table_num_int(c, (double)r->count, false), csv_val(mn, r->min),
                csv_val(mx, r->max), csv_val(s, r->sum),
                csv_fixed(a, table_row_avg(r), 4),
                csv_fixed(d, table_row_stddev(r), 3),
                csv_fixed(p, table_row_time_pct(w, r), 2));
    }
}

/* ---- json ---- */

typedef struct jb {
    bool ok;
} jb;

static void jset(jb *b, json_t *o, const char *k, json_t *v)
{
    if (!v || json_object_set_new(o, k, v) != 0)
        b->ok = false;
}

/* Integral values as JSON integers, others as reals; NaN as null. */
static json_t *jval(double x)
{
    if (!isfinite(x))
        return json_null();
    if (x == floor(x) && fabs(x) < 9e18)
        return json_integer((json_int_t)x);
    return json_real(x);
}

/* A derived column at the precision the kvm layout prints it. */
static json_t *jround(double x, int decimals)
{
    if (!isfinite(x))
        return json_null();
    double m = pow(10, decimals);
    if (fabs(x) < 1e15)
        x = round(x * m) / m;
    return json_real(x);
}

static json_t *json_row_out(jb *b, const table *t, const table_row *r,
                            const char *name)
{
    json_t *o = json_object();
    if (!o) {
        b->ok = false;
        return NULL;
    }
    jset(b, o, "type", json_string(name));
    jset(b, o, "count", json_integer((json_int_t)r->count));
    jset(b, o, "min", jval(r->min));
    jset(b, o, "max", jval(r->max));
    jset(b, o, "sum", jval(r->sum));
    jset(b, o, "sum_squared", jval(r->sum_sq));
    jset(b, o, "avg", jround(table_row_avg(r), 4));
    jset(b, o, "stddev", jround(table_row_stddev(r), 3));
    jset(b, o, "time_percent", jround(table_row_time_pct(t, r), 2));
    return o;
}

/* The title as a JSON string. A kvm table's title is its file's bytes
 * (anything printable), and JSON strings are UTF-8: a title that is not
 * (a Latin-1 mail's "R\xe9sultats") is taken as Latin-1 and converted
 * (iconv), where jansson refused it and the writer failed with "out of
 * memory". */
static json_t *json_title(const char *title)
{
    json_t *j = json_string(title);
    if (j)
        return j;
    iconv_t cd = iconv_open("UTF-8", "ISO-8859-1");
    if (cd == (iconv_t)-1)
        return NULL;
    char u[2 * sizeof ((table *)0)->title];
    char *in = (char *)title, *out = u;
    size_t nin = strlen(title), nout = sizeof u - 1;
    /* every Latin-1 byte has a character: only a full u stops it, and
     * twice the title's size holds any title */
    size_t rc = iconv(cd, &in, &nin, &out, &nout);
    iconv_close(cd);
    if (rc == (size_t)-1)
        return NULL;
    *out = '\0';
    return json_string(u);
}

static json_t *json_doc(const table *w, const table *orig, bool fold,
                        const char *accounting)
{
    jb b = {true};
    json_t *root = json_object(), *rows = json_array(), *nh = json_array();
    if (!root || !rows || !nh) {
        json_decref(root);
        json_decref(rows);
        json_decref(nh);
        return NULL;
    }
    jset(&b, root, "title", json_title(w->title));
    jset(&b, root, "unit", json_string("usec"));
    if (accounting)
        jset(&b, root, "accounting", json_string(accounting));
    jset(&b, root, "traced_duration", jval(w->traced_usec));
    for (int i = 0; i < EXIT__COUNT; i++) {
        if (table_row_has_data(&w->rows[i])) {
            json_t *o =
                json_row_out(&b, w, &w->rows[i], exit_name((exit_type)i));
            if (!o || json_array_append_new(rows, o) != 0)
                b.ok = false;
        }
        if (listed_never_hit(w, i) &&
            json_array_append_new(nh, json_string(exit_name((exit_type)i))))
            b.ok = false;
    }
    jset(&b, root, "rows", rows);
    jset(&b, root, "never_hit", nh);
    if (fold && table_has_emul_subtypes(orig)) {
        json_t *bd = json_array();
        for (int i = 0; bd && i < EXIT__COUNT; i++) {
            if (!(exit_is_emul((exit_type)i) || i == EXIT_EMULINST) ||
                !table_row_has_data(&orig->rows[i]))
                continue;
            json_t *o = json_row_out(
                &b, orig, &orig->rows[i],
                i == EXIT_EMULINST ? OTHER_NAME : exit_name((exit_type)i));
            if (!o || json_array_append_new(bd, o) != 0)
                b.ok = false;
        }
        jset(&b, root, "emulinst_breakdown", bd);
    }
    if (!b.ok) {
        json_decref(root);
        return NULL;
    }
    return root;
}

sim_err table_json_dump(FILE *f, json_t *root)
{
    if (!root)
        return sim_fail(SIM_ERR_NOMEM, "json: out of memory");
    sim_err e = SIM_OK;
    if (json_dumpf(root, f,
                   JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                       JSON_REAL_PRECISION(15)) != 0 ||
        fputc('\n', f) == EOF)
        e = sim_fail(SIM_ERR_IO, "json: write failed: %s", strerror(errno));
    json_decref(root);
    return e;
}

json_t *table_to_json(const table *t, const table_write_opts *o)
{
    table_write_opts none = {0};
    if (!o)
        o = &none;
    if (!o->fold_emul)
        return json_doc(t, t, false, o->accounting);
    table folded;
    table_fold_emul(t, &folded);
    return json_doc(&folded, t, true, o->accounting);
}

sim_err table_write(FILE *f, const table *t, table_fmt fmt,
                    const table_write_opts *o)
{
    table_write_opts none = {0};
    if (!o)
        o = &none;
    const table *w = t;
    table folded;
    if (o->fold_emul) {
        table_fold_emul(t, &folded);
        w = &folded;
    }
    sim_err e = SIM_OK;
    switch (fmt) {
    case TFMT_KVM: write_kvm(f, w, t, o->fold_emul); break;
    case TFMT_DEBUGFS: write_debugfs(f, w, o->tb_per_usec); break;
    case TFMT_PERF: write_perf(f, w); break;
    case TFMT_CSV: write_csv(f, w); break;
    case TFMT_JSON:
        e = table_json_dump(f, json_doc(w, t, o->fold_emul, o->accounting));
        break;
    default:
        return sim_fail(SIM_ERR_USAGE, "no table format %d to write", (int)fmt);
    }
    if (e == SIM_OK && ferror(f))
        e = sim_fail(SIM_ERR_IO, "writing the table: %s", strerror(errno));
    return e;
}
