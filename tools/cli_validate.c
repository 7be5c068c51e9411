/* cli_validate: `sim validate [CASE...]` - runs the validation cases of
 * validation/cases/ (one declarative file each, docs/validation.md), prints
 * predicted vs measured per case with a one-line verdict, exits 1 when a
 * case is outside its budget. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "nearest.h"
#include "validate.h"
#include "workloads.h"

/* Case kinds: adding one = a file tools/validate_<kind>.c and a line here. */
static const struct {
    const char *name;
    vkind_fn run;
    const char *const *keys;
} kinds[] = {
    {"whatif", validate_whatif, validate_whatif_keys},
    {"measurable", validate_measurable, validate_measurable_keys},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

/* "whatif, measurable" */
static const char *kind_names(void)
{
    static char buf[128];
    size_t len = 0;
    for (size_t i = 0; i < N_KINDS; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s",
                                i ? ", " : "", kinds[i].name);
    return buf;
}

static void help(FILE *f)
{
    fprintf(f,
        "usage: sim validate [CASE...] [options]\n"
        "\n"
        "Runs the validation cases (default: every validation/cases/*.case):\n"
        "each obtains its baseline trace, calibrates, applies its transform and\n"
        "predicts without the measured table, then compares the prediction with\n"
        "the measured table row by row (count, sum, avg and their relative\n"
        "errors, the traced duration, MAPE and signed MPE of the sums over the\n"
        "rows with >= 1%% of the measured time, the total's error row by row in\n"
        "points of the measured total; a row whose sum is mostly one exit is\n"
        "marked, docs/validation.md \"One exit\") and prints a one-line verdict\n"
        "against the case's budget. The case file format: docs/validation.md.\n"
        "A CASE is a name in the cases directory (ppc440-pv) or the path of a\n"
        "case file of your own (another board's tables: my/board.case, or any\n"
        "name ending in .case); its relative paths are from its directory.\n"
        "\n"
        "options:\n"
        "  --cases DIR    where the case files are (default: validation/cases\n"
        "                 if the current directory has it, else the source\n"
        "                 tree's that sim was built from)\n"
        "  --plot DIR     per case DIR/CASE.png and DIR/CASE.svg (gnuplot):\n"
        "                 time share per row predicted vs measured, and each\n"
        "                 row's relative error\n"
        "  --format FMT   text (default) or json\n"
        "  --list         list the cases\n"
        "  --linux-dir D  where the Linux cases find vmlinux, vmlinux-pv and\n"
        "                 their device trees (as sim record --linux-dir)\n"
        "\n"
        "exit codes: 0 every case within its budget (skipped ones do not count),\n"
        "1 a case outside its budget, 2 bad usage, a bad case file or a step\n"
        "that failed, 130/143/129/141 interrupted (Ctrl-C, SIGTERM, SIGHUP,\n"
        "SIGPIPE: the running case's scratch directory is removed).\n");
}

const char *vcase_get(const vcase *c, const char *key)
{
    for (unsigned i = 0; i < c->n; i++)
        if (!strcmp(c->key[i], key))
            return c->val[i];
    return NULL;
}

const char *vcase_path(const vcase *c, const char *key, char *buf, size_t n)
{
    const char *v = vcase_get(c, key);
    if (!v)
        return NULL;
    if (v[0] == '/')
        snprintf(buf, n, "%s", v);
    else
        snprintf(buf, n, "%s/%s", c->dir, v);
    return buf;
}

unsigned vcase_line(const vcase *c, const char *key)
{
    for (unsigned i = 0; i < c->n; i++)
        if (!strcmp(c->key[i], key))
            return c->line[i];
    return 0;
}

sim_err vcase_fail(const vcase *c, const char *key, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    unsigned line = key ? vcase_line(c, key) : 0;
    if (line)
        return sim_fail(SIM_ERR_FORMAT, "%s:%u: %s", c->path, line, msg);
    return sim_fail(SIM_ERR_FORMAT, "%s: %s", c->path, msg);
}

sim_err vcase_num(const vcase *c, const char *key, double dflt, double *v)
{
    *v = dflt;
    for (unsigned i = 0; i < c->n; i++)
        if (!strcmp(c->key[i], key)) {
            char *end;
            errno = 0;
            double x = strtod(c->val[i], &end);
            if (!c->val[i][0] || *end || errno || !isfinite(x))
                return sim_fail(SIM_ERR_FORMAT,
                                "%s:%u: %s = '%s': expected a number",
                                c->path, c->line[i], key, c->val[i]);
            *v = x;
        }
    return SIM_OK;
}

/* Ctrl-C, a batch scheduler's SIGTERM, a closed terminal's SIGHUP, the
 * reader of the output gone (SIGPIPE): the step running is stopped, the
 * case ends, its scratch directory (a 10M-exit case's is 300 MB) is
 * removed, and sim exits 128 + the signal. */
static volatile sig_atomic_t v_stop;
static volatile sig_atomic_t v_child; /* the step's pid, 0 when none */

static void on_stop(int sig)
{
    v_stop = sig;
    if (v_child > 0)
        kill((pid_t)v_child, SIGTERM);
}

bool validate_interrupted(void)
{
    return v_stop != 0;
}

int validate_run_self(const char *log, const char *const *argv)
{
    if (v_stop)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        int n = 0;
        while (argv[n])
            n++;
        char **a = calloc((size_t)n + 2, sizeof *a);
        if (!a)
            _exit(127);
        a[0] = (char *)"sim";
        for (int i = 0; i < n; i++)
            a[i + 1] = (char *)argv[i];
        execv("/proc/self/exe", a);
        _exit(127);
    }
    v_child = (sig_atomic_t)pid;
    if (v_stop) /* arrived before v_child was set */
        kill(pid, SIGTERM);
    int st, w;
    while ((w = (int)waitpid(pid, &st, 0)) < 0 && errno == EINTR)
        ;
    v_child = 0;
    if (w < 0 || !WIFEXITED(st) || v_stop)
        return -1;
    return WEXITSTATUS(st);
}

/* One "key = value" line (already trimmed) into c. */
static sim_err add_key(vcase *c, char *line, unsigned lineno)
{
    char *eq = strchr(line, '=');
    if (!eq)
        return sim_fail(SIM_ERR_FORMAT, "%s:%u: expected 'key = value'",
                        c->path, lineno);
    char *k = line, *v = eq + 1, *ke = eq;
    while (ke > k && (ke[-1] == ' ' || ke[-1] == '\t'))
        ke--;
    *ke = '\0';
    v += strspn(v, " \t");
    if (!*k)
        return sim_fail(SIM_ERR_FORMAT, "%s:%u: a value without a key",
                        c->path, lineno);
    if (c->n == VCASE_MAX_KEYS || strlen(k) >= sizeof c->key[0] ||
        strlen(v) >= sizeof c->val[0])
        return sim_fail(SIM_ERR_FORMAT, "%s:%u: key or value too long, or "
                                        "more than %d keys",
                        c->path, lineno, VCASE_MAX_KEYS);
    for (unsigned i = 0; i < c->n; i++)
        if (!strcmp(c->key[i], k))
            return sim_fail(SIM_ERR_FORMAT, "%s:%u: '%s' given twice (first "
                                            "on line %u)",
                            c->path, lineno, k, c->line[i]);
    snprintf(c->key[c->n], sizeof c->key[0], "%s", k);
    snprintf(c->val[c->n], sizeof c->val[0], "%s", v);
    c->line[c->n++] = lineno;
    return SIM_OK;
}

/* A CASE argument's name: a case file's without its directory and
 * ".case", else the name itself. */
static void case_name(const char *arg, char *buf, size_t n)
{
    size_t al = strlen(arg);
    bool file = strchr(arg, '/') || (al > 5 && !strcmp(arg + al - 5, ".case"));
    const char *slash = strrchr(arg, '/');
    const char *base = file && slash ? slash + 1 : arg;
    size_t bl = strlen(base);
    if (file && bl > 5 && !strcmp(base + bl - 5, ".case"))
        bl -= 5;
    snprintf(buf, n, "%.*s", (int)bl, base);
}

static sim_err load_case(vcase *c, const char *dir, const char *name)
{
    memset(c, 0, sizeof *c);
    size_t nl = strlen(name);
    bool file = strchr(name, '/') || (nl > 5 && !strcmp(name + nl - 5, ".case"));
    case_name(name, c->name, sizeof c->name);
    if (file) {
        /* a case file of the user's own (another board's tables): its name
         * is the file's without the directory and ".case", its relative
         * paths are from its own directory */
        const char *slash = strrchr(name, '/');
        if (slash)
            snprintf(c->dir, sizeof c->dir, "%.*s",
                     slash == name ? 1 : (int)(slash - name), name);
        else
            snprintf(c->dir, sizeof c->dir, ".");
        snprintf(c->path, sizeof c->path, "%s", name);
    } else {
        snprintf(c->dir, sizeof c->dir, "%s", dir);
        snprintf(c->path, sizeof c->path, "%s/%s.case", dir, name);
    }
    FILE *f = fopen(c->path, "r");
    if (!f)
        return sim_fail(SIM_ERR_IO, "validate: no case '%s' (%s: %s)", name,
                        c->path, strerror(errno));
    char line[1024];
    unsigned lineno = 0;
    sim_err e = SIM_OK;
    while (e == SIM_OK && fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            e = sim_fail(SIM_ERR_FORMAT, "%s:%u: line longer than %zu bytes",
                         c->path, lineno, sizeof line - 2);
            break;
        }
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' ||
                       line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = '\0';
        char *l = line;
        /* a UTF-8 byte order mark (an editor's): not part of the first key
         * (the case read as having no 'kind') */
        if (lineno == 1 && !strncmp(l, "\xef\xbb\xbf", 3))
            l += 3;
        l += strspn(l, " \t");
        if (!*l || *l == '#' || *l == ';')
            continue;
        e = add_key(c, l, lineno);
    }
    /* a read error (a directory given as the case: EISDIR) is no empty
     * case ('no kind') */
    if (e == SIM_OK && ferror(f))
        e = sim_fail(SIM_ERR_IO, "validate: case '%s': %s: cannot be read "
                                 "(%s)", name, c->path, strerror(errno));
    fclose(f);
    if (e != SIM_OK)
        return e;
    if (!vcase_get(c, "kind"))
        return sim_fail(SIM_ERR_FORMAT, "%s: no 'kind' (one of: %s)", c->path,
                        kind_names());
    return SIM_OK;
}

/* The kind's runner; every key of the case must be one the kind reads. */
static sim_err case_kind(const vcase *c, vkind_fn *fn)
{
    const char *k = vcase_get(c, "kind");
    size_t j;
    for (j = 0; j < N_KINDS && strcmp(k, kinds[j].name); j++)
        ;
    if (j == N_KINDS)
        return vcase_fail(c, "kind", "unknown kind '%s' (valid: %s)", k,
                          kind_names());
    static const char *const common[] = {"kind", "description", NULL};
    for (unsigned i = 0; i < c->n; i++) {
        bool known = false;
        for (const char *const *q = common; *q && !known; q++)
            known = !strcmp(*q, c->key[i]);
        for (const char *const *q = kinds[j].keys; *q && !known; q++)
            known = !strcmp(*q, c->key[i]);
        if (known)
            continue;
        nearest nn;
        nearest_init(&nn, c->key[i]);
        char valid[1024] = "";
        size_t len = 0;
        for (int pass = 0; pass < 2; pass++)
            for (const char *const *q = pass ? kinds[j].keys : common; *q;
                 q++) {
                nearest_offer(&nn, *q);
                len += (size_t)snprintf(valid + len, sizeof valid - len,
                                        "%s%s", len ? ", " : "", *q);
            }
        const char *best = nearest_best(&nn);
        return sim_fail(SIM_ERR_FORMAT, "%s:%u: unknown key '%s'%s%s%s for "
                                        "kind = %s (valid: %s)",
                        c->path, c->line[i], c->key[i],
                        best ? " (did you mean '" : "", best ? best : "",
                        best ? "'?)" : "", k, valid);
    }
    *fn = kinds[j].run;
    return SIM_OK;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The case names in dir, sorted (so the run order is fixed). */
static int list_cases(const char *dir, char ***names)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0, cap = 0;
    char **v = NULL;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len <= 5 || strcmp(de->d_name + len - 5, ".case") != 0)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            char **nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv)
                break;
            v = nv;
        }
        v[n++] = strndup(de->d_name, len - 5);
    }
    closedir(d);
    if (n > 1) /* (qsort of NULL, 0 is undefined) */
        qsort(v, (size_t)n, sizeof *v, name_cmp);
    *names = v;
    return n;
}

static sim_err make_tmp(vcase *c)
{
    const char *t = getenv("TMPDIR");
    snprintf(c->tmp, sizeof c->tmp, "%s/sim-validate-%s-XXXXXX",
             t && *t ? t : "/tmp", c->name);
    if (!mkdtemp(c->tmp))
        return sim_fail(SIM_ERR_IO, "validate: scratch directory %s: %s",
                        c->tmp, strerror(errno));
    return SIM_OK;
}

static void remove_tmp(const vcase *c)
{
    DIR *d = opendir(c->tmp);
    if (d) {
        struct dirent *de;
        char p[1024];
        while ((de = readdir(d)))
            if (de->d_name[0] != '.') {
                snprintf(p, sizeof p, "%s/%s", c->tmp, de->d_name);
                unlink(p);
            }
        closedir(d);
    }
    rmdir(c->tmp);
}


#ifndef SIM_CASES_DIR
#define SIM_CASES_DIR "validation/cases"
#endif
/* validation/cases of the working directory (a checkout's root), else the
 * source tree's that this binary was built from (case files name their
 * tables relative to themselves, so either works from anywhere). */
static const char *default_cases_dir(void)
{
    struct stat st;
    if (stat("validation/cases", &st) == 0 && S_ISDIR(st.st_mode))
        return "validation/cases";
    return SIM_CASES_DIR;
}

int cli_validate(int argc, char **argv)
{
    static const struct option opts[] = {
        {"cases", required_argument, 0, 'c'},
        {"plot", required_argument, 0, 'p'},
        {"format", required_argument, 0, 'f'},
        {"list", no_argument, 0, 'l'},
        {"linux-dir", required_argument, 0, 'L'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *dir = default_cases_dir(), *plot = NULL;
    bool json = false, list = false;
    int ch;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (ch) {
        case 'c': dir = optarg; break;
        case 'p': plot = optarg; break;
        case 'f':
            if (!strcmp(optarg, "json"))
                json = true;
            else if (strcmp(optarg, "text") != 0)
                return cli_usage_error("validate", "unknown format '%s' (text, "
                                       "json)", optarg);
            break;
        case 'l': list = true; break;
        case 'L': workloads_set_linux_dir(optarg); break;
        case 'h': help(stdout); return 0;
        default:
            return cli_bad_option("validate", "h", opts, argv);
        }
    }
    struct stat pst;
    if (plot && !list && mkdir(plot, 0755) != 0 && errno != EEXIST)
        return cli_report(sim_fail(SIM_ERR_IO, "validate: --plot %s: %s",
                                   plot, strerror(errno)));
    /* before the cases run (minutes), not after the first one */
    if (plot && !list && (stat(plot, &pst) != 0 || !S_ISDIR(pst.st_mode)))
        return cli_usage_error("validate", "--plot %s: not a directory",
                               plot);
    /* a directory the pictures cannot be written into (read-only, not
     * ours): each case ran to its end and then failed without a verdict */
    if (plot && !list) {
        char probe[1100];
        snprintf(probe, sizeof probe, "%s/.sim-validate-XXXXXX", plot);
        int fd = mkstemp(probe);
        if (fd < 0)
            return cli_report(sim_fail(SIM_ERR_IO, "validate: --plot %s: "
                                       "cannot write there: %s", plot,
                                       strerror(errno)));
        close(fd);
        unlink(probe);
    }
    char **names = NULL;
    int n;
    bool all = optind >= argc;
    if (all) {
        n = list_cases(dir, &names);
        if (n < 0)
            return cli_report(sim_fail(SIM_ERR_IO, "validate: %s: %s (run "
                                       "from the source tree, or --cases DIR)",
                                       dir, strerror(errno)));
        /* nothing validated is not "every case within its budget" */
        if (n == 0) {
            free(names);
            return cli_report(sim_fail(SIM_ERR_USAGE, "validate: %s: no "
                                       "*.case files (docs/validation.md)",
                                       dir));
        }
    } else {
        n = argc - optind;
        names = calloc((size_t)n, sizeof *names);
        for (int i = 0; names && i < n; i++)
            names[i] = strdup(argv[optind + i]);
    }
    if (list) {
        for (int i = 0; i < n; i++) {
            static vcase c;
            if (load_case(&c, dir, names[i]) == SIM_OK) {
                const char *d = vcase_get(&c, "description");
                printf("%-14s %s\n", names[i], d ? d : "");
            } else
                printf("%-14s (%s)\n", names[i], sim_errmsg());
        }
        for (int i = 0; i < n; i++)
            free(names[i]);
        free(names);
        return 0;
    }
    /* two cases of one name (dir1/board.case, dir2/board.case) would
     * write the same pictures and JSON names: refused before any runs */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            char a[256], b[256];
            case_name(names[i], a, sizeof a);
            case_name(names[j], b, sizeof b);
            if (!strcmp(a, b)) {
                int rc2 = cli_usage_error("validate", "two cases named '%s' "
                                          "('%s' and '%s'): their plots and "
                                          "report entries would be one",
                                          a, names[i], names[j]);
                for (int k = 0; k < n; k++)
                    free(names[k]);
                free(names);
                return rc2;
            }
        }
    int rc = 0;
    json_t *jcases = json_array();
    struct sigaction sa, old_int, old_term, old_hup, old_pipe;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    v_stop = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);
    /* the reader of a pipe gone (sim validate | head): the write's SIGPIPE
     * killed sim in the middle of a case, its scratch directory left */
    sigaction(SIGPIPE, &sa, &old_pipe);
    for (int i = 0; i < n && !v_stop; i++) {
        static vcase c;
        sim_err e = load_case(&c, dir, names[i]);
        vkind_fn fn = NULL;
        if (e == SIM_OK)
            e = case_kind(&c, &fn);
        if (e == SIM_OK)
            e = make_tmp(&c);
        if (e != SIM_OK) {
            cli_report(e);
            rc = 2;
            continue;
        }
        c.plot_dir = plot;
        c.out = json ? NULL : stdout;
        if (c.out) {
            const char *d = vcase_get(&c, "description");
            fprintf(c.out, "== case %s%s%s\n", c.name, d ? ": " : "",
                    d ? d : "");
        }
        json_t *jc = json_object();
        json_object_set_new(jc, "case", json_string(c.name));
        vstatus st = VFAIL;
        char verdict[512] = "";
        e = fn(&c, &st, verdict, sizeof verdict, jc);
        remove_tmp(&c);
        if (v_stop) {
            json_decref(jc);
            break;
        }
        if (e != SIM_OK) {
            cli_report(e);
            json_object_set_new(jc, "status", json_string("error"));
            json_object_set_new(jc, "error", json_string(sim_errmsg()));
            json_array_append_new(jcases, jc);
            rc = 2;
            continue;
        }
        static const char *const sname[] = {"PASS", "FAIL", "SKIP"};
        if (c.out) {
            fprintf(c.out, "verdict %s: %s  %s\n\n", c.name, sname[st], verdict);
            fflush(c.out);
        }
        json_object_set_new(jc, "status", json_string(st == VPASS ? "pass"
                                                      : st == VFAIL ? "fail"
                                                                    : "skip"));
        json_object_set_new(jc, "verdict", json_string(verdict));
        json_array_append_new(jcases, jc);
        if (st == VFAIL && rc == 0)
            rc = 1;
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    sigaction(SIGPIPE, &old_pipe, NULL);
    if (v_stop) {
        /* no verdict for the cases not run, nor a JSON document that
         * would read as the whole run */
        fprintf(stderr, "sim validate: interrupted (signal %d): the case "
                        "running was stopped and its scratch directory "
                        "removed\n", (int)v_stop);
        json_decref(jcases);
        for (int i = 0; i < n; i++)
            free(names[i]);
        free(names);
        return 128 + (int)v_stop;
    }
    if (json) {
        json_t *o = json_object();
        json_object_set_new(o, "cases", jcases);
        json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        fputc('\n', stdout);
        json_decref(o);
    } else
        json_decref(jcases);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}
