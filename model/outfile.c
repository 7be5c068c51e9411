/* outfile: temporary name + rename for files, in place for devices and
 * pipes, temporary files removed on a fatal signal (outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- temporary files to remove on a signal ---- */

/* More than any command holds at once (sim import: one per vCPU thread). */
#define LIVE_MAX 256
static _Atomic(char *) g_live[LIVE_MAX];
static const int k_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
static atomic_bool g_trapped;

/* unlink, signal and raise are async-signal-safe; the names stay allocated
 * while registered (freed only after live_drop). */
static void on_signal(int sig)
{
    for (int i = 0; i < LIVE_MAX; i++) {
        char *t = atomic_load(&g_live[i]);
        if (t)
            unlink(t);
    }
    signal(sig, SIG_DFL);
    raise(sig); /* delivered on return: the process ends by sig */
}

/* Takes the signals a command left at their default action. */
static void trap_signals(void)
{
    if (atomic_exchange(&g_trapped, true))
        return;
    for (size_t i = 0; i < sizeof k_signals / sizeof k_signals[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(k_signals[i], NULL, &old) != 0 ||
            (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(k_signals[i], &sa, NULL);
    }
}

static int live_add(char *tmp)
{
    for (int i = 0; i < LIVE_MAX; i++) {
        char *expect = NULL;
        if (atomic_compare_exchange_strong(&g_live[i], &expect, tmp))
            return i + 1;
    }
    return 0; /* still written and renamed; only not removed on a signal */
}

static void live_drop(outfile *o)
{
    if (o->slot > 0)
        atomic_store(&g_live[o->slot - 1], NULL);
    o->slot = 0;
}

/* ---- targets written in place, one output each ---- */

#define BUSY_MAX 16
static struct {
    bool used;
    dev_t dev;
    ino_t ino;
} g_busy[BUSY_MAX];

static bool same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static sim_err busy_take(outfile *o, const struct stat *st, const char *name)
{
    for (int i = 0; i < BUSY_MAX; i++)
        if (g_busy[i].used && g_busy[i].dev == st->st_dev &&
            g_busy[i].ino == st->st_ino)
            return sim_fail(SIM_ERR_USAGE,
                            "%s: is not a regular file and is already being "
                            "written: it takes one output at a time",
                            name);
    for (int i = 0; i < BUSY_MAX; i++)
        if (!g_busy[i].used) {
            g_busy[i].used = true;
            g_busy[i].dev = st->st_dev;
            g_busy[i].ino = st->st_ino;
            o->busy = i + 1;
            return SIM_OK;
        }
    return sim_fail(SIM_ERR_USAGE, "%s: more than %d devices or pipes "
                                   "written at once", name, BUSY_MAX);
}

static void busy_drop(outfile *o)
{
    if (o->busy > 0)
        g_busy[o->busy - 1].used = false;
    o->busy = 0;
}

/* ---- where a path leads ---- */

typedef enum target {
    T_NEW,     /* nothing there yet: created by rename */
    T_REGULAR, /* a regular file: replaced by rename */
    T_STREAM,  /* device, FIFO, socket: written in place */
    T_STDOUT,  /* this process's stdout (/dev/stdout) */
    T_STDERR,
} target;

static char *dir_of(const char *p)
{
    const char *s = strrchr(p, '/');
    if (!s)
        return strdup(".");
    if (s == p)
        return strdup("/");
    return strndup(p, (size_t)(s - p));
}

/* A name that does not exist: itself, or where its dangling symlinks lead
 * (a relative link is relative to the link's directory). */
static sim_err follow_dangling(const char *path, char **final)
{
    char *p = strdup(path);
    if (!p)
        return sim_fail(SIM_ERR_NOMEM, "out of memory");
    for (int depth = 0;; depth++) {
        struct stat ls;
        if (lstat(p, &ls) != 0 || !S_ISLNK(ls.st_mode))
            break;
        char t[PATH_MAX];
        ssize_t n = depth < 40 ? readlink(p, t, sizeof t - 1) : -1;
        if (n < 0) {
            free(p);
            return sim_fail(SIM_ERR_IO, "%s: %s", path,
                            strerror(depth < 40 ? errno : ELOOP));
        }
        t[n] = '\0';
        char *next;
        if (t[0] == '/') {
            next = strdup(t);
        } else {
            char *d = dir_of(p);
            size_t len = d ? strlen(d) + (size_t)n + 2 : 0;
            next = d ? malloc(len) : NULL;
            if (next)
                snprintf(next, len, "%s/%s", d, t);
            free(d);
        }
        free(p);
        if (!(p = next))
            return sim_fail(SIM_ERR_NOMEM, "out of memory");
    }
    *final = p;
    return SIM_OK;
}

/* Where path's bytes go. *final (allocated, NULL for T_STDOUT/T_STDERR) is
 * the name to rename onto or open; *st describes an existing target. */
static sim_err resolve(const char *path, target *kind, char **final,
                       struct stat *st)
{
    *final = NULL;
    memset(st, 0, sizeof *st);
    if (!*path)
        return sim_fail(SIM_ERR_USAGE, "an empty output file name");
    if (stat(path, st) == 0) {
        if (S_ISDIR(st->st_mode))
            return sim_fail(SIM_ERR_USAGE, "%s: is a directory: give a file "
                                           "name", path);
        struct stat fd;
        if (fstat(STDOUT_FILENO, &fd) == 0 && same_file(st, &fd)) {
            *kind = T_STDOUT;
            return SIM_OK;
        }
        if (fstat(STDERR_FILENO, &fd) == 0 && same_file(st, &fd)) {
            *kind = T_STDERR;
            return SIM_OK;
        }
        if (!S_ISREG(st->st_mode)) {
            *kind = T_STREAM;
            if (access(path, W_OK) != 0)
                return sim_fail(SIM_ERR_IO, "%s: cannot write: %s", path,
                                strerror(errno));
            if (!(*final = strdup(path)))
                return sim_fail(SIM_ERR_NOMEM, "out of memory");
            return SIM_OK;
        }
        struct stat ls;
        *kind = T_REGULAR;
        bool link = lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode);
        if (!(*final = link ? realpath(path, NULL) : strdup(path)))
            return sim_fail(SIM_ERR_IO, "%s: %s", path, strerror(errno));
    } else if (errno != ENOENT) {
        return sim_fail(SIM_ERR_IO, "%s: %s", path, strerror(errno));
    } else {
        *kind = T_NEW;
        sim_err e = follow_dangling(path, final);
        if (e)
            return e;
    }
    /* a new or replaced file is created beside its final name */
    char *d = dir_of(*final);
    if (!d) {
        free(*final);
        *final = NULL;
        return sim_fail(SIM_ERR_NOMEM, "out of memory");
    }
    struct stat ds;
    sim_err e = SIM_OK;
    if (stat(d, &ds) != 0 || !S_ISDIR(ds.st_mode))
        e = sim_fail(SIM_ERR_IO, "%s: cannot write: directory %s does not "
                                 "exist", path, d);
    else if (access(d, W_OK | X_OK) != 0)
        e = sim_fail(SIM_ERR_IO, "%s: cannot create a file in %s: %s", path,
                     d, strerror(errno));
    free(d);
    if (e) {
        free(*final);
        *final = NULL;
    }
    return e;
}

bool outfile_is_stdout(const char *path)
{
    if (!strcmp(path, "-"))
        return true;
    target k;
    char *final;
    struct stat st;
    bool is = resolve(path, &k, &final, &st) == SIM_OK && k == T_STDOUT;
    free(final);
    return is;
}

sim_err outfile_check(const char *path)
{
    if (strcmp(path, "-") == 0)
        return SIM_OK;
    target k;
    char *final;
    struct stat st;
    sim_err e = resolve(path, &k, &final, &st);
    free(final);
    return e;
}

sim_err outfile_check_not_input(const char *path, const char *input)
{
    struct stat so, si;
    if (!path || !input || !strcmp(path, "-") || stat(path, &so) != 0 ||
        stat(input, &si) != 0 || !S_ISREG(so.st_mode))
        return SIM_OK;
    if (so.st_dev == si.st_dev && so.st_ino == si.st_ino)
        return sim_fail(SIM_ERR_USAGE, "%s: is also the input (%s): writing "
                        "it would replace the input; give another name",
                        path, input);
    return SIM_OK;
}

/* The canonical name a regular or new output's bytes end up under
 * (its directory through realpath, then its own name); NULL for a stream,
 * a device or an error (outfile_check reports those). */
static char *canonical_target(const char *path)
{
    target k;
    char *final;
    struct stat st;
    if (!strcmp(path, "-") || resolve(path, &k, &final, &st) != SIM_OK)
        return NULL;
    if (k != T_REGULAR && k != T_NEW) {
        free(final);
        return NULL;
    }
    char *d = dir_of(final), *rd = d ? realpath(d, NULL) : NULL;
    const char *b = strrchr(final, '/');
    b = b ? b + 1 : final;
    char *c = NULL;
    if (rd && (c = malloc(strlen(rd) + strlen(b) + 2)))
        sprintf(c, "%s/%s", rd, b);
    free(d);
    free(rd);
    free(final);
    return c;
}

sim_err outfile_check_distinct(const char *a, const char *b)
{
    if (!a || !b)
        return SIM_OK;
    char *ca = canonical_target(a), *cb = canonical_target(b);
    bool same = ca && cb && !strcmp(ca, cb);
    free(ca);
    free(cb);
    if (same)
        return sim_fail(SIM_ERR_USAGE, "%s and %s are the same file: one "
                        "output would replace the other; give two names",
                        a, b);
    return SIM_OK;
}

static void clear(outfile *o)
{
    free(o->path);
    free(o->tmp);
    o->f = NULL;
    o->path = o->tmp = NULL;
    o->in_place = false;
}

static sim_err open_in_place(outfile *o, const char *final, const char *name)
{
    int fd = open(final, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return sim_fail(SIM_ERR_IO, "%s: cannot open: %s", name,
                        strerror(errno));
    if (!(o->f = fdopen(fd, "wb"))) {
        int err = errno;
        close(fd);
        return sim_fail(SIM_ERR_IO, "%s: %s", name, strerror(err));
    }
    o->in_place = true;
    return SIM_OK;
}

/* mkstemp(o->tmp), registered for removal on a signal; the fd or -1
 * (errno set). */
static int make_temp(outfile *o)
{
    trap_signals();
    /* no signal between creating the file and registering it */
    sigset_t all, prev;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &prev);
    int fd = mkstemp(o->tmp);
    int err = errno;
    if (fd >= 0)
        o->slot = live_add(o->tmp);
    sigprocmask(SIG_SETMASK, &prev, NULL);
    errno = err;
    return fd;
}

static sim_err open_temp(outfile *o, const char *final, const char *name,
                         const struct stat *old, target k)
{
    size_t n = strlen(final);
    if (!(o->tmp = malloc(n + 12)))
        return sim_fail(SIM_ERR_NOMEM, "out of memory");
    /* the temporary name is the final one + ".tmp.XXXXXX", its base cut
     * so that it stays a file name (255 bytes): a final name of 250
     * could not be written ("File name too long" for the temporary) */
    const char *sl = strrchr(final, '/');
    size_t dir = sl ? (size_t)(sl + 1 - final) : 0;
    size_t keep = n - dir > 255 - 11 ? dir + 255 - 11 : n;
    memcpy(o->tmp, final, keep);
    memcpy(o->tmp + keep, ".tmp.XXXXXX", 12);
    int fd = make_temp(o);
    int err = errno;
    if (fd < 0)
        return sim_fail(SIM_ERR_IO, "%s: cannot create a temporary file "
                                    "beside it: %s", name, strerror(err));
    /* mkstemp creates 0600: keep the replaced file's mode, else the mode a
     * plain fopen would give */
    mode_t mode;
    if (k == T_REGULAR) {
        mode = old->st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode) != 0 || !(o->f = fdopen(fd, "wb"))) {
        err = errno;
        close(fd);
        unlink(o->tmp);
        live_drop(o);
        return sim_fail(SIM_ERR_IO, "%s: %s", o->tmp, strerror(err));
    }
    return SIM_OK;
}

sim_err outfile_open(outfile *o, const char *path)
{
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return SIM_OK;
    }
    target k;
    char *final;
    struct stat st;
    sim_err e = resolve(path, &k, &final, &st);
    if (e)
        return e;
    if (!(o->path = strdup(path))) {
        free(final);
        return sim_fail(SIM_ERR_NOMEM, "out of memory");
    }
    if (k == T_STDOUT || k == T_STDERR || k == T_STREAM)
        e = busy_take(o, &st, path);
    if (!e) {
        if (k == T_STDOUT || k == T_STDERR)
            o->f = k == T_STDOUT ? stdout : stderr;
        else if (k == T_STREAM)
            e = open_in_place(o, final, path);
        else
            e = open_temp(o, final, path, &st, k);
    }
    if (e) {
        busy_drop(o);
        clear(o);
        free(final);
        return e;
    }
    if (o->tmp) { /* rename needs the final name; messages use the typed one */
        free(o->path);
        o->path = final;
    } else {
        free(final);
    }
    return SIM_OK;
}

sim_err outfile_open_named(outfile *o, const char *path)
{
    sim_err e = outfile_open(o, path);
    if (e)
        return e;
    if (!o->tmp) {
        outfile_abort(o);
        return sim_fail(SIM_ERR_USAGE, "%s: this output is written by another "
                                       "program: give a file name, not a "
                                       "device, pipe or stdout", path);
    }
    fclose(o->f); /* empty: the program writes o->tmp */
    o->f = NULL;
    return SIM_OK;
}

sim_err outfile_scratch(outfile *o, const char *tag)
{
    return outfile_scratch_in(o, NULL, tag);
}

void outfile_keep(outfile *o)
{
    if (o->f)
        fclose(o->f);
    live_drop(o);
    busy_drop(o);
    clear(o);
}

sim_err outfile_scratch_in(outfile *o, const char *dir, const char *tag)
{
    memset(o, 0, sizeof *o);
    if (!dir || !*dir)
        dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    size_t n = strlen(dir) + strlen(tag) + 16;
    if (!(o->tmp = malloc(n)))
        return sim_fail(SIM_ERR_NOMEM, "out of memory");
    snprintf(o->tmp, n, "%s/sim-%s-XXXXXX", dir, tag);
    int fd = make_temp(o);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        sim_err e = sim_fail(SIM_ERR_IO, "%s: cannot create a scratch file: "
                                         "%s", dir, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        live_drop(o);
        clear(o);
        return e;
    }
    return SIM_OK;
}

/* 0, or the errno of the first failure: an earlier write (EIO: stdio
 * keeps no errno), the flush, the fsync (files only: a device or pipe has
 * nothing to sync). */
static int flush_error(FILE *f, bool sync)
{
    int err = ferror(f) ? EIO : 0;
    if (fflush(f) != 0)
        err = errno;
    if (!err && sync && fsync(fileno(f)) != 0)
        err = errno;
    return err;
}

sim_err outfile_commit(outfile *o)
{
    if (!o->tmp && !o->in_place) { /* a stream of this process */
        const char *name = o->path ? o->path : "stdout";
        int err = flush_error(o->f, false);
        sim_err e = err ? sim_fail(SIM_ERR_IO, "%s: write failed: %s", name,
                                   strerror(err))
                        : SIM_OK;
        busy_drop(o);
        clear(o);
        return e;
    }
    int err = 0;
    if (o->f) {
        err = flush_error(o->f, o->tmp != NULL);
        if (fclose(o->f) != 0 && !err)
            err = errno;
        o->f = NULL;
    } else { /* outfile_open_named: another program wrote o->tmp */
        int fd = open(o->tmp, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || fsync(fd) != 0)
            err = errno;
        if (fd >= 0)
            close(fd);
    }
    int bad = err != 0;
    sim_err e = SIM_OK;
    if (bad)
        e = sim_fail(SIM_ERR_IO, "%s: write failed: %s", o->path,
                     strerror(err));
    else if (o->tmp && rename(o->tmp, o->path) != 0)
        e = sim_fail(SIM_ERR_IO, "%s: rename from %s failed: %s", o->path,
                     o->tmp, strerror(errno));
    if (o->tmp && e)
        unlink(o->tmp);
    live_drop(o);
    busy_drop(o);
    clear(o);
    return e;
}

void outfile_abort(outfile *o)
{
    /* a stream of this process (stdout) stays open */
    if (o->tmp || o->in_place) {
        if (o->f)
            fclose(o->f);
        if (o->tmp)
            unlink(o->tmp);
    }
    live_drop(o);
    busy_drop(o);
    clear(o);
}

sim_err outfile_finish(outfile *o, sim_err e)
{
    if (e != SIM_OK) {
        outfile_abort(o);
        return e;
    }
    return outfile_commit(o);
}
