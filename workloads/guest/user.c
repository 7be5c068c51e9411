/* user: the guest's user space, one multi-call binary linked at 0x10000000
 * (like busybox): init, login, sh, ls and a background job, enough for the
 * seed's "boot, log in as root, run ls, shut down" scenario. */
#include <stdint.h>

#define SYS_EXIT     1
#define SYS_WRITE    2
#define SYS_READ     3
#define SYS_SPAWN    4
#define SYS_WAIT     5
#define SYS_YIELD    6
#define SYS_SLEEP    7
#define SYS_SBRK     8
#define SYS_READDIR  9
#define SYS_POWEROFF 10
#define SYS_GETPID   11
#define SYS_UPTIME   12

enum {
    PROG_INIT,
    PROG_LOGIN,
    PROG_SH,
    PROG_LS,
    PROG_JOB,
    PROG_LOGGER,
    PROG_COMPUTE
};

/* gcc emits calls to these even freestanding */
void *memset(void *d, int c, unsigned long n)
{
    uint8_t *p = d;
    while (n--)
        *p++ = (uint8_t)c;
    return d;
}
void *memcpy(void *d, const void *s, unsigned long n)
{
    uint8_t *p = d;
    const uint8_t *q = s;
    while (n--)
        *p++ = *q++;
    return d;
}

#define UTEXT(n) __attribute__((section(".text.u" #n), noinline))

static long sys(long n, long a, long b)
{
    register long r0 __asm__("r0") = n;
    register long r3 __asm__("r3") = a;
    register long r4 __asm__("r4") = b;
    __asm__ volatile("sc" : "+r"(r3) : "r"(r0), "r"(r4) : "memory", "cr0");
    return r3;
}

static unsigned slen(const char *s)
{
    unsigned n = 0;
    while (s[n])
        n++;
    return n;
}
static void out(const char *s)
{
    sys(SYS_WRITE, (long)s, (long)slen(s));
}
static int seq(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}
static void readline(char *b, unsigned cap)
{
    long n = sys(SYS_READ, (long)b, (long)cap - 1);
    if (n > 0 && b[n - 1] == '\n')
        n--;
    b[n < 0 ? 0 : n] = 0;
}
static int run(int prog)
{
    long pid = sys(SYS_SPAWN, prog, 0);
    return pid < 0 ? -1 : (int)sys(SYS_WAIT, pid, 0);
}

/* moves 8 bytes through an FP register: FP unavailable on first use */
static void fp_copy(void *d, const void *s)
{
    __asm__ volatile("lfd 1,0(%1)\n\tstfd 1,0(%0)"
                     :
                     : "b"(d), "b"(s)
                     : "memory", "fr1");
}

UTEXT(4) static uint32_t crc32(const uint8_t *p, unsigned n, uint32_t c)
{
    c = ~c;
    while (n--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return ~c;
}

static void fmt_u(char *b, unsigned v)
{
    char t[12];
    int i = 0;
    do
        t[i++] = (char)('0' + v % 10);
    while (v /= 10);
    while (i)
        *b++ = t[--i];
    *b = 0;
}

static int compute(uint8_t *a);

/* Boot services (udev, syslogd, cron ... of the seed's Ubuntu boot): each a
 * new process that pages in code spread over several text pages (ITLB
 * misses, first-execution ISIs), dirties heap pages (DTLB misses, dirty-bit
 * DSIs) and reports on the console. */
#define PROG_SERVICE 16
static const char *const k_services[] = {
    "udev",   "syslogd", "klogd", "dbus",   "hal",   "cron",
    "atd",    "sshd",    "acpid", "ntpd",   "cups",  "getty",
    "portmap", "nfs",    "mdadm", "lvm2",   "hdparm", "rsync",
};
#define NSERVICES (sizeof k_services / sizeof k_services[0])

UTEXT(1) static void svc_fill(uint8_t *a, unsigned pages, unsigned k)
{
    for (unsigned i = 0; i < pages; i++)
        for (unsigned j = 0; j < 4096; j += 512)
            a[i * 4096 + j] = (uint8_t)(i + j + k);
}

UTEXT(2) static uint32_t svc_sum(const uint8_t *a, unsigned pages)
{
    uint32_t c = 0;
    for (unsigned i = 0; i < pages; i++)
        c = crc32(a + i * 4096, 128, c);
    return c;
}

UTEXT(3) static int service(unsigned k)
{
    const unsigned pages = 4 + k % 5;
    uint8_t *a = (uint8_t *)sys(SYS_SBRK, (long)pages * 4096, 0);
    svc_fill(a, pages, k);
    uint32_t c = svc_sum(a, pages);
    char m[64] = " * Starting ";
    unsigned l = slen(m);
    for (const char *p = k_services[k % NSERVICES]; *p; p++)
        m[l++] = *p;
    m[l] = 0;
    out(m);
    out(c ? "   [ OK ]\n" : "   [fail]\n");
    return 0;
}

static int init(uint32_t arg)
{
    out("init: version 2.86 booting\n");
    if (arg == 1) { /* the compute scenario: the job's work, no syscalls */
        uint8_t *a = (uint8_t *)sys(SYS_SBRK, 24 * 4096, 0);
        compute(a);
        sys(SYS_POWEROFF, 0, 0);
    }
    for (unsigned k = 0; k < NSERVICES; k++)
        run(PROG_SERVICE + (int)k);
    long job = sys(SYS_SPAWN, PROG_JOB, 0);
    long logger = sys(SYS_SPAWN, PROG_LOGGER, 0);
    while (run(PROG_LOGIN) != 0)
        ;
    run(PROG_SH);
    out("init: switching to runlevel 0\n");
    sys(SYS_WAIT, job, 0);
    sys(SYS_WAIT, logger, 0);
    out("The system is going down for power off NOW!\n");
    sys(SYS_POWEROFF, 0, 0);
    return 0;
}

static int login(void)
{
    char b[64];
    out("\nUbuntu 9.04 sim440 ttyS0\n\nsim440 login: ");
    readline(b, sizeof b);
    if (!seq(b, "root")) {
        out("Login incorrect\n");
        return 1;
    }
    out("Linux sim440 2.6.30 #1 ppc\n\nThe programs included with the "
        "system are free software.\n");
    return 0;
}

static int sh(void)
{
    char b[64];
    for (;;) {
        out("root@sim440:~# ");
        readline(b, sizeof b);
        if (seq(b, "ls"))
            run(PROG_LS);
        else if (seq(b, "halt") || seq(b, "exit"))
            return 0;
        else if (b[0]) {
            out(b);
            out(": command not found\n");
        }
    }
}

static int ls(void)
{
    /* a heap buffer for the listing (demand-paged, dirtied) */
    char *buf = (char *)sys(SYS_SBRK, 3 * 4096, 0);
    unsigned n = 0;
    double stamp = 0;
    for (long i = 0;; i++) {
        long l = sys(SYS_READDIR, i, (long)(buf + n));
        if (l < 0)
            break;
        n += (unsigned)l;
        buf[n++] = (i % 6 == 5) ? '\n' : ' ';
        fp_copy(&stamp, buf + (n & ~7u) - 8 * (n >= 8));
    }
    buf[n++] = '\n';
    sys(SYS_WRITE, (long)buf, (long)n);
    return 0;
}

/* Background jobs (an updatedb-like checksummer and a logger): each round
 * dirties `pages` heap pages, checksums a little, yields; now and then
 * sleeps a tick. Two of them keep the scheduler switching address spaces
 * and the guest TLB full. */
UTEXT(5) static int job(int logger)
{
    const unsigned pages = logger ? 4 : 6, rounds = logger ? 2700 : 2100;
    uint8_t *a = (uint8_t *)sys(SYS_SBRK, (long)pages * 4096, 0);
    uint32_t c = 0;
    double acc = 0;
    for (unsigned r = 0; r < rounds; r++) {
        for (unsigned i = 0; i < pages; i++)
            a[i * 4096 + (r & 1023)] = (uint8_t)(r + i);
        c = crc32(a + (r % pages) * 4096 + (r & 7) * 512, 256, c);
        if (r % 16 == 0)
            fp_copy(&acc, &c);
        if (logger && r % 256 == 0) {
            char m[48] = "logger: tick ";
            fmt_u(m + slen(m), (unsigned)sys(SYS_UPTIME, 0, 0));
            unsigned l = slen(m);
            m[l] = '\n';
            m[l + 1] = 0;
            out(m);
        }
        if (r % 32 == 31)
            sys(SYS_SLEEP, 1, 0);
        else if (r % 2)
            sys(SYS_YIELD, 0, 0);
    }
    char m[40] = "job: done, crc ";
    fmt_u(m + slen(m), c);
    unsigned l = slen(m);
    m[l] = '\n';
    m[l + 1] = 0;
    out(m);
    return 0;
}

/* The job's work without syscalls: bench/cpu440_plain.c runs it on plain
 * Unicorn (no hooks) as the hook-free reference rate. */
static int compute(uint8_t *a)
{
    uint32_t c = 0;
    for (unsigned r = 0; r < 20000; r++) {
        for (unsigned i = 0; i < 24; i++)
            a[i * 4096 + (r & 1023)] = (uint8_t)(r + i);
        c = crc32(a + (r % 24) * 4096 + (r & 7) * 512, 256, c);
    }
    return (int)c;
}

int umain(int prog, uint8_t *arg)
{
    switch (prog) {
    case PROG_INIT: return init((uint32_t)(uintptr_t)arg);
    case PROG_LOGIN: return login();
    case PROG_SH: return sh();
    case PROG_LS: return ls();
    case PROG_JOB: return job(0);
    case PROG_COMPUTE: return compute(arg);
    case PROG_LOGGER: return job(1);
    default: return service((unsigned)prog - PROG_SERVICE);
    }
}
