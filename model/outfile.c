/* outfile: temporary name + rename. */
#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

sim_err outfile_open(outfile *o, const char *path)
{
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return SIM_OK;
    }
    size_t n = strlen(path);
    o->path = strdup(path);
    o->tmp = malloc(n + 16);
    if (!o->path || !o->tmp) {
        free(o->path);
        free(o->tmp);
        return sim_fail(SIM_ERR_NOMEM, "out of memory");
    }
    memcpy(o->tmp, path, n);
    memcpy(o->tmp + n, ".tmp.XXXXXX", 12);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        sim_err e = sim_fail(SIM_ERR_IO, "%s: cannot create a temporary file "
                             "beside it: %s", path, strerror(errno));
        free(o->path);
        free(o->tmp);
        o->path = o->tmp = NULL;
        return e;
    }
    /* mkstemp creates 0600; give the file the mode a plain fopen would */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) {
        sim_err e = sim_fail(SIM_ERR_IO, "%s: chmod: %s", o->tmp,
                             strerror(errno));
        close(fd);
        unlink(o->tmp);
        free(o->path);
        free(o->tmp);
        o->path = o->tmp = NULL;
        return e;
    }
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        close(fd);
        unlink(o->tmp);
        free(o->path);
        free(o->tmp);
        o->path = o->tmp = NULL;
        return sim_fail(SIM_ERR_IO, "%s: %s", path, strerror(errno));
    }
    return SIM_OK;
}

sim_err outfile_commit(outfile *o)
{
    if (!o->tmp) {
        if (o->f && fflush(o->f) != 0)
            return sim_fail(SIM_ERR_IO, "stdout: %s", strerror(errno));
        return SIM_OK;
    }
    int bad = ferror(o->f) || fflush(o->f) != 0 || fsync(fileno(o->f)) != 0;
    int err = errno;
    if (fclose(o->f) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    o->f = NULL;
    if (bad) {
        unlink(o->tmp);
        sim_err e = sim_fail(SIM_ERR_IO, "%s: write failed: %s", o->path,
                             strerror(err));
        free(o->path);
        free(o->tmp);
        o->path = o->tmp = NULL;
        return e;
    }
    if (rename(o->tmp, o->path) != 0) {
        err = errno;
        unlink(o->tmp);
        sim_err e = sim_fail(SIM_ERR_IO, "%s: rename from %s failed: %s",
                             o->path, o->tmp, strerror(err));
        free(o->path);
        free(o->tmp);
        o->path = o->tmp = NULL;
        return e;
    }
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    return SIM_OK;
}

void outfile_abort(outfile *o)
{
    if (o->tmp) {
        if (o->f)
            fclose(o->f);
        unlink(o->tmp);
    }
    free(o->path);
    free(o->tmp);
    o->f = NULL;
    o->path = o->tmp = NULL;
}
