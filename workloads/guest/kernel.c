/* kernel: a small guest kernel that behaves like Linux on 44x where KVM
 * exits come from (arch/powerpc/kernel/{head_44x.S, entry_32.S, time.c},
 * mm/44x_mmu.c, fault.c; drivers/tty/serial/8250, sysdev/uic.c): periodic
 * decrementer tick, syscalls, user processes with their own PID (context
 * switches by mtspr PID), demand paging with dirty/exec faults, a console
 * on the UART with UIC interrupts, lazy FP, an idle loop that waits with
 * MSR[WE]. Built twice: native and -DPV (magic page, ppc.h). */
#include <stddef.h>
#include <stdint.h>

#include "ppc.h"

#define KERNEL_BASE 0xc0000000u
#define UART        ((volatile uint8_t *)0xef600000u)
#define USER_BASE   0x10000000u
#define USER_PAGES  256 /* 1 MB of user space per process */
#define STACK_TOP   (USER_BASE + USER_PAGES * 4096u)
#define HZ          100
#define TB_HZ       667000000u
#define NPROC       12

/* page table entries */
#define PTE_P 1u
#define PTE_W 2u  /* writable by the process */
#define PTE_D 4u  /* dirty: the TLB entry carries write permission */
#define PTE_X 8u  /* exec ok: the TLB entry carries execute permission */
#define PTE_T 16u /* text */

/* Linux's exit-heavy paths are spread over many code pages (entry, syscall
 * table, scheduler, mm, drivers, printk ...): each hot path here gets its
 * own page so the guest kernel's instruction footprint, and so the
 * ITLBVIRT misses after shadow evictions, resemble a real kernel's. */
#define TEXT_PAGE(n) __attribute__((section(".text.page" #n), noinline))

struct frame {
    uint32_t gpr[32];
    uint32_t cr, lr, ctr, xer, srr0, srr1;
};

enum { P_FREE, P_RUN, P_READ, P_WAIT, P_SLEEP, P_ZOMBIE };

struct proc {
    int state;
    uint32_t pid;
    uint32_t ksp, ktop;
    uint32_t *pgtab;
    int prog;
    int code;
    uint32_t waitpid;
    uint32_t wake;
    uint32_t brk;
    uint64_t fpr[4];
};

/* shared with start.S */
uint32_t *cur_pgtab;
uint32_t tlb_next = 1;
extern uint32_t tlb_save[6];
extern const uint8_t user_image[], user_image_end[];
void switch_to(uint32_t *prev_ksp, uint32_t next_ksp);
void ret_from_fork(void);

static struct proc procs[NPROC];
static struct proc *cur = &procs[0];
static struct proc *fp_owner;
static uint32_t next_pid = 1;
static volatile uint32_t jiffies;
static int need_resched;
static uint32_t page_next = 0x00200000u; /* physical pages from 2 MB */
static char line[256];
static volatile unsigned line_len, line_ready;

void *memset(void *d, int c, size_t n)
{
    uint8_t *p = d;
    while (n--)
        *p++ = (uint8_t)c;
    return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
    uint8_t *p = d;
    const uint8_t *q = s;
    if ((((uintptr_t)p | (uintptr_t)q) & 3) == 0) /* word copies */
        for (; n >= 4; n -= 4, p += 4, q += 4)
            *(uint32_t *)p = *(const uint32_t *)q;
    while (n--)
        *p++ = *q++;
    return d;
}

/* clear_page (misc_32.S): dcbz a cache line (32 bytes) at a time */
static void clear_page(void *page)
{
    for (unsigned i = 0; i < 4096; i += 32)
        __asm__ volatile("dcbz 0,%0" : : "r"((uint8_t *)page + i) : "memory");
}

/* ---- console (8250 polled output, interrupt-driven input) ---- */
TEXT_PAGE(1) static void putc_uart(char c)
{
    while (!(UART[5] & 0x20))
        ;
    UART[0] = (uint8_t)c;
}

static void puts_k(const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            putc_uart('\r');
        putc_uart(*s);
    }
}

static void putu(uint32_t v, unsigned base)
{
    char b[12];
    int i = 0;
    do {
        b[i++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    while (i)
        putc_uart(b[--i]);
}

/* printk with %s %u %x */
TEXT_PAGE(1) static void printk(const char *f, ...)
{
    __builtin_va_list ap;
    __builtin_va_start(ap, f);
    puts_k("[");
    putu(jiffies, 10);
    puts_k("] ");
    for (; *f; f++) {
        if (*f != '%') {
            if (*f == '\n')
                putc_uart('\r');
            putc_uart(*f);
            continue;
        }
        f++;
        if (*f == 's')
            puts_k(__builtin_va_arg(ap, const char *));
        else if (*f == 'u')
            putu(__builtin_va_arg(ap, uint32_t), 10);
        else if (*f == 'x')
            putu(__builtin_va_arg(ap, uint32_t), 16);
    }
    __builtin_va_end(ap);
}

TEXT_PAGE(2) static void uart_rx(void)
{
    while (UART[5] & 0x01) {
        char c = (char)UART[0];
        if (c == '\r')
            c = '\n';
        if (line_len < sizeof line - 1)
            line[line_len++] = c;
        putc_uart(c); /* echo */
        if (c == '\n')
            line_ready++;
    }
}

/* ---- memory ---- */
static void *kva(uint32_t pa)
{
    return (void *)(pa + KERNEL_BASE);
}

TEXT_PAGE(3) static uint32_t page_alloc(void)
{
    uint32_t pa = page_next;
    page_next += 4096;
    if (page_next > 0x00f00000u) {
        printk("out of memory\n");
        mtdcr(DCR_POWEROFF, 1);
    }
    clear_page(kva(pa));
    return pa;
}

/* _tlbil_va: drop the guest TLB entry of ea for the current PID */
TEXT_PAGE(3) static void tlb_invalidate(uint32_t ea)
{
    uint32_t idx, cr;
    mtspr_native(SPRN_MMUCR, cur->pid);
    __asm__ volatile("tlbsx. %0,0,%2\n\tmfcr %1"
                     : "=r"(idx), "=r"(cr)
                     : "r"(ea)
                     : "cr0");
    if (cr & 0x20000000u)
        __asm__ volatile("tlbwe %0,%1,0" : : "r"(0), "r"(idx) : "memory");
    tlbsync();
}

/* user image header: b _ustart; text_end; data_end; bss_end */
static uint32_t img_word(unsigned i)
{
    return ((const uint32_t *)user_image)[i];
}

static void kill(struct frame *f, const char *why, uint32_t ea);

/* demand paging: text copied on first touch (exec enabled by the first
 * ISI), data copied (dirty on the first write, a DSI), the rest zero */
TEXT_PAGE(3) static int page_fault(uint32_t ea, int exec)
{
    if (ea < USER_BASE || ea >= STACK_TOP)
        return -1;
    unsigned vpn = (ea - USER_BASE) >> 12;
    uint32_t text_end = img_word(1), data_end = img_word(2);
    uint32_t page = ea & ~0xfffu;
    uint32_t *pte = &cur->pgtab[vpn];
    if (*pte & PTE_P)
        return 0;
    if (exec && page >= text_end)
        return -1;
    if (!(page < cur->brk || page >= STACK_TOP - 64 * 4096u))
        return -1;
    uint32_t pa = page_alloc();
    if (page < data_end) {
        uint32_t off = page - USER_BASE;
        uint32_t len = (uint32_t)(user_image_end - user_image) - off;
        memcpy(kva(pa), user_image + off, len > 4096 ? 4096 : len);
    }
    *pte = pa | PTE_P | (page < text_end ? PTE_T : PTE_W);
    return 0;
}

/* ---- processes ---- */
static struct proc *spawn(int prog)
{
    struct proc *p = NULL;
    for (int i = 1; i < NPROC; i++)
        if (procs[i].state == P_FREE) {
            p = &procs[i];
            break;
        }
    if (!p)
        return NULL;
    memset(p, 0, sizeof *p);
    p->pid = next_pid++;
    p->prog = prog;
    p->pgtab = kva(page_alloc());
    uint32_t ks = page_alloc();
    page_alloc(); /* 8 KB kernel stack */
    p->ktop = (uint32_t)kva(ks) + 8192;
    p->brk = (img_word(3) + 4095) & ~4095u;
    /* the first switch_to returns into ret_from_fork -> exc_return, which
     * "returns" to user mode at the image's entry */
    struct frame *f = (struct frame *)(p->ktop - 176 + 16);
    memset(f, 0, sizeof *f);
    f->srr0 = USER_BASE;
    f->srr1 = MSR_PR | MSR_EE | MSR_ME;
    f->gpr[1] = STACK_TOP - 16;
    f->gpr[3] = (uint32_t)prog;
    /* init gets the boot argument (the host's scenario choice) */
    f->gpr[4] = *(volatile uint32_t *)(KERNEL_BASE + 0x80);
    uint32_t *sw = (uint32_t *)(p->ktop - 176 - 96);
    memset(sw, 0, 96);
    sw[2] = (uint32_t)ret_from_fork;
    p->ksp = (uint32_t)sw;
    p->state = P_RUN;
    return p;
}

TEXT_PAGE(4) static struct proc *pick(void)
{
    int start = (int)(cur - procs);
    for (int k = 1; k <= NPROC; k++) {
        struct proc *p = &procs[(start + k) % NPROC];
        if (p != &procs[0] && p->state == P_RUN)
            return p;
    }
    return &procs[0];
}

TEXT_PAGE(4) static void schedule(void)
{
    struct proc *prev = cur, *next = pick();
    need_resched = 0;
    if (next == prev)
        return;
    cur = next;
    if (next->pid) {
        /* a new address space: KVM releases the guest-user shadows */
        mtspr(SPRN_PID, next->pid);
        mtspr(SPRN_SPRG2, next->ktop);
        cur_pgtab = next->pgtab;
    }
    switch_to(&prev->ksp, next->ksp);
}

TEXT_PAGE(4) static void sleep_on(int state)
{
    cur->state = state;
    schedule();
}

TEXT_PAGE(4) static void wake_all(int state)
{
    for (int i = 1; i < NPROC; i++)
        if (procs[i].state == state)
            procs[i].state = P_RUN;
}

TEXT_PAGE(4) static void do_exit(int code)
{
    cur->code = code;
    cur->state = P_ZOMBIE;
    if (fp_owner == cur)
        fp_owner = NULL;
    for (int i = 1; i < NPROC; i++)
        if (procs[i].state == P_WAIT && procs[i].waitpid == cur->pid)
            procs[i].state = P_RUN;
    schedule();
}

static void kill(struct frame *f, const char *why, uint32_t ea)
{
    printk("pid %u: %s at %x (pc %x), killed\n", cur->pid, why, ea, f->srr0);
    do_exit(-1);
}

/* ---- syscalls ---- */
static const char *const k_files[] = {
    "bin", "boot", "dev",  "etc",  "home",    "lib",        "media",
    "mnt", "opt",  "proc", "root", "run",     "sbin",       "srv",
    "sys", "tmp",  "usr",  "var",  "vmlinux", "initrd.img",
};

TEXT_PAGE(5) static uint32_t do_syscall(struct frame *f)
{
    uint32_t a = f->gpr[3], b = f->gpr[4];
    irq_enable(); /* syscalls run with interrupts on */
    switch (f->gpr[0]) {
    case 1: do_exit((int)a); return 0;
    case 2: { /* write(buf, len) */
        const char *s = (const char *)a;
        for (uint32_t i = 0; i < b; i++) {
            if (s[i] == '\n')
                putc_uart('\r');
            putc_uart(s[i]);
        }
        return b;
    }
    case 3: { /* read(buf, len): one line */
        irq_disable();
        while (!line_ready) {
            cur->state = P_READ;
            schedule();
            irq_disable();
        }
        unsigned n = 0;
        while (n < line_len && line[n] != '\n')
            n++;
        n++;
        char *d = (char *)a;
        for (unsigned i = 0; i < n && i < b; i++)
            d[i] = line[i];
        for (unsigned i = n; i < line_len; i++)
            line[i - n] = line[i];
        line_len -= n;
        line_ready--;
        irq_enable();
        return n < b ? n : b;
    }
    case 4: { /* spawn(prog) */
        struct proc *p = spawn((int)a);
        return p ? p->pid : (uint32_t)-1;
    }
    case 5: { /* wait(pid) */
        for (;;) {
            for (int i = 1; i < NPROC; i++)
                if (procs[i].pid == a && procs[i].state == P_ZOMBIE) {
                    procs[i].state = P_FREE;
                    return (uint32_t)procs[i].code;
                }
            cur->waitpid = a;
            sleep_on(P_WAIT);
        }
    }
    case 6: /* yield */ schedule(); return 0;
    case 7: /* sleep(ticks) */
        cur->wake = jiffies + a;
        sleep_on(P_SLEEP);
        return 0;
    case 8: { /* sbrk(n) */
        uint32_t old = cur->brk;
        cur->brk = (cur->brk + a + 4095) & ~4095u;
        return old;
    }
    case 9: /* readdir(i, buf): name length or -1 */
        if (a >= sizeof k_files / sizeof k_files[0])
            return (uint32_t)-1;
        {
            const char *s = k_files[a];
            char *d = (char *)b;
            uint32_t n = 0;
            while ((d[n] = s[n]))
                n++;
            return n;
        }
    case 10: /* poweroff */
        printk("reboot: Power down\n");
        mtdcr(DCR_POWEROFF, 1);
        return 0;
    case 11: return cur->pid;
    case 12: return jiffies;
    default: return (uint32_t)-1;
    }
}

/* ---- interrupts ---- */
TEXT_PAGE(6) static void timer_tick(void)
{
    mtspr(SPRN_TSR, TSR_DIS);
    mtspr(SPRN_DEC, TB_HZ / HZ);
    jiffies++;
    for (int i = 1; i < NPROC; i++)
        if (procs[i].state == P_SLEEP &&
            (int32_t)(jiffies - procs[i].wake) >= 0)
            procs[i].state = P_RUN;
    need_resched = 1;
}

TEXT_PAGE(7) static void external(void)
{
    uint32_t m = mfdcr(DCR_UIC0_MSR);
    if (m & UIC_UART) {
        uart_rx();
        if (line_ready)
            wake_all(P_READ);
    }
    mtdcr(DCR_UIC0_SR, m);
}

/* lazy FP (fpu.S / traps.c kernel_fp_unavailable): the last user's
 * registers are saved and this process's loaded with MSR[FP] on */
TEXT_PAGE(8) static void fp_unavailable(struct frame *f)
{
    uint32_t msr = mfmsr();
    mtmsr(msr | MSR_FP);
    if (fp_owner && fp_owner != cur) {
        __asm__ volatile("stfd 1,0(%0)\n\tstfd 2,8(%0)"
                         :
                         : "b"(fp_owner->fpr)
                         : "memory");
        struct frame *of = (struct frame *)(fp_owner->ktop - 176 + 16);
        of->srr1 &= ~MSR_FP;
    }
    __asm__ volatile("lfd 1,0(%0)\n\tlfd 2,8(%0)" : : "b"(cur->fpr));
    mtmsr(msr);
    fp_owner = cur;
    f->srr1 |= MSR_FP;
}

TEXT_PAGE(9) void exc_dispatch(unsigned vec, struct frame *f)
{
    int user = (f->srr1 & MSR_PR) != 0;
    f->srr1 &= ~MSR_WE; /* woken from the idle wait */
    switch (vec) {
    case 8: f->gpr[3] = do_syscall(f); break;
    case 10: timer_tick(); break;
    case 4: external(); break;
    case 13:
    case 14: {
        uint32_t ea = tlb_save[2];
        if (page_fault(ea, vec == 14) < 0)
            kill(f, "segfault", ea);
        break;
    }
    case 2: { /* DSI: a write to a clean page makes it dirty */
        uint32_t ea = mfspr(SPRN_DEAR);
        uint32_t esr = mfspr(SPRN_ESR);
        uint32_t *pte = &cur->pgtab[((ea - USER_BASE) >> 12) & 0xff];
        /* user pages, written by the process or by the kernel for it */
        if (ea >= USER_BASE && ea < STACK_TOP && (esr & 0x00800000u) &&
            (*pte & PTE_W)) {
            *pte |= PTE_D;
            tlb_invalidate(ea);
        } else {
            kill(f, "protection fault", ea);
        }
        break;
    }
    case 3: { /* ISI: first execution of a text page (icache flush) */
        uint32_t ea = f->srr0;
        uint32_t *pte = &cur->pgtab[((ea - USER_BASE) >> 12) & 0xff];
        if (user && (*pte & PTE_T)) {
            __asm__ volatile("iccci 0,0" : : : "memory");
            *pte |= PTE_X;
            tlb_invalidate(ea);
        } else {
            kill(f, "exec fault", ea);
        }
        break;
    }
    case 7: fp_unavailable(f); break;
    default: kill(f, "program check", f->srr0); break;
    }
    if (user && need_resched)
        schedule();
}

/* ---- microbenchmark output: "name cycles-per-iteration iterations" ---- */
void microbench(void);
void microbench_print(const char *name, uint32_t iters, uint32_t delta,
                      int refused)
{
    if (refused)
        printk("%s refused: timebase delta %x after %u iterations is not "
               "positive, no cycle count can be derived\n",
               name, delta, iters);
    else
        printk("%s %u %u\n", name, delta / iters, iters);
}

/* ---- boot ---- */
static const char *const k_boot_msgs[] = {
    "Linux version 2.6.30-sim440 (gcc 12.2.0) #1\n",
    "Using PowerPC 44x Platform machine description\n",
    "Zone PFN ranges: DMA 0x00000000 -> 0x00002000\n",
    "Kernel command line: root=/dev/vda console=ttyS0\n",
    "UIC0 (32 IRQ sources) at DCR 0xc0\n",
    "time_init: decrementer frequency = 667.000000 MHz\n",
    "Console: colour dummy device 80x25\n",
    "Dentry cache hash table entries: 4096 (order: 2, 16384 bytes)\n",
    "Memory: 29568k/32768k available (1928k kernel code)\n",
    "Mount-cache hash table entries: 512\n",
    "NET: Registered protocol family 16\n",
    "Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled\n",
    "serial8250.0: ttyS0 at MMIO 0x1ef600000 (irq = 16) is a 16550A\n",
    "brd: module loaded\n",
    "TCP cubic registered\n",
    "VFS: Mounted root (ext2 filesystem) readonly.\n",
    "Freeing unused kernel memory: 128k init\n",
};

void kmain(void)
{
    /* IVORs (each one an exit, as in head_44x.S) */
    for (unsigned i = 0; i < 16; i++)
        switch (i) {
#define IVOR(n)                                                                \
    case n: mtspr_native(SPRN_IVOR0 + n, 0x1000 + 0x100 * n); break;
            IVOR(0)
            IVOR(1) IVOR(2) IVOR(3) IVOR(4) IVOR(5) IVOR(6) IVOR(7) IVOR(8)
                IVOR(9) IVOR(10) IVOR(11) IVOR(12) IVOR(13) IVOR(14) IVOR(15)
        }
    mtspr_native(SPRN_CCR0, 0x00208000u);
    for (unsigned i = 0; i < sizeof k_boot_msgs / sizeof k_boot_msgs[0]; i++)
        printk("%s", k_boot_msgs[i]);
    /* UIC: everything level, UART on input 0 */
    mtdcr(DCR_UIC0_SR, 0xffffffffu);
    mtdcr(DCR_UIC0_CR, 0);
    mtdcr(DCR_UIC0_PR, 0xffffffffu);
    mtdcr(DCR_UIC0_TR, 0);
    mtdcr(DCR_UIC0_VCR, 0);
    mtdcr(DCR_UIC0_ER, UIC_UART);
    UART[3] = 0x03; /* 8N1 */
    UART[1] = 0x01; /* RX interrupt */
#ifdef MICROBENCH
    microbench();
    mtdcr(DCR_POWEROFF, 1);
#endif
    /* decrementer tick */
    mtspr(SPRN_TCR, TCR_DIE);
    mtspr(SPRN_DEC, TB_HZ / HZ);
    procs[0].state = P_RUN;
    mtspr(SPRN_SPRG2, 0);
    spawn(0); /* init */
    irq_enable();
    printk("Run /sbin/init as init process\n");
    /* the idle task (cpu_idle / ppc44x_idle) */
    for (;;) {
        irq_disable();
        int any = 0;
        for (int i = 1; i < NPROC; i++)
            any |= procs[i].state == P_RUN;
        if (any) {
            irq_enable();
            schedule();
            continue;
        }
        mtmsr(mfmsr() | MSR_WE | MSR_EE);
    }
}
