/* tlb440: the soft TLB of KVM on the 440 (2.6.29+ semantics, reference
 * docs/kvm440.md §3; kernel 44x_tlb.c, head_44x.S): the guest's
 * 64-entry software TLB, the 64-slot hardware UTLB shared by guest shadow
 * entries and host entries through one round-robin victim index
 * (tlb_44x_index, wrapping above tlb_44x_hwater, pinned host slots above it),
 * and the shadow references KVM keeps per slot.
 *
 * Shared by the cost model (model/cost) and the cpu440 core, which asks it to
 * classify its guest's TLB misses (VIRT / REAL / MMIO) and to map shadows.
 * All entry layouts are model/tlbword.h. No allocation after tlb440_new. */
#ifndef TLB440_H
#define TLB440_H

#include <stdbool.h>
#include <stdint.h>

#include "sim_err.h"

/* Array bounds: the guest TLB (kvm's guest_tlb[64]) and the UTLB (64 on
 * the 440; up to 128 only as a what-if, tlb-slots). */
#define TLB440_GUEST_MAX 64
#define TLB440_MAX 128

typedef struct tlb440 tlb440;

typedef struct tlb440_config {
    unsigned gtlb_entries;    /* guest TLB entries, 1..64 (kernel: 64) */
    unsigned utlb_entries;    /* hardware UTLB slots, 8..128 (440: 64) */
    unsigned utlb_pinned;     /* pinned host slots at the top, >= 1 */
    uint64_t guest_ram_bytes; /* real addresses below are RAM, above MMIO */
    /* What-if (not KVM/440's behaviour): a guest user page (TID != 0)
     * mapped while the guest is in supervisor mode keeps its own user
     * permissions beside the supervisor ones turned into user ones. Its
     * shadow entry (TID 0) serves both guest modes, and KVM/440 gave it
     * the supervisor permissions only: a guest that clears SX on user
     * pages (Linux's KUEP) then fetches from a non-executable shadow. */
    bool union_user_perms;
} tlb440_config;

/* One TLB entry: TID plus the three words (tlbword.h). */
typedef struct tlb440_entry {
    uint32_t tid, w0, w1, w2;
} tlb440_entry;

/* What fills/evictions did, for costs and tests. Monotonic counters. */
typedef struct tlb440_stats {
    uint64_t host_fills;         /* host TLB misses that took a slot */
    uint64_t host_evicted_guest; /* ... whose victim held a guest shadow */
    uint64_t maps;               /* kvmppc_mmu_map calls */
    uint64_t map_evicted_host;   /* ... whose victim held a host entry */
    uint64_t releases;           /* shadow references released */
    uint64_t puts, put_entries;  /* vcpu_put calls, shadow entries saved */
    uint64_t loads, load_entries;
} tlb440_stats;

/* Allocates and resets (tlb440_reset). SIM_ERR_RANGE if the geometry is
 * outside the limits above. */
SIM_MUST_CHECK sim_err tlb440_new(tlb440 **t, const tlb440_config *c);
void tlb440_free(tlb440 *t);

/* Guest reset state (kvmppc_core_vcpu_setup): guest entry 0 = 16 MB at 0,
 * TID 0; entry 1 = 4 KB UART at 0xef600000, I|G. UTLB: pinned host lowmem
 * (256 MB at 0xc0000000 upward, TS 0) in the top slots, the rest invalid,
 * the round-robin index at 0, no shadow references, guest PID 0. */
void tlb440_reset(tlb440 *t);

/* Highest round-robin slot (tlb_44x_hwater = utlb - 1 - pinned). */
unsigned tlb440_hwater(const tlb440 *t);
const tlb440_stats *tlb440_get_stats(const tlb440 *t);

/* ---- guest TLB (emulated tlbwe / tlbsx) ---- */
const tlb440_entry *tlb440_gtlb(const tlb440 *t, unsigned index);
/* A guest tlbwe leaving entry `index` as *e (the whole entry after the word
 * write, as kvm_gtlb_write reports it). If the old entry was valid, every
 * shadow reference to it is released (a scan of the 64 refs). Returns the
 * number released. index < gtlb_entries (assert). */
unsigned tlb440_gtlb_write(tlb440 *t, unsigned index, const tlb440_entry *e);
/* tlbsx / kvmppc_44x_tlb_index: first entry translating ea in address space
 * `as` for PID `pid` (TID 0 matches every PID). Returns its index or -1;
 * *scanned (may be NULL) gets the number of entries examined. */
int tlb440_gtlb_search(const tlb440 *t, uint32_t ea, unsigned as, unsigned pid,
                       unsigned *scanned);
/* Whether a guest entry is "host safe" (valid, TS == msr_is, RAM): such a
 * tlbwe maps its first host page at once (the caller calls tlb440_map). */
bool tlb440_gtlb_host_safe(const tlb440 *t, unsigned index, unsigned msr_is);
/* Guest mtspr PID: a new value releases every TID-0 shadow reference (guest
 * user space). Returns the number released. */
unsigned tlb440_set_pid(tlb440 *t, unsigned pid);
unsigned tlb440_pid(const tlb440 *t);

/* ---- what the hardware does with a guest access ---- */
typedef enum tlb440_class {
    TLB440_HIT,  /* a shadow entry in the UTLB translates it: no exit */
    TLB440_VIRT, /* guest TLB hit on RAM: ITLBVIRT/DTLBVIRT, map a shadow */
    TLB440_REAL, /* guest TLB miss: ITLBREAL/DTLBREAL, reflected */
    TLB440_MMIO, /* guest TLB hit outside RAM: MMIO (data) / machine check */
} tlb440_class;

/* Classifies a guest access to ea: the UTLB is searched with TS = 1 and the
 * shadow PID (guest_pr ? 0 : 1); on a miss the guest TLB with the guest's
 * address space `as` (MSR[IS] or [DS]) and PID. *gindex (may be NULL) gets
 * the guest entry or -1; *scanned the guest entries examined. */
tlb440_class tlb440_classify(const tlb440 *t, uint32_t ea, unsigned as,
                             bool guest_pr, int *gindex, unsigned *scanned);

/* Hardware UTLB search: the slot translating ea for TS `ts` and PID `pid`,
 * or -1. */
int tlb440_utlb_find(const tlb440 *t, uint32_t ea, unsigned ts, unsigned pid);
const tlb440_entry *tlb440_utlb(const tlb440 *t, unsigned slot);

/* What one tlb440_map did. */
typedef struct tlb440_map_info {
    unsigned victim;   /* slot written */
    bool released;     /* the victim's old shadow reference was released */
    bool evicted_host; /* the victim held a host entry */
} tlb440_map_info;

/* kvmppc_mmu_map: victim = the next round-robin slot; its old shadow
 * reference is released; a shadow entry for the host page containing ea
 * (4 KB, or the guest's page if smaller) is written with TS 1, the guest's
 * permissions (S copied into U in guest supervisor mode; SX|SW|SR and M
 * always) and TID !(guest_tid & 0xff). gindex is a valid guest entry
 * covering ea (assert). */
void tlb440_map(tlb440 *t, uint32_t ea, unsigned gindex, bool guest_pr,
                tlb440_map_info *info);

/* The PV magic page (docs/kvm440.md §5; e500's kvmppc_map_magic transposed to
 * the 440, where no slot is reserved for it): a 4 KB TS=1 shadow of the
 * vcpu's shared page at real address ra, user and supervisor read/write,
 * in the next round-robin slot like any shadow, so it competes with guest
 * and host entries. Its TID is e500's stid = kvmppc_e500_get_sid(vcpu, 0,
 * 0, 0, 0), the shadow ID of a guest-global supervisor mapping: on the 440
 * the shadow TID 1 tlb440_map gives a guest TID-0 entry, so a guest PID
 * switch (which releases the TID-0 shadows of user pages) leaves it in
 * place. Its reference belongs to no guest entry. cpu440 maps it with this
 * function too. */
void tlb440_map_magic(tlb440 *t, uint32_t ea, uint64_t ra,
                      tlb440_map_info *info);

/* A host access to ea (kernel address space TS 0, TID 0). Pinned lowmem and
 * entries already in the UTLB hit; otherwise the host miss handler fills the
 * next round-robin slot with a 4 KB entry, possibly evicting a guest shadow
 * entry (whose reference stays, as in the kernel, until released). Returns
 * true on a miss.
 * hint: NULL, or the caller's slot memo for this page (-1 initially): a page
 * always accessed through the same hint is checked in O(1) (it is at the
 * hint's slot or not in the UTLB); without a memo the UTLB is scanned. */
bool tlb440_host_access(tlb440 *t, uint32_t ea, int *hint);

/* Per UTLB slot, a counter bumped whenever the slot is written or
 * invalidated: a caller that saw its page in slot s at version v knows it
 * is still there while version[s] == v (an O(1) check without a call). */
const uint32_t *tlb440_slot_versions(const tlb440 *t);

/* Number of valid TS=1 (guest shadow) entries in the UTLB. */
unsigned tlb440_guest_entries(const tlb440 *t);

/* vcpu_put: save (tlbre) and invalidate every valid TS=1 slot; returns the
 * number saved. vcpu_load: write the saved entries back into their slots
 * (overwriting host entries filled meanwhile); returns the number. */
unsigned tlb440_vcpu_put(tlb440 *t);
/* 2.6.28's _tlbia at vcpu_put, host side: every unpinned host entry (TS 0)
 * invalidated; returns the number. */
unsigned tlb440_flush_host(tlb440 *t);
unsigned tlb440_vcpu_load(tlb440 *t);

#endif
