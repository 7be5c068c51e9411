/* hostpages: the host's own UTLB fills while it handles an exit
 * (docs/cost-model.md, "UTLB"): the unpinned kvm.ko pages every exit
 * touches, those of the emulation and TLB-map paths, QEMU's and other host
 * tasks' pages during a heavy exit's round trip (between vcpu_put and
 * vcpu_load), and a host interrupt handler's pages. Each miss takes the
 * next round-robin slot of the shared UTLB (model/tlb440), possibly a
 * guest shadow entry.
 *
 * One rule and one set of parameters (common_host_pages, path_host_pages,
 * qemu_host_pages, hostirq_host_pages; model/params.h) for the cycle model
 * (model/cost), which decides with it which guest entries a predicted run
 * loses, and for the cpu440 core, which decides with it which ones a
 * recorded run loses. The caller says when: hostpages_exit as the handler
 * starts (before any shadow map), hostpages_round_trip on a heavy exit,
 * hostpages_irq per host interrupt serviced. */
#ifndef HOSTPAGES_H
#define HOSTPAGES_H

#include <stdbool.h>
#include <stdint.h>

#include "exits.h"
#include "tlb440.h"

#define HOSTPAGES_MAX_KVM 16 /* common_host_pages, path_host_pages: 0..16 */
#define HOSTPAGES_MAX_IRQ 64 /* hostirq_host_pages: 0..64 */
#define HOSTPAGES_MAX_QEMU 64 /* qemu_host_pages: 0..64 */

/* Page sets: a memo per page of the slot it was last filled into and
 * that slot's version then (tlb440_slot_versions), so that a page still
 * there is known without asking the soft TLB. */
typedef struct hostpages_set {
    uint32_t base; /* effective address of the first page */
    unsigned n;
    int hint[HOSTPAGES_MAX_IRQ];
    uint32_t seen[HOSTPAGES_MAX_IRQ];
} hostpages_set;

typedef struct hostpages {
    hostpages_set common, path, irq;
    unsigned qemu;       /* qemu_host_pages */
    unsigned qemu_round; /* round trips so far (the moving window) */
    const uint32_t *ver; /* the soft TLB's slot versions */
} hostpages;

/* The page counts (the parameters common_host_pages, path_host_pages,
 * qemu_host_pages and hostirq_host_pages, within their ranges: assert),
 * the slot versions of t, and the reset state (hostpages_reset). */
void hostpages_init(hostpages *h, unsigned common, unsigned path,
                    unsigned qemu, unsigned irq, const tlb440 *t);
/* Whether counts are within the parameters' ranges. */
bool hostpages_counts_ok(unsigned common, unsigned path, unsigned qemu,
                         unsigned irq);
/* No page is known to be in the UTLB; the QEMU window starts over. Call
 * with the soft TLB's own reset. */
void hostpages_reset(hostpages *h);

/* Whether the exit path of t runs the further kvm.ko pages
 * (path_host_pages): kvmppc_emulate_instruction (EMULINST, EMUL_*, DCR),
 * kvmppc_mmu_map (ITLBVIRT, DTLBVIRT) and the MMIO load/store emulation. */
bool hostpages_on_path(exit_type t);

/* The host misses of the set's pages (0 nearly always: checked without a
 * branch per page). */
unsigned hostpages_touch_slow(hostpages *h, hostpages_set *s, tlb440 *t);
static inline unsigned hostpages_touch(hostpages *h, hostpages_set *s,
                                       tlb440 *t)
{
    uint32_t stale = 0;
    for (unsigned i = 0; i < s->n; i++) /* (a page without a hint is stale) */
        stale |= (uint32_t)(s->hint[i] < 0) |
                 (h->ver[(unsigned)s->hint[i] & (TLB440_MAX - 1)] ^ s->seen[i]);
    if (__builtin_expect(!stale, 1))
        return 0;
    return hostpages_touch_slow(h, s, t);
}

/* QEMU or another host task: n pages of a moving window over many, so each
 * round trip (or preemption) fills fresh UTLB slots. Returns the misses. */
unsigned hostpages_other_task(hostpages *h, tlb440 *t, unsigned n);

/* A heavy exit's round trip to user space: vcpu_put (the guest shadows
 * saved and invalidated; with flush_host, 2.6.28's _tlbia of the host
 * entries instead of the save), qemu_host_pages of QEMU and the host,
 * vcpu_load (the saved shadows written back over what the host filled).
 * Returns the host misses; *put and *load get the entries saved and
 * restored. */
unsigned hostpages_round_trip(hostpages *h, tlb440 *t, bool flush_host,
                              unsigned *put, unsigned *load);

/* The pages the exit's handler touches as it starts: common_host_pages,
 * and path_host_pages on the paths of hostpages_on_path. Returns the
 * misses of each in *common and *path. */
static inline void hostpages_exit(hostpages *h, tlb440 *t, exit_type type,
                                  unsigned *common, unsigned *path)
{
    *common = hostpages_touch(h, &h->common, t);
    *path = hostpages_on_path(type) ? hostpages_touch(h, &h->path, t) : 0;
}

/* One host interrupt handler (a host tick or device interrupt): its
 * hostirq_host_pages. Returns the misses. */
static inline unsigned hostpages_irq(hostpages *h, tlb440 *t)
{
    return hostpages_touch(h, &h->irq, t);
}

#endif
