/* Tests of model/outfile: rename for files (mode kept, symlinks followed),
 * in place for FIFOs, directories refused by check and open, one output at
 * a time per stream, temporary files removed on a fatal signal. Device
 * nodes are tested from the command line (tests/outfile_paths.sh). */
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outfile.h"
#include "testlib.h"

/* A fresh scratch directory for one test. */
static void scratch(const char *name, char *dir, size_t cap)
{
    snprintf(dir, cap, "%s/outfile_unit_%s", test_tmp_dir(), name);
    char cmd[2 * 1024 + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    CU_ASSERT_FATAL(system(cmd) == 0);
}

static size_t count_temps(const char *dir)
{
    char pat[1024 + 16];
    snprintf(pat, sizeof pat, "%s/*.tmp.*", dir);
    glob_t g;
    size_t n = glob(pat, 0, NULL, &g) == 0 ? g.gl_pathc : 0;
    globfree(&g);
    return n;
}

static void write_text(const char *path, const char *text)
{
    outfile o;
    CU_ASSERT_FATAL(outfile_open(&o, path) == SIM_OK);
    fputs(text, o.f);
    CU_ASSERT_FATAL(outfile_commit(&o) == SIM_OK);
}

static void test_replaces_file_keeping_mode(void)
{
    char d[512], p[600];
    scratch("mode", d, sizeof d);
    snprintf(p, sizeof p, "%s/f.txt", d);
    write_text(p, "old\n");
    CU_ASSERT_FATAL(chmod(p, 0640) == 0);
    write_text(p, "new\n");
    size_t n;
    unsigned char *b = test_slurp(p, &n);
    CU_ASSERT(b && n == 4 && memcmp(b, "new\n", 4) == 0);
    free(b);
    struct stat st;
    CU_ASSERT_FATAL(stat(p, &st) == 0);
    CU_ASSERT_EQUAL(st.st_mode & 07777, 0640);
    CU_ASSERT_EQUAL(count_temps(d), 0);
}

static void test_symlink_followed(void)
{
    char d[512], link[600], target[600];
    scratch("link", d, sizeof d);
    snprintf(link, sizeof link, "%s/link", d);
    snprintf(target, sizeof target, "%s/sub/t.txt", d);
    char sub[600];
    snprintf(sub, sizeof sub, "%s/sub", d);
    CU_ASSERT_FATAL(mkdir(sub, 0777) == 0);
    CU_ASSERT_FATAL(symlink("sub/t.txt", link) == 0); /* dangling */
    write_text(link, "via link\n");
    struct stat ls;
    CU_ASSERT_FATAL(lstat(link, &ls) == 0);
    CU_ASSERT(S_ISLNK(ls.st_mode));
    size_t n;
    unsigned char *b = test_slurp(target, &n);
    CU_ASSERT(b && n == 9 && memcmp(b, "via link\n", 9) == 0);
    free(b);
    write_text(link, "again\n"); /* now the target exists */
    CU_ASSERT_FATAL(lstat(link, &ls) == 0);
    CU_ASSERT(S_ISLNK(ls.st_mode));
    b = test_slurp(target, &n);
    CU_ASSERT(b && n == 6 && memcmp(b, "again\n", 6) == 0);
    free(b);
    CU_ASSERT_EQUAL(count_temps(d) + count_temps(sub), 0);
}

static void test_directory_refused(void)
{
    char d[512];
    scratch("dir", d, sizeof d);
    CU_ASSERT_EQUAL(outfile_check(d), SIM_ERR_USAGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "is a directory"));
    outfile o;
    CU_ASSERT_EQUAL(outfile_open(&o, d), SIM_ERR_USAGE);
    char p[600];
    snprintf(p, sizeof p, "%s/no/such/x", d);
    CU_ASSERT_EQUAL(outfile_check(p), SIM_ERR_IO);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "does not exist"));
    CU_ASSERT_EQUAL(outfile_check("-"), SIM_OK);
    CU_ASSERT_EQUAL(count_temps(d), 0);
}

/* An output that is one of the command's inputs would replace it (sim
 * sweep t.bin ... -o t.bin turned the trace into a CSV): refused before the
 * work, through a symlink too; /dev/null as both is fine. */
static void test_output_is_input_refused(void)
{
    char d[512], in[600], other[600], link[600];
    scratch("inout", d, sizeof d);
    snprintf(in, sizeof in, "%s/t.bin", d);
    snprintf(other, sizeof other, "%s/out.csv", d);
    snprintf(link, sizeof link, "%s/alias.bin", d);
    FILE *f = fopen(in, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("trace", f);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(symlink("t.bin", link), 0);
    CU_ASSERT_EQUAL(outfile_check_not_input(in, in), SIM_ERR_USAGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "is also the input"));
    CU_ASSERT_EQUAL(outfile_check_not_input(link, in), SIM_ERR_USAGE);
    CU_ASSERT_EQUAL(outfile_check_not_input(other, in), SIM_OK);
    CU_ASSERT_EQUAL(outfile_check_not_input("-", in), SIM_OK);
    CU_ASSERT_EQUAL(outfile_check_not_input("/dev/null", "/dev/null"),
                    SIM_OK);
    CU_ASSERT_EQUAL(outfile_check_not_input(in, NULL), SIM_OK);
}

static void test_fifo_in_place_one_output(void)
{
    char d[512], p[600];
    scratch("fifo", d, sizeof d);
    snprintf(p, sizeof p, "%s/pipe", d);
    CU_ASSERT_FATAL(mkfifo(p, 0600) == 0);
    /* a reader that does not block, so the writer's open does not either */
    int rd = open(p, O_RDONLY | O_NONBLOCK);
    CU_ASSERT_FATAL(rd >= 0);
    outfile o, o2;
    CU_ASSERT_FATAL(outfile_open(&o, p) == SIM_OK);
    CU_ASSERT(o.in_place);
    CU_ASSERT_PTR_NULL(o.tmp);
    /* the same FIFO cannot take a second output at once */
    CU_ASSERT_EQUAL(outfile_open(&o2, p), SIM_ERR_USAGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "already being written"));
    fputs("through\n", o.f);
    CU_ASSERT_FATAL(outfile_commit(&o) == SIM_OK);
    char buf[32] = {0};
    CU_ASSERT_EQUAL(read(rd, buf, sizeof buf - 1), 8);
    CU_ASSERT_STRING_EQUAL(buf, "through\n");
    close(rd);
    struct stat st;
    CU_ASSERT_FATAL(stat(p, &st) == 0);
    CU_ASSERT(S_ISFIFO(st.st_mode));
    CU_ASSERT_EQUAL(count_temps(d), 0);
}

/* An output of f.txt in a fresh scratch directory d (path p), opened over
 * an old "keep\n" and half written. */
static void open_half_written(const char *name, char d[512], char p[600],
                              outfile *o)
{
    scratch(name, d, 512);
    snprintf(p, 600, "%s/f.txt", d);
    write_text(p, "keep\n");
    CU_ASSERT_FATAL(outfile_open(o, p) == SIM_OK);
    fputs("half", o->f);
}

/* Whether the file at p holds exactly text. */
static bool holds(const char *p, const char *text)
{
    size_t n;
    unsigned char *b = test_slurp(p, &n);
    bool same = b && n == strlen(text) && memcmp(b, text, n) == 0;
    free(b);
    return same;
}

static void test_abort_removes_temp(void)
{
    char d[512], p[600];
    outfile o;
    open_half_written("abort", d, p, &o);
    CU_ASSERT_EQUAL(count_temps(d), 1);
    outfile_abort(&o);
    CU_ASSERT_EQUAL(count_temps(d), 0);
    CU_ASSERT(holds(p, "keep\n"));
}

/* finish: an error removes the half-written file, its message kept; no
 * error commits; a failing commit is its error. */
static void test_finish_commits_or_aborts(void)
{
    char d[512], p[600];
    outfile o;
    open_half_written("finish", d, p, &o);
    sim_err e = sim_fail(SIM_ERR_FORMAT, "input: line 3: bad");
    CU_ASSERT_EQUAL(outfile_finish(&o, e), SIM_ERR_FORMAT);
    CU_ASSERT_STRING_EQUAL(sim_errmsg(), "input: line 3: bad");
    CU_ASSERT_EQUAL(count_temps(d), 0);
    CU_ASSERT(holds(p, "keep\n"));
    CU_ASSERT_FATAL(outfile_open(&o, p) == SIM_OK);
    fputs("new\n", o.f);
    CU_ASSERT_EQUAL(outfile_finish(&o, SIM_OK), SIM_OK);
    CU_ASSERT_EQUAL(count_temps(d), 0);
    CU_ASSERT(holds(p, "new\n"));
    /* /dev/full is written in place: its commit fails */
    CU_ASSERT_FATAL(outfile_open(&o, "/dev/full") == SIM_OK);
    fputs("x", o.f);
    CU_ASSERT_EQUAL(outfile_finish(&o, SIM_OK), SIM_ERR_IO);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "/dev/full: write failed"));
}

/* An output another program writes by name: a temporary file beside it,
 * renamed by commit; a stream cannot be one. */
static void test_named_output(void)
{
    char d[512], p[600];
    scratch("named", d, sizeof d);
    snprintf(p, sizeof p, "%s/pic.png", d);
    outfile o;
    CU_ASSERT_FATAL(outfile_open_named(&o, p) == SIM_OK);
    CU_ASSERT_PTR_NULL(o.f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o.tmp);
    FILE *f = fopen(o.tmp, "w"); /* as gnuplot would */
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("picture", f);
    fclose(f);
    CU_ASSERT_EQUAL(access(p, F_OK), -1);
    CU_ASSERT_FATAL(outfile_commit(&o) == SIM_OK);
    size_t n;
    unsigned char *b = test_slurp(p, &n);
    CU_ASSERT(b && n == 7 && memcmp(b, "picture", 7) == 0);
    free(b);
    CU_ASSERT_EQUAL(count_temps(d), 0);
    /* aborted: nothing appears */
    snprintf(p, sizeof p, "%s/gone.png", d);
    CU_ASSERT_FATAL(outfile_open_named(&o, p) == SIM_OK);
    outfile_abort(&o);
    CU_ASSERT_EQUAL(access(p, F_OK), -1);
    CU_ASSERT_EQUAL(count_temps(d), 0);
    /* a FIFO is refused */
    snprintf(p, sizeof p, "%s/pipe", d);
    CU_ASSERT_FATAL(mkfifo(p, 0600) == 0);
    int rd = open(p, O_RDONLY | O_NONBLOCK);
    CU_ASSERT_FATAL(rd >= 0);
    CU_ASSERT_EQUAL(outfile_open_named(&o, p), SIM_ERR_USAGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(), "written by another program"));
    close(rd);
}

/* A scratch file lives in $TMPDIR and goes with abort. */
static void test_scratch_file(void)
{
    char d[512];
    scratch("scratch", d, sizeof d);
    setenv("TMPDIR", d, 1);
    outfile o;
    sim_err e = outfile_scratch(&o, "unit");
    unsetenv("TMPDIR");
    CU_ASSERT_FATAL(e == SIM_OK);
    CU_ASSERT(strncmp(o.tmp, d, strlen(d)) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(o.tmp, "/sim-unit-"));
    fputs("data\n", o.f);
    CU_ASSERT_EQUAL(access(o.tmp, F_OK), 0);
    char keep[700];
    snprintf(keep, sizeof keep, "%s", o.tmp);
    outfile_abort(&o);
    CU_ASSERT_EQUAL(access(keep, F_OK), -1);
}

/* In a child: open two outputs, then die of sig with both unfinished. */
static void signal_case(int sig, const char *name)
{
    char d[512], p1[600], p2[600];
    scratch(name, d, sizeof d);
    snprintf(p1, sizeof p1, "%s/a.bin", d);
    snprintf(p2, sizeof p2, "%s/b.bin", d);
    fflush(NULL);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        outfile a, b;
        if (outfile_open(&a, p1) || outfile_open(&b, p2))
            _exit(3);
        fputs("partial", a.f);
        raise(sig);
        _exit(4); /* not reached: the signal ends the process */
    }
    int status;
    CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid);
    CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == sig);
    CU_ASSERT_EQUAL(count_temps(d), 0);
    CU_ASSERT(access(p1, F_OK) != 0 && access(p2, F_OK) != 0);
}

static void test_sigterm_removes_temps(void)
{
    signal_case(SIGTERM, "term");
}

static void test_sigint_removes_temps(void)
{
    signal_case(SIGINT, "int");
}

/* A command's own handler (sim record's Ctrl-C) is left in place: set
 * before the process's first outfile_open, it still runs. */
static volatile sig_atomic_t got;
static void mine(int sig)
{
    got = sig;
}

static void test_own_handler_kept(void)
{
    char d[512], p[600];
    scratch("own", d, sizeof d);
    snprintf(p, sizeof p, "%s/a.bin", d);
    fflush(NULL);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        signal(SIGHUP, mine);
        outfile a;
        if (outfile_open(&a, p))
            _exit(3);
        raise(SIGHUP);
        if (got != SIGHUP)
            _exit(5);
        fputs("done", a.f);
        _exit(outfile_commit(&a) == SIM_OK ? 0 : 6);
    }
    int status;
    CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid);
    CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CU_ASSERT_EQUAL(access(p, F_OK), 0);
}

static CU_TestInfo tests[] = {
    /* first: the handlers are taken at the process's first outfile_open,
     * which must happen in this test's child */
    {"a command's own handler is kept", test_own_handler_kept},
    {"a file is replaced, its mode kept", test_replaces_file_keeping_mode},
    {"a symlink is followed, dangling or not", test_symlink_followed},
    {"a directory is refused", test_directory_refused},
    {"an output that is an input is refused", test_output_is_input_refused},
    {"a FIFO is written in place, one output", test_fifo_in_place_one_output},
    {"abort removes the temporary file", test_abort_removes_temp},
    {"finish commits, or aborts on an error", test_finish_commits_or_aborts},
    {"an output written by another program", test_named_output},
    {"a scratch file goes with abort", test_scratch_file},
    {"SIGTERM removes the temporary files", test_sigterm_removes_temps},
    {"SIGINT removes the temporary files", test_sigint_removes_temps},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("outfile", tests)
