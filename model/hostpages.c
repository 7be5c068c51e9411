/* hostpages: the host's own UTLB fills during an exit, one rule for the
 * cycle model and the cpu440 core (docs/cost-model.md, "UTLB"). */
#include "hostpages.h"

#include <assert.h>
#include <stddef.h>

/* Where the pages are: kvm.ko text/data in vmalloc space (the common pages,
 * the path pages and the interrupt handlers' pages in three 64 KiB blocks),
 * QEMU and the other host tasks in user space, a window of QEMU_SPAN
 * pages. */
#define PAGE_COMMON 0xd1000000u
#define PAGE_PATH   0xd1010000u
#define PAGE_IRQ    0xd1020000u
#define PAGE_QEMU   0x10000000u
#define QEMU_SPAN   512u

static void set_init(hostpages_set *s, uint32_t base, unsigned n)
{
    s->base = base;
    s->n = n;
}

bool hostpages_counts_ok(unsigned common, unsigned path, unsigned qemu,
                         unsigned irq)
{
    return common <= HOSTPAGES_MAX_KVM && path <= HOSTPAGES_MAX_KVM &&
           qemu <= HOSTPAGES_MAX_QEMU && irq <= HOSTPAGES_MAX_IRQ;
}

void hostpages_init(hostpages *h, unsigned common, unsigned path,
                    unsigned qemu, unsigned irq, const tlb440 *t)
{
    assert(hostpages_counts_ok(common, path, qemu, irq));
    set_init(&h->common, PAGE_COMMON, common);
    set_init(&h->path, PAGE_PATH, path);
    set_init(&h->irq, PAGE_IRQ, irq);
    h->qemu = qemu;
    h->ver = tlb440_slot_versions(t);
    hostpages_reset(h);
}

static void set_reset(hostpages_set *s)
{
    for (unsigned i = 0; i < HOSTPAGES_MAX_IRQ; i++) {
        s->hint[i] = -1;
        s->seen[i] = 0;
    }
}

void hostpages_reset(hostpages *h)
{
    set_reset(&h->common);
    set_reset(&h->path);
    set_reset(&h->irq);
    h->qemu_round = 0;
}

bool hostpages_on_path(exit_type t)
{
    return exit_is_emul(t) || t == EXIT_EMULINST || t == EXIT_DCR ||
           t == EXIT_ITLBVIRT || t == EXIT_DTLBVIRT || t == EXIT_MMIO;
}

unsigned hostpages_touch_slow(hostpages *h, hostpages_set *s, tlb440 *t)
{
    unsigned misses = 0;
    for (unsigned i = 0; i < s->n; i++) {
        if (s->hint[i] >= 0 && h->ver[s->hint[i]] == s->seen[i])
            continue;
        misses += tlb440_host_access(t, s->base + i * 4096u, &s->hint[i]);
        if (s->hint[i] >= 0) /* (a pinned page has no slot) */
            s->seen[i] = h->ver[s->hint[i]];
    }
    return misses;
}

unsigned hostpages_other_task(hostpages *h, tlb440 *t, unsigned n)
{
    unsigned misses = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned k = (h->qemu_round * 13u + i) % QEMU_SPAN;
        misses += tlb440_host_access(t, PAGE_QEMU + k * 4096u, NULL);
    }
    h->qemu_round++;
    return misses;
}

unsigned hostpages_round_trip(hostpages *h, tlb440 *t, bool flush_host,
                              unsigned *put, unsigned *load)
{
    *put = tlb440_vcpu_put(t);
    if (flush_host) { /* 2.6.28: _tlbia, shadow_tlb[] kept in memory */
        tlb440_flush_host(t);
        *put = 0;
    }
    unsigned misses = hostpages_other_task(h, t, h->qemu);
    *load = tlb440_vcpu_load(t);
    return misses;
}
