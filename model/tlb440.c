/* tlb440: the 440 soft TLB after arch/powerpc/kvm/44x_tlb.c (2.6.29+:
 * direct hardware writes, shared round-robin index) and head_44x.S
 * (finish_tlb_load: ++tlb_44x_index, wrap above tlb_44x_hwater). */
#include "tlb440.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "tlbword.h"

#define LOWMEM_BASE  0xc0000000u
#define PINNED_BYTES (256u << 20)
#define HOST_PAGE    4096u
#define HKEY_BLOCK   8 /* the SSE2 search below takes two blocks of 4 */

typedef struct shadow_ref {
    bool held;      /* ref->page != NULL */
    uint8_t gindex; /* guest entry it shadows */
    uint8_t tid;    /* shadow TID (0 = guest user mapping) */
} shadow_ref;

struct tlb440 {
    tlb440_config c;
    unsigned hwater;
    unsigned index; /* tlb_44x_index */
    unsigned pid;   /* guest PID */
    tlb440_entry gtlb[TLB440_MAX];
    /* the guest TLB again as flat arrays for the search: first and
     * last EA (clamped to 32 bits), TID */
    uint32_t g_lo[TLB440_MAX], g_hi[TLB440_MAX];
    uint8_t g_tid[TLB440_MAX];
    /* the same as bit masks (bit i: guest entry i), so that the search
     * visits only the entries that can match an AS and PID, in index
     * order: valid in TS 0 / TS 1, TID 0, and TID == mask_pid (kept for
     * the last PID searched: the guest changes PID rarely) */
    uint64_t m_ts[2], m_tid0, m_pid;
    uint8_t mask_pid;
    /* the last search: its result holds for every EA in [lo, hi] with the
     * same AS and PID until the guest TLB changes (the search is const to
     * callers; the memo is invisible state) */
    struct {
        bool valid;
        uint8_t as, pid;
        uint32_t lo, hi;
        int index;
        unsigned scanned;
    } memo;
    uint32_t version[TLB440_MAX]; /* bumped by every write of a UTLB slot */
    /* per slot, what a host access needs to know (host_key), so that the
     * search for a host page compares one word per slot, HKEY_BLOCK at a
     * time (the padding stays 0); n_other: round-robin slots (at or below
     * hwater) whose key is HKEY_OTHER */
    uint32_t hkey[TLB440_MAX + HKEY_BLOCK];
    unsigned n_other;
    tlb440_entry utlb[TLB440_MAX];
    shadow_ref ref[TLB440_MAX];
    tlb440_entry saved[TLB440_MAX]; /* vcpu_put's shadow_tlb[] */
    bool saved_valid[TLB440_MAX];
    tlb440_stats st;
};

sim_err tlb440_new(tlb440 **t, const tlb440_config *c)
{
    if (c->gtlb_entries < 1 || c->gtlb_entries > TLB440_GUEST_MAX ||
        c->utlb_entries < 8 || c->utlb_entries > TLB440_MAX ||
        c->utlb_pinned < 1 || c->utlb_pinned + 2 > c->utlb_entries)
        return sim_fail(SIM_ERR_RANGE,
                        "tlb440: geometry guest %u, UTLB %u, pinned %u out of "
                        "range (guest 1..64, UTLB 8..128, pinned 1..UTLB-2)",
                        c->gtlb_entries, c->utlb_entries, c->utlb_pinned);
    *t = calloc(1, sizeof **t);
    if (!*t)
        return sim_fail(SIM_ERR_NOMEM, "tlb440: out of memory");
    (*t)->c = *c;
    tlb440_reset(*t);
    return SIM_OK;
}

void tlb440_free(tlb440 *t)
{
    free(t);
}

static void gtlb_index_entry(tlb440 *t, unsigned i)
{
    const tlb440_entry *g = &t->gtlb[i];
    uint64_t end = tlbw_end(g->w0);
    t->g_lo[i] = tlbw_epn(g->w0);
    t->g_hi[i] = end > UINT32_MAX ? UINT32_MAX : (uint32_t)end;
    t->g_tid[i] = (uint8_t)tlbw_tid(g->tid);
    uint64_t bit = 1ull << i, v = tlbw_v(g->w0) ? bit : 0;
    t->m_ts[0] = (t->m_ts[0] & ~bit) | (tlbw_ts(g->w0) ? 0 : v);
    t->m_ts[1] = (t->m_ts[1] & ~bit) | (tlbw_ts(g->w0) ? v : 0);
    t->m_tid0 = (t->m_tid0 & ~bit) | (t->g_tid[i] == 0 ? bit : 0);
    t->m_pid = (t->m_pid & ~bit) | (t->g_tid[i] == t->mask_pid ? bit : 0);
}

/* m_pid for another PID (a scan of the guest TLB). */
static void gtlb_mask_pid(tlb440 *t, uint8_t pid)
{
    uint64_t m = 0;
    for (unsigned i = 0; i < t->c.gtlb_entries; i++)
        m |= (uint64_t)(t->g_tid[i] == pid) << i;
    t->m_pid = m;
    t->mask_pid = pid;
}

/* hkey of a UTLB entry: 0 if it is no host entry (invalid or TS 1), its
 * EPN | 1 if it is a 4 KB host page (the only kind the host fills), else
 * HKEY_OTHER (compared in full). */
#define HKEY_OTHER 2u
static uint32_t host_key(const tlb440_entry *e)
{
    if (!tlbw_v(e->w0) || tlbw_ts(e->w0) != 0)
        return 0;
    uint32_t epn = tlbw_epn(e->w0);
    return tlbw_size(e->w0) == TLBSZ_4K && (epn & (HOST_PAGE - 1u)) == 0
               ? epn | 1u
               : HKEY_OTHER;
}

/* UTLB slot i has been written or invalidated. */
static inline void slot_changed(tlb440 *t, unsigned i)
{
    t->version[i]++;
    bool rr = i <= t->hwater; /* n_other counts the round-robin slots */
    t->n_other -= rr && t->hkey[i] == HKEY_OTHER;
    t->hkey[i] = host_key(&t->utlb[i]);
    t->n_other += rr && t->hkey[i] == HKEY_OTHER;
}

void tlb440_reset(tlb440 *t)
{
    tlb440_config c = t->c;
    uint32_t ver[TLB440_MAX];
    memcpy(ver, t->version, sizeof ver);
    memset(t, 0, sizeof *t);
    t->c = c;
    for (unsigned i = 0; i < TLB440_MAX; i++) /* every slot changed */
        t->version[i] = ver[i] + 1;
    t->hwater = c.utlb_entries - 1 - c.utlb_pinned;
    /* kvmppc_core_vcpu_setup: 16 MB of RAM at 0 and the UART */
    t->gtlb[0] = (tlb440_entry){0, tlbw_make_w0(0, TLBSZ_16M, true, 0), 0,
                                TLBW2_S_PERMS | TLBW2_U_PERMS};
    t->gtlb[1] = (tlb440_entry){0, tlbw_make_w0(0xef600000u, TLBSZ_4K, true, 0),
                                tlbw_make_w1(0x1ef600000ull),
                                TLBW2_I | TLBW2_G | TLBW2_SR | TLBW2_SW};
    for (unsigned i = 0; i < c.gtlb_entries; i++)
        gtlb_index_entry(t, i);
    /* pinned lowmem from the top slot down */
    for (unsigned i = 0; i < c.utlb_pinned; i++) {
        uint32_t ea = LOWMEM_BASE + i * PINNED_BYTES;
        t->utlb[c.utlb_entries - 1 - i] = (tlb440_entry){
            0, tlbw_make_w0(ea, TLBSZ_256M, true, 0),
            tlbw_make_w1(ea - LOWMEM_BASE), TLBW2_S_PERMS | TLBW2_M};
    }
    for (unsigned i = 0; i < TLB440_MAX; i++) {
        t->hkey[i] = host_key(&t->utlb[i]);
        t->n_other += i <= t->hwater && t->hkey[i] == HKEY_OTHER;
    }
}

unsigned tlb440_hwater(const tlb440 *t)
{
    return t->hwater;
}
const uint32_t *tlb440_slot_versions(const tlb440 *t)
{
    return t->version;
}

const tlb440_stats *tlb440_get_stats(const tlb440 *t)
{
    return &t->st;
}

const tlb440_entry *tlb440_gtlb(const tlb440 *t, unsigned index)
{
    assert(index < t->c.gtlb_entries);
    return &t->gtlb[index];
}

const tlb440_entry *tlb440_utlb(const tlb440 *t, unsigned slot)
{
    assert(slot < t->c.utlb_entries);
    return &t->utlb[slot];
}

/* kvmppc_44x_shadow_release: invalidate the slot (even if the host has
 * overwritten it since: the kernel notes it "could actually invalidate a
 * host mapping") and drop the page reference. */
static bool release(tlb440 *t, unsigned slot)
{
    if (!t->ref[slot].held)
        return false;
    t->utlb[slot].w0 &= ~TLBW0_V;
    slot_changed(t, slot);
    t->ref[slot].held = false;
    t->st.releases++;
    return true;
}

unsigned tlb440_gtlb_write(tlb440 *t, unsigned index, const tlb440_entry *e)
{
    assert(index < t->c.gtlb_entries);
    unsigned n = 0;
    if (tlbw_v(t->gtlb[index].w0))
        for (unsigned i = 0; i <= t->hwater; i++)
            if (t->ref[i].held && t->ref[i].gindex == index)
                n += release(t, i);
    t->gtlb[index] = *e;
    gtlb_index_entry(t, index);
    t->memo.valid = false;
    return n;
}

int tlb440_gtlb_search(const tlb440 *t, uint32_t ea, unsigned as, unsigned pid,
                       unsigned *scanned)
{
    uint8_t want = (uint8_t)(1 + (as & 1u)), p8 = (uint8_t)pid;
    tlb440 *mt = (tlb440 *)t; /* the memo only */
    /* one branch (&, not &&): whether the memo holds is as good as random */
    if (t->memo.valid & (t->memo.as == want) & (t->memo.pid == p8) &
        (ea >= t->memo.lo) & (ea <= t->memo.hi)) {
        if (scanned)
            *scanned = t->memo.scanned;
        return t->memo.index;
    }
    if (p8 != t->mask_pid)
        gtlb_mask_pid(mt, p8);
    /* kvmppc_44x_tlb_index's tests (tlbw_match) on the flat arrays, while
     * narrowing [lo, hi] to the EAs for which the answer is the same; only
     * the entries that can match this AS and PID are visited, in index
     * order (the others match no EA) */
    uint64_t cand = t->m_ts[as & 1u] & (t->m_tid0 | t->m_pid);
    uint32_t lo = 0, hi = UINT32_MAX;
    int found = -1;
    unsigned n = t->c.gtlb_entries, i = 0;
    while (cand) {
        i = (unsigned)__builtin_ctzll(cand);
        cand &= cand - 1;
        /* selects rather than branches: whether ea lies below, above or
         * in an entry is as good as random */
        uint32_t elo = t->g_lo[i], ehi = t->g_hi[i];
        bool below = ea < elo, above = ea > ehi;
        uint32_t take_hi = -(uint32_t)(below & (elo - 1 < hi));
        uint32_t take_lo = -(uint32_t)(above & (ehi + 1 > lo));
        hi = ((elo - 1) & take_hi) | (hi & ~take_hi);
        lo = ((ehi + 1) & take_lo) | (lo & ~take_lo);
        if (!below && !above) {
            lo = elo > lo ? elo : lo;
            hi = ehi < hi ? ehi : hi;
            found = (int)i;
            break;
        }
    }
    unsigned sc = found >= 0 ? i + 1 : n;
    mt->memo.valid = true;
    mt->memo.as = want;
    mt->memo.pid = p8;
    mt->memo.lo = lo;
    mt->memo.hi = hi;
    mt->memo.index = found;
    mt->memo.scanned = sc;
    if (scanned)
        *scanned = sc;
    return found;
}

static bool is_ram(const tlb440 *t, const tlb440_entry *g, uint32_t ea)
{
    uint64_t ra = tlbw_raddr(g->w1) + (ea - tlbw_epn(g->w0));
    return ra < t->c.guest_ram_bytes;
}

bool tlb440_gtlb_host_safe(const tlb440 *t, unsigned index, unsigned msr_is)
{
    const tlb440_entry *g = tlb440_gtlb(t, index);
    return tlbw_v(g->w0) && tlbw_ts(g->w0) == (msr_is & 1u) &&
           is_ram(t, g, tlbw_epn(g->w0));
}

unsigned tlb440_set_pid(tlb440 *t, unsigned pid)
{
    unsigned n = 0;
    if (pid != t->pid)
        for (unsigned i = 0; i <= t->hwater; i++)
            if (t->ref[i].held && t->ref[i].tid == 0)
                n += release(t, i);
    t->pid = pid;
    return n;
}

unsigned tlb440_pid(const tlb440 *t)
{
    return t->pid;
}

int tlb440_utlb_find(const tlb440 *t, uint32_t ea, unsigned ts, unsigned pid)
{
    for (unsigned i = 0; i < t->c.utlb_entries; i++)
        if (tlbw_match(t->utlb[i].tid, t->utlb[i].w0, ea, ts, pid))
            return (int)i;
    return -1;
}

tlb440_class tlb440_classify(const tlb440 *t, uint32_t ea, unsigned as,
                             bool guest_pr, int *gindex, unsigned *scanned)
{
    if (gindex)
        *gindex = -1;
    if (scanned)
        *scanned = 0;
    if (tlb440_utlb_find(t, ea, 1, guest_pr ? 0 : 1) >= 0)
        return TLB440_HIT;
    int g = tlb440_gtlb_search(t, ea, as, t->pid, scanned);
    if (gindex)
        *gindex = g;
    if (g < 0)
        return TLB440_REAL;
    return is_ram(t, &t->gtlb[g], ea) ? TLB440_VIRT : TLB440_MMIO;
}

/* The shared round-robin victim: ++tlb_44x_index, 0 above hwater. */
static unsigned next_victim(tlb440 *t)
{
    unsigned v = t->index + 1;
    if (v > t->hwater)
        v = 0;
    t->index = v;
    return v;
}

static bool is_guest_slot(const tlb440_entry *e)
{
    return tlbw_v(e->w0) && tlbw_ts(e->w0) == 1;
}

void tlb440_map(tlb440 *t, uint32_t ea, unsigned gindex, bool guest_pr,
                tlb440_map_info *info)
{
    const tlb440_entry *g = tlb440_gtlb(t, gindex);
    assert(tlbw_v(g->w0));
    unsigned v = next_victim(t);
    tlb440_map_info mi = {.victim = v};
    mi.released = release(t, v);
    mi.evicted_host = tlbw_v(t->utlb[v].w0) && tlbw_ts(t->utlb[v].w0) == 0;

    /* one host page, or the guest page if it is smaller (1 KB) */
    unsigned size = tlbw_size(g->w0) < TLBSZ_4K ? tlbw_size(g->w0) : TLBSZ_4K;
    uint32_t bytes = 1024u << (2 * size);
    uint32_t epn = ea & ~(bytes - 1u);
    uint64_t ra = tlbw_raddr(g->w1) + (epn - tlbw_epn(g->w0));
    uint32_t w2 = g->w2 & (TLBW2_U_MASK | TLBW2_W | TLBW2_I | TLBW2_G |
                           TLBW2_E | TLBW2_PERM_MASK);
    if (!guest_pr) { /* guest supervisor: S permissions become U */
        uint32_t keep = t->c.union_user_perms && tlbw_tid(g->tid) != 0
                            ? w2 & TLBW2_U_PERMS
                            : 0;
        w2 = (w2 & ~TLBW2_U_PERMS) | ((w2 & TLBW2_S_PERMS) << 3) | keep;
    }
    w2 |= TLBW2_S_PERMS | TLBW2_M;
    uint8_t tid = !(tlbw_tid(g->tid));
    t->utlb[v] = (tlb440_entry){tid, tlbw_make_w0(epn, size, true, 1),
                                tlbw_make_w1(ra), w2};
    slot_changed(t, v);
    t->ref[v] = (shadow_ref){true, (uint8_t)gindex, tid};
    t->st.maps++;
    t->st.map_evicted_host += mi.evicted_host;
    if (info)
        *info = mi;
}

#define NO_GUEST_ENTRY 0xffu

void tlb440_map_magic(tlb440 *t, uint32_t ea, uint64_t ra,
                      tlb440_map_info *info)
{
    unsigned v = next_victim(t);
    tlb440_map_info mi = {.victim = v};
    mi.released = release(t, v);
    mi.evicted_host = tlbw_v(t->utlb[v].w0) && tlbw_ts(t->utlb[v].w0) == 0;
    t->utlb[v] =
        (tlb440_entry){1, tlbw_make_w0(ea & ~4095u, TLBSZ_4K, true, 1),
                       tlbw_make_w1(ra & ~(uint64_t)4095),
                       TLBW2_SR | TLBW2_SW | TLBW2_UR | TLBW2_UW | TLBW2_M};
    slot_changed(t, v);
    t->ref[v] = (shadow_ref){true, NO_GUEST_ENTRY, 1};
    t->st.maps++;
    t->st.map_evicted_host += mi.evicted_host;
    if (info)
        *info = mi;
}

static bool host_hit(const tlb440_entry *e, uint32_t ea)
{
    return tlbw_v(e->w0) && tlbw_ts(e->w0) == 0 && ea >= tlbw_epn(e->w0) &&
           (uint64_t)ea <= tlbw_end(e->w0);
}

/* The first round-robin slot holding a host entry for ea, or -1. */
static int host_find(const tlb440 *t, uint32_t ea)
{
    uint32_t key = (ea & ~(HOST_PAGE - 1u)) | 1u;
    if (t->n_other) { /* entries other than 4 KB host pages: in full */
        for (unsigned i = 0; i <= t->hwater; i++)
            if (t->hkey[i] == key ||
                (t->hkey[i] == HKEY_OTHER && host_hit(&t->utlb[i], ea)))
                return (int)i;
        return -1;
    }
    /* only 4 KB host pages: their keys, a block at a time without a
     * branch per slot (an odd key is a 4 KB host page, and those lie at or
     * below hwater, so the first match is the answer or there is none) */
    for (unsigned b = 0; b <= t->hwater; b += HKEY_BLOCK) {
        unsigned hit = 0;
#ifdef __SSE2__
        __m128i k = _mm_set1_epi32((int)key);
        __m128i lo = _mm_loadu_si128((const __m128i *)&t->hkey[b]);
        __m128i hi = _mm_loadu_si128((const __m128i *)&t->hkey[b + 4]);
        hit = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(lo, k))) |
              (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(hi, k)))
                  << 4;
#else
        for (unsigned j = 0; j < HKEY_BLOCK; j++)
            hit |= (unsigned)(t->hkey[b + j] == key) << j;
#endif
        if (hit) {
            unsigned i = b + (unsigned)__builtin_ctz(hit);
            return i <= t->hwater ? (int)i : -1;
        }
    }
    return -1;
}

bool tlb440_host_access(tlb440 *t, uint32_t ea, int *hint)
{
    unsigned n = t->c.utlb_entries;
    if (ea >= LOWMEM_BASE &&
        (uint64_t)ea < LOWMEM_BASE + (uint64_t)t->c.utlb_pinned * PINNED_BYTES)
        return false;
    if (hint && *hint >= 0) {
        /* the hint's owner fills this page only through it, so the page
         * is at the hint's slot or nowhere */
        if ((unsigned)*hint < n && host_hit(&t->utlb[*hint], ea))
            return false;
    } else {
        int i = host_find(t, ea);
        if (i >= 0) {
            if (hint)
                *hint = i;
            return false;
        }
    }
    unsigned v = next_victim(t);
    t->st.host_fills++;
    if (is_guest_slot(&t->utlb[v]))
        t->st.host_evicted_guest++;
    /* host kernel mappings: TS 0, TID 0 */
    t->utlb[v] = (tlb440_entry){
        0, tlbw_make_w0(ea & ~(HOST_PAGE - 1u), TLBSZ_4K, true, 0),
        tlbw_make_w1(ea & ~(HOST_PAGE - 1u)), TLBW2_S_PERMS | TLBW2_M};
    slot_changed(t, v);
    if (hint)
        *hint = (int)v;
    return true;
}

unsigned tlb440_guest_entries(const tlb440 *t)
{
    unsigned n = 0;
    for (unsigned i = 0; i <= t->hwater; i++)
        n += is_guest_slot(&t->utlb[i]);
    return n;
}

unsigned tlb440_vcpu_put(tlb440 *t)
{
    unsigned n = 0;
    for (unsigned i = 0; i <= t->hwater; i++) {
        t->saved_valid[i] = is_guest_slot(&t->utlb[i]);
        if (t->saved_valid[i]) {
            t->saved[i] = t->utlb[i];
            t->utlb[i].w0 &= ~TLBW0_V;
            slot_changed(t, i);
            n++;
        }
    }
    t->st.puts++;
    t->st.put_entries += n;
    return n;
}

unsigned tlb440_flush_host(tlb440 *t)
{
    unsigned n = 0;
    for (unsigned i = 0; i <= t->hwater; i++)
        if (tlbw_v(t->utlb[i].w0) && tlbw_ts(t->utlb[i].w0) == 0) {
            t->utlb[i].w0 &= ~TLBW0_V;
            slot_changed(t, i);
            n++;
        }
    return n;
}

unsigned tlb440_vcpu_load(tlb440 *t)
{
    unsigned n = 0;
    for (unsigned i = 0; i <= t->hwater; i++)
        if (t->saved_valid[i]) {
            t->utlb[i] = t->saved[i];
            slot_changed(t, i);
            t->saved_valid[i] = false;
            n++;
        }
    t->st.loads++;
    t->st.load_entries += n;
    return n;
}
