/*
 * init of the sim440 Linux guest (issue 6): the first and only user
 * program. No libc: glibc's startup runs FP instructions (setjmp's stfd)
 * and the simulator's core has no FPU, so this program is built soft-float,
 * -nostdlib, and talks to the kernel with raw `sc` system calls.
 *
 * It prints a banner, lists / with getdents64 and powers the machine off;
 * the QEMU oracle (qemu-oracle.sh) and cpu440 look for exactly these lines:
 *   "sim440 init: hello"            the banner
 *   "sim440 init: ls / ..."         the listing, one name a line
 *   "sim440 init: power off"        just before reboot(POWER_OFF)
 */

/* PowerPC 32-bit system call numbers (arch/powerpc/kernel/syscalls/syscall.tbl) */
#define NR_write 4
#define NR_open 5
#define NR_close 6
#define NR_sync 36
#define NR_reboot 88
#define NR_getdents64 202

#define O_RDONLY 0
#define O_DIRECTORY 040000 /* PowerPC's value, not the generic 0200000 */

#define REBOOT_MAGIC1 0xfee1dead
#define REBOOT_MAGIC2 672274793
#define REBOOT_CMD_POWER_OFF 0x4321fedc

/* A system call: r0 = number, r3..r5 = arguments; the kernel returns the
 * result in r3 and sets CR0[SO] on error (then r3 is a positive errno,
 * negated here). r0, r4-r12, CTR, XER and CR0 are not preserved. */
static long sys3(long nr, long a, long b, long c)
{
	register long r0 __asm__("r0") = nr;
	register long r3 __asm__("r3") = a;
	register long r4 __asm__("r4") = b;
	register long r5 __asm__("r5") = c;
	__asm__ volatile("sc\n\t"
			 "bns+ 1f\n\t"
			 "neg %1, %1\n"
			 "1:"
			 : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5)
			 :
			 : "r6", "r7", "r8", "r9", "r10", "r11", "r12", "ctr", "xer",
			   "cr0", "memory");
	return r3;
}

static long sys4(long nr, long a, long b, long c, long d)
{
	register long r0 __asm__("r0") = nr;
	register long r3 __asm__("r3") = a;
	register long r4 __asm__("r4") = b;
	register long r5 __asm__("r5") = c;
	register long r6 __asm__("r6") = d;
	__asm__ volatile("sc\n\t"
			 "bns+ 1f\n\t"
			 "neg %1, %1\n"
			 "1:"
			 : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5), "+r"(r6)
			 :
			 : "r7", "r8", "r9", "r10", "r11", "r12", "ctr", "xer", "cr0",
			   "memory");
	return r3;
}

static unsigned long len(const char *s)
{
	unsigned long n = 0;
	while (s[n])
		n++;
	return n;
}

static void put(const char *s)
{
	sys3(NR_write, 1, (long)s, (long)len(s));
}

/* Decimal, for counts and error numbers: no printf here. */
static void put_num(long v)
{
	char buf[24];
	int i = sizeof buf - 1;
	int neg = v < 0;
	unsigned long u = neg ? 0ul - (unsigned long)v : (unsigned long)v;
	buf[i] = 0;
	do {
		buf[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (neg)
		buf[--i] = '-';
	put(buf + i);
}

/* struct linux_dirent64 */
struct dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};
#define DT_DIR 4

/* The whole listing of a tiny initramfs fits in one call; the loop is
 * there for a larger one. */
static char dirbuf[1024] __attribute__((aligned(8)));

static void list_root(void)
{
	long fd = sys3(NR_open, (long)"/", O_RDONLY | O_DIRECTORY, 0);
	long n, entries = 0;
	if (fd < 0) {
		put("sim440 init: open / failed: ");
		put_num(fd);
		put("\n");
		return;
	}
	put("sim440 init: ls /\n");
	while ((n = sys3(NR_getdents64, fd, (long)dirbuf, sizeof dirbuf)) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(dirbuf + off);
			put("  ");
			put(d->d_name);
			put(d->d_type == DT_DIR ? "/\n" : "\n");
			entries++;
			off += d->d_reclen;
		}
	}
	if (n < 0) {
		put("sim440 init: getdents64 failed: ");
		put_num(n);
		put("\n");
	}
	sys3(NR_close, fd, 0, 0);
	put("sim440 init: ls / done, ");
	put_num(entries);
	put(" entries\n");
}

void _start(void) __attribute__((noreturn));
void _start(void)
{
	put("sim440 init: hello from a libc-free init\n");
	list_root();
	put("sim440 init: power off\n");
	sys3(NR_sync, 0, 0, 0);
	long r = sys4(NR_reboot, (long)REBOOT_MAGIC1, REBOOT_MAGIC2, REBOOT_CMD_POWER_OFF, 0);
	/* Only on failure: init must never exit (the kernel would panic). */
	put("sim440 init: reboot failed: ");
	put_num(r);
	put("\n");
	for (;;)
		;
}
