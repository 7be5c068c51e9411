/* Tests of the soft TLB (model/tlb440) and the TLB word layout
 * (model/tlbword.h): the boundary cases of STYLE 11 (TLB full, each page
 * size, TID 0 wildcard, TS mismatch) and the host/guest interaction through
 * the shared round-robin index (kernel 44x_tlb.c, head_44x.S). */
#include <string.h>

#include "testlib.h"
#include "tlb440.h"
#include "tlbword.h"

static tlb440 *mk(void)
{
    tlb440_config c = {64, 64, 1, 256u << 20, false};
    tlb440 *t = NULL;
    CU_ASSERT_EQUAL_FATAL(tlb440_new(&t, &c), SIM_OK);
    return t;
}

/* A valid guest entry: ea->ra, page size code, TS, TID. */
static tlb440_entry gent(uint32_t ea, uint64_t ra, unsigned size, unsigned ts,
                         unsigned tid)
{
    return (tlb440_entry){tid, tlbw_make_w0(ea, size, true, ts),
                          tlbw_make_w1(ra), TLBW2_S_PERMS};
}

static void test_word_layout(void)
{
    uint32_t w0 = tlbw_make_w0(0xc0001000u, TLBSZ_16M, true, 1);
    CU_ASSERT_EQUAL(w0, 0xc0001000u | 0x200 | 0x100 | 0x70);
    CU_ASSERT_EQUAL(tlbw_epn(w0), 0xc0001000u);
    CU_ASSERT(tlbw_v(w0));
    CU_ASSERT_EQUAL(tlbw_ts(w0), 1);
    CU_ASSERT_EQUAL(tlbw_size(w0), TLBSZ_16M);
    CU_ASSERT_EQUAL(tlbw_bytes(w0), 16u << 20);
    uint32_t w1 = tlbw_make_w1(0x1ef600000ull);
    CU_ASSERT_EQUAL(w1, 0xef600001u);
    CU_ASSERT_EQUAL(tlbw_raddr(w1), 0x1ef600000ull);
    CU_ASSERT_EQUAL(tlbw_erpn(w1), 1);
    CU_ASSERT_EQUAL(tlbw_perms(0xffffu), 0x3f);
    CU_ASSERT_FALSE(tlbw_size_valid(6));
    CU_ASSERT_FALSE(tlbw_size_valid(8));
    CU_ASSERT(tlbw_size_valid(9));
}

static void test_each_page_size(void)
{
    static const unsigned sizes[] = {TLBSZ_1K,  TLBSZ_4K,   TLBSZ_16K,
                                     TLBSZ_64K, TLBSZ_256K, TLBSZ_1M,
                                     TLBSZ_16M, TLBSZ_256M};
    static const uint64_t bytes[] = {1u << 10,  4u << 10,   16u << 10,
                                     64u << 10, 256u << 10, 1u << 20,
                                     16u << 20, 256u << 20};
    for (unsigned i = 0; i < 8; i++) {
        tlb440 *t = mk();
        uint32_t ea = 0x10000000u;
        tlb440_entry e = gent(ea, 0, sizes[i], 0, 0);
        CU_ASSERT_EQUAL(tlbw_bytes(e.w0), bytes[i]);
        tlb440_gtlb_write(t, 5, &e);
        CU_ASSERT_EQUAL(tlb440_gtlb_search(t, ea, 0, 0, NULL), 5);
        CU_ASSERT_EQUAL(
            tlb440_gtlb_search(t, ea + (uint32_t)bytes[i] - 1, 0, 0, NULL), 5);
        CU_ASSERT_EQUAL(
            tlb440_gtlb_search(t, ea + (uint32_t)bytes[i], 0, 0, NULL), -1);
        CU_ASSERT_EQUAL(tlb440_gtlb_search(t, ea - 1, 0, 0, NULL), -1);
        tlb440_free(t);
    }
}

static void test_tid0_is_a_wildcard(void)
{
    tlb440 *t = mk();
    tlb440_entry g = gent(0x10000000u, 0, TLBSZ_4K, 0, 0);
    tlb440_entry u = gent(0x20000000u, 0x1000, TLBSZ_4K, 0, 7);
    tlb440_gtlb_write(t, 2, &g);
    tlb440_gtlb_write(t, 3, &u);
    CU_ASSERT_EQUAL(tlb440_gtlb_search(t, 0x10000000u, 0, 5, NULL), 2);
    CU_ASSERT_EQUAL(tlb440_gtlb_search(t, 0x10000000u, 0, 7, NULL), 2);
    CU_ASSERT_EQUAL(tlb440_gtlb_search(t, 0x20000000u, 0, 7, NULL), 3);
    CU_ASSERT_EQUAL(tlb440_gtlb_search(t, 0x20000000u, 0, 5, NULL), -1);
    tlb440_free(t);
}

static void test_ts_mismatch_misses(void)
{
    tlb440 *t = mk();
    tlb440_entry e = gent(0x10000000u, 0, TLBSZ_4K, 1, 0);
    tlb440_gtlb_write(t, 4, &e);
    unsigned scanned;
    CU_ASSERT_EQUAL(tlb440_gtlb_search(t, 0x10000000u, 0, 0, &scanned), -1);
    CU_ASSERT_EQUAL(scanned, 64);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x10000000u, 0, false, NULL, NULL),
                    TLB440_REAL);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x10000000u, 1, false, NULL, NULL),
                    TLB440_VIRT);
    tlb440_free(t);
}

static void test_shadow_tid_rule(void)
{
    tlb440 *t = mk();
    tlb440_entry k = gent(0x10000000u, 0, TLBSZ_4K, 0, 0); /* global */
    tlb440_entry u = gent(0x20000000u, 0x1000, TLBSZ_4K, 0, 9);
    tlb440_gtlb_write(t, 2, &k);
    tlb440_gtlb_write(t, 3, &u);
    tlb440_map_info mi;
    tlb440_map(t, 0x10000000u, 2, false, &mi);
    CU_ASSERT_EQUAL(tlb440_utlb(t, mi.victim)->tid, 1);
    tlb440_map(t, 0x20000000u, 3, true, &mi);
    CU_ASSERT_EQUAL(tlb440_utlb(t, mi.victim)->tid, 0);
    /* guest kernel (shadow PID 1) reaches both, guest user only TID 0 */
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x10000000u, 0, false, NULL, NULL),
                    TLB440_HIT);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x20000000u, 0, false, NULL, NULL),
                    TLB440_HIT);
    tlb440_set_pid(t, 9);
    /* the PID change released the TID-0 (user) shadow */
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x20000000u, 0, true, NULL, NULL),
                    TLB440_VIRT);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x10000000u, 0, false, NULL, NULL),
                    TLB440_HIT);
    tlb440_free(t);
}

static void test_pid_change_releases_tid0_only(void)
{
    tlb440 *t = mk();
    tlb440_entry k = gent(0x10000000u, 0, TLBSZ_16M, 0, 0);
    tlb440_entry u = gent(0x20000000u, 0x1000000, TLBSZ_16M, 0, 9);
    tlb440_gtlb_write(t, 2, &k);
    tlb440_gtlb_write(t, 3, &u);
    for (uint32_t i = 0; i < 4; i++) {
        tlb440_map(t, 0x10000000u + i * 4096, 2, false, NULL);
        tlb440_map(t, 0x20000000u + i * 4096, 3, true, NULL);
    }
    CU_ASSERT_EQUAL(tlb440_set_pid(t, 0), 0); /* unchanged PID: nothing */
    CU_ASSERT_EQUAL(tlb440_set_pid(t, 9), 4);
    CU_ASSERT_EQUAL(tlb440_guest_entries(t), 4);
    tlb440_free(t);
}

/* The magic page's entry carries e500's stid of a guest-global supervisor
 * mapping (kvmppc_e500_get_sid(vcpu, 0, 0, 0, 0)): shadow TID 1, found in
 * guest supervisor mode only, and a guest PID switch leaves it; only the
 * round robin takes its slot. */
static void test_magic_page_survives_a_pid_switch(void)
{
    tlb440 *t = mk();
    tlb440_map_magic(t, 0xfffff000u, 0xfffff000u, NULL);
    CU_ASSERT(tlb440_utlb_find(t, 0xfffff010u, 1, 1) >= 0);
    CU_ASSERT(tlb440_utlb_find(t, 0xfffff010u, 1, 0) < 0);
    CU_ASSERT_EQUAL(tlb440_set_pid(t, 7), 0);
    CU_ASSERT(tlb440_utlb_find(t, 0xfffff010u, 1, 1) >= 0);
    tlb440_entry k = gent(0x10000000u, 0, TLBSZ_16M, 0, 0);
    tlb440_gtlb_write(t, 2, &k);
    for (unsigned i = 0; i < tlb440_hwater(t); i++) /* all the other slots */
        tlb440_map(t, 0x10000000u + i * 4096, 2, false, NULL);
    CU_ASSERT(tlb440_utlb_find(t, 0xfffff010u, 1, 1) >= 0);
    tlb440_map(t, 0x10100000u, 2, false, NULL); /* the round robin's turn */
    CU_ASSERT(tlb440_utlb_find(t, 0xfffff010u, 1, 1) < 0);
    tlb440_free(t);
}

static void test_tlb_full_wraps_round_robin(void)
{
    tlb440 *t = mk();
    unsigned hw = tlb440_hwater(t);
    CU_ASSERT_EQUAL(hw, 62);
    tlb440_entry e = gent(0x10000000u, 0, TLBSZ_16M, 0, 0);
    tlb440_gtlb_write(t, 2, &e);
    tlb440_map_info mi;
    for (unsigned i = 0; i <= hw; i++) {
        tlb440_map(t, 0x10000000u + i * 4096, 2, false, &mi);
        CU_ASSERT_FALSE(mi.released);
        CU_ASSERT_EQUAL(mi.victim, (i + 1) % (hw + 1)); /* ++index first */
    }
    CU_ASSERT_EQUAL(tlb440_guest_entries(t), hw + 1);
    /* full: the next map releases the oldest (slot 1), the pinned slot 63
     * is never a victim */
    tlb440_map(t, 0x10000000u + 100 * 4096, 2, false, &mi);
    CU_ASSERT(mi.released);
    CU_ASSERT_EQUAL(mi.victim, 1);
    CU_ASSERT_EQUAL(tlb440_guest_entries(t), hw + 1);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x10000000u, 0, false, NULL, NULL),
                    TLB440_VIRT);
    CU_ASSERT(tlbw_v(tlb440_utlb(t, 63)->w0));
    CU_ASSERT_EQUAL(tlbw_ts(tlb440_utlb(t, 63)->w0), 0);
    tlb440_free(t);
}

static void test_large_page_is_mapped_4k_at_a_time(void)
{
    tlb440 *t = mk();
    tlb440_entry e = gent(0xc0000000u, 0, TLBSZ_16M, 0, 0);
    tlb440_gtlb_write(t, 0, &e);
    tlb440_map_info mi;
    tlb440_map(t, 0xc0123456u, 0, false, &mi);
    const tlb440_entry *s = tlb440_utlb(t, mi.victim);
    CU_ASSERT_EQUAL(tlbw_size(s->w0), TLBSZ_4K);
    CU_ASSERT_EQUAL(tlbw_epn(s->w0), 0xc0123000u);
    CU_ASSERT_EQUAL(tlbw_raddr(s->w1), 0x123000u);
    CU_ASSERT_EQUAL(tlbw_ts(s->w0), 1);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0xc0123ffcu, 0, false, NULL, NULL),
                    TLB440_HIT);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0xc0124000u, 0, false, NULL, NULL),
                    TLB440_VIRT);
    tlb440_free(t);
}

static void test_guest_supervisor_gets_user_permissions(void)
{
    tlb440 *t = mk();
    tlb440_entry e = gent(0x10000000u, 0, TLBSZ_4K, 0, 0);
    e.w2 = TLBW2_SR | TLBW2_SW;
    tlb440_gtlb_write(t, 2, &e);
    tlb440_map_info mi;
    tlb440_map(t, 0x10000000u, 2, false, &mi);
    uint32_t w2 = tlb440_utlb(t, mi.victim)->w2;
    CU_ASSERT_EQUAL(w2 & TLBW2_U_PERMS, TLBW2_UR | TLBW2_UW);
    CU_ASSERT_EQUAL(w2 & TLBW2_S_PERMS, TLBW2_S_PERMS);
    CU_ASSERT(w2 & TLBW2_M);
    tlb440_free(t);
}

/* A KUEP guest's user page (TID 5: user exec, no SX) mapped while the guest
 * is in supervisor mode: KVM/440's rule leaves the shadow without UX (the
 * guest's user mode then takes ISIs); the union what-if keeps UX. Guest
 * kernel pages (TID 0) are the same under both rules. */
static void test_user_page_perms_kvm_rule_and_union_whatif(void)
{
    for (int u = 0; u < 2; u++) {
        tlb440_config c = {64, 64, 1, 256u << 20, u == 1};
        tlb440 *t = NULL;
        CU_ASSERT_EQUAL_FATAL(tlb440_new(&t, &c), SIM_OK);
        tlb440_entry e = gent(0x10000000u, 0, TLBSZ_4K, 0, 5);
        e.w2 = TLBW2_SR | TLBW2_SW | TLBW2_UR | TLBW2_UX;
        tlb440_gtlb_write(t, 2, &e);
        tlb440_entry k = gent(0xc0000000u, 0x1000, TLBSZ_4K, 0, 0);
        k.w2 = TLBW2_SR | TLBW2_SX;
        tlb440_gtlb_write(t, 3, &k);
        tlb440_map_info mi, mk2;
        tlb440_map(t, 0x10000000u, 2, false, &mi);
        tlb440_map(t, 0xc0000000u, 3, false, &mk2);
        uint32_t w2 = tlb440_utlb(t, mi.victim)->w2;
        CU_ASSERT_EQUAL(tlb440_utlb(t, mi.victim)->tid, 0); /* both modes */
        CU_ASSERT_EQUAL(w2 & TLBW2_U_PERMS,
                        u ? (TLBW2_UR | TLBW2_UW | TLBW2_UX)
                          : (TLBW2_UR | TLBW2_UW));
        CU_ASSERT_EQUAL(tlb440_utlb(t, mk2.victim)->w2 & TLBW2_U_PERMS,
                        TLBW2_UR | TLBW2_UX);
        tlb440_free(t);
    }
}

static void test_host_fills_evict_guest_entry_which_refaults(void)
{
    tlb440 *t = mk();
    tlb440_entry e = gent(0x10000000u, 0, TLBSZ_4K, 0, 0);
    tlb440_gtlb_write(t, 2, &e);
    tlb440_map(t, 0x10000000u, 2, false, NULL); /* the DTLBVIRT's map */
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x10000000u, 0, false, NULL, NULL),
                    TLB440_HIT);
    unsigned n = tlb440_hwater(t); /* one fewer than the round-robin slots */
    for (unsigned i = 0; i < n; i++)
        CU_ASSERT(tlb440_host_access(t, 0xd1000000u + i * 4096, NULL));
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x10000000u, 0, false, NULL, NULL),
                    TLB440_HIT);
    CU_ASSERT(tlb440_host_access(t, 0xd2000000u, NULL)); /* the N-th fill */
    CU_ASSERT_EQUAL(tlb440_get_stats(t)->host_evicted_guest, 1);
    int g;
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x10000000u, 0, false, &g, NULL),
                    TLB440_VIRT); /* re-faults as DTLBVIRT */
    CU_ASSERT_EQUAL(g, 2);
    tlb440_free(t);
}

static void test_host_access_hits_pinned_and_present(void)
{
    tlb440 *t = mk();
    CU_ASSERT_FALSE(tlb440_host_access(t, 0xc0100000u, NULL)); /* lowmem */
    int hint = -1;
    CU_ASSERT(tlb440_host_access(t, 0xd1000010u, &hint));
    CU_ASSERT(hint >= 0);
    CU_ASSERT_FALSE(tlb440_host_access(t, 0xd1000ff0u, &hint));
    int other = -1;
    CU_ASSERT_FALSE(tlb440_host_access(t, 0xd1000000u, &other));
    CU_ASSERT_EQUAL(other, hint);
    CU_ASSERT_EQUAL(tlb440_get_stats(t)->host_fills, 1);
    tlb440_free(t);
}

static void test_guest_tlbwe_of_valid_entry_invalidates_shadows(void)
{
    tlb440 *t = mk();
    tlb440_entry e = gent(0x10000000u, 0, TLBSZ_64K, 0, 0);
    tlb440_gtlb_write(t, 2, &e);
    tlb440_map(t, 0x10000000u, 2, false, NULL);
    tlb440_map(t, 0x10001000u, 2, false, NULL);
    tlb440_entry o = gent(0x30000000u, 0, TLBSZ_4K, 0, 0);
    tlb440_gtlb_write(t, 3, &o);
    tlb440_map(t, 0x30000000u, 3, false, NULL);
    tlb440_entry e2 = gent(0x10000000u, 0x100000, TLBSZ_64K, 0, 0);
    CU_ASSERT_EQUAL(tlb440_gtlb_write(t, 2, &e2), 2);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x10000000u, 0, false, NULL, NULL),
                    TLB440_VIRT);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x30000000u, 0, false, NULL, NULL),
                    TLB440_HIT);
    /* writing an invalid entry's slot releases nothing */
    tlb440_entry inv = {0};
    tlb440_gtlb_write(t, 9, &inv);
    CU_ASSERT_EQUAL(tlb440_gtlb_write(t, 9, &e), 0);
    tlb440_free(t);
}

static void test_guest_hit_outside_ram_is_mmio(void)
{
    tlb440 *t = mk();
    /* reset state: entry 1 is the UART at 0x1ef600000 */
    CU_ASSERT_EQUAL(tlb440_classify(t, 0xef600300u, 0, false, NULL, NULL),
                    TLB440_MMIO);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x00001000u, 0, false, NULL, NULL),
                    TLB440_VIRT);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x40000000u, 0, false, NULL, NULL),
                    TLB440_REAL);
    CU_ASSERT(tlb440_gtlb_host_safe(t, 0, 0));
    CU_ASSERT_FALSE(tlb440_gtlb_host_safe(t, 1, 0));
    tlb440_free(t);
}

static void test_vcpu_put_load_round_trip(void)
{
    tlb440 *t = mk();
    tlb440_entry e = gent(0x10000000u, 0, TLBSZ_16M, 0, 0);
    tlb440_gtlb_write(t, 2, &e);
    for (uint32_t i = 0; i < 10; i++)
        tlb440_map(t, 0x10000000u + i * 4096, 2, false, NULL);
    CU_ASSERT_EQUAL(tlb440_vcpu_put(t), 10);
    CU_ASSERT_EQUAL(tlb440_guest_entries(t), 0);
    for (uint32_t i = 0; i < 30; i++) /* QEMU and the host run */
        tlb440_host_access(t, 0xd0000000u + i * 4096, NULL);
    CU_ASSERT_EQUAL(tlb440_vcpu_load(t), 10);
    CU_ASSERT_EQUAL(tlb440_guest_entries(t), 10);
    CU_ASSERT_EQUAL(tlb440_classify(t, 0x10009000u, 0, false, NULL, NULL),
                    TLB440_HIT);
    tlb440_free(t);
}

/* Well-mixed 32-bit draws for the random tables below (the high half of
 * a 64-bit LCG: the low bits of a 32-bit one repeat with short periods). */
static uint32_t draw32(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*x >> 32);
}

/* The search remembers the EA range over which its last answer holds and
 * visits only the entries its masks (TS, TID 0, the PID) allow; against a
 * plain scan with tlbw_match over random tables, PIDs and EAs, with resets
 * on the way (the masks must follow them too). */
static void test_search_memo_agrees_with_plain_scan(void)
{
    tlb440 *t = mk();
    uint64_t x = 12345;
    unsigned found = 0;
    for (int round = 0; round < 20000; round++) {
        if (round % 5000 == 4999)
            tlb440_reset(t);
        if (round % 16 == 0) { /* a guest tlbwe somewhere */
            uint32_t y = draw32(&x);
            unsigned size = (unsigned[]){0, 1, 2, 3, 4, 5, 7, 9}[y & 7];
            tlb440_entry e = {(y >> 3) & 3, 0, 0, TLBW2_S_PERMS};
            e.w0 = tlbw_make_w0(0xc0000000u + ((y >> 8) & 0xfff) * 0x4000u,
                                size, ((y >> 5) & 3) != 0, (y >> 7) & 1);
            tlb440_gtlb_write(t, (y >> 20) % 64, &e);
        }
        uint32_t y = draw32(&x);
        uint32_t ea = 0xc0000000u + (y & 0x3ffffff);
        /* the PID changes at every search, or stays for 64 of them */
        unsigned as = (y >> 30) & 1, sc = 0;
        unsigned pid = round & 1024 ? (unsigned)(round >> 6) & 3 : (y >> 26) & 3;
        int got = tlb440_gtlb_search(t, ea, as, pid, &sc);
        int want = -1;
        unsigned wsc = 64;
        for (unsigned i = 0; i < 64; i++) {
            const tlb440_entry *g = tlb440_gtlb(t, i);
            if (tlbw_match(g->tid, g->w0, ea, as, pid)) {
                want = (int)i;
                wsc = i + 1;
                break;
            }
        }
        CU_ASSERT_EQUAL(got, want);
        CU_ASSERT_EQUAL(sc, wsc);
        found += want >= 0;
        /* a nearby EA: the memo's range must be exact */
        uint32_t ea2 = ea + (draw32(&x) & 0xffff) - 0x8000;
        got = tlb440_gtlb_search(t, ea2, as, pid, &sc);
        want = -1;
        for (unsigned i = 0; i < 64 && want < 0; i++) {
            const tlb440_entry *g = tlb440_gtlb(t, i);
            if (tlbw_match(g->tid, g->w0, ea2, as, pid))
                want = (int)i;
        }
        CU_ASSERT_EQUAL(got, want);
    }
    /* the tables were neither empty nor all-covering */
    CU_ASSERT(found > 2000 && found < 18000);
    tlb440_free(t);
}

/* A host access hits exactly when a valid TS 0 entry in a round-robin
 * slot covers the address (against a plain scan of the UTLB), through
 * fills, shadow maps, releases, vcpu_put/load and host flushes. */
static void test_host_access_agrees_with_plain_scan(void)
{
    tlb440 *t = mk();
    uint64_t x = 777;
    tlb440_entry e = gent(0x10000000u, 0, TLBSZ_16M, 0, 0);
    tlb440_gtlb_write(t, 2, &e);
    unsigned hits = 0;
    for (int round = 0; round < 20000; round++) {
        uint32_t y = draw32(&x);
        switch (y & 15) {
        case 0: tlb440_vcpu_put(t); tlb440_vcpu_load(t); break;
        case 1: tlb440_flush_host(t); break;
        case 2: tlb440_gtlb_write(t, 2, &e); break; /* releases shadows */
        case 3: case 4: case 5:
            tlb440_map(t, 0x10000000u + ((y >> 8) & 0xfff) * 4096, 2, false,
                       NULL);
            break;
        default: break;
        }
        uint32_t ea = 0xd1000000u + ((y >> 4) % 96) * 4096 + ((y >> 20) & 0xfff);
        bool want_miss = true;
        for (unsigned i = 0; i <= tlb440_hwater(t); i++) {
            const tlb440_entry *u = tlb440_utlb(t, i);
            if (tlbw_v(u->w0) && tlbw_ts(u->w0) == 0 &&
                ea >= tlbw_epn(u->w0) && (uint64_t)ea <= tlbw_end(u->w0))
                want_miss = false;
        }
        CU_ASSERT_EQUAL(tlb440_host_access(t, ea, NULL), want_miss);
        hits += !want_miss;
    }
    CU_ASSERT(hits > 2000 && hits < 18000); /* both outcomes are tried */
    tlb440_free(t);
}

static void test_slot_versions_change_with_the_slot(void)
{
    tlb440 *t = mk();
    const uint32_t *ver = tlb440_slot_versions(t);
    int hint = -1;
    tlb440_host_access(t, 0xd1000000u, &hint);
    uint32_t v = ver[hint];
    CU_ASSERT_FALSE(tlb440_host_access(t, 0xd1000000u, &hint));
    CU_ASSERT_EQUAL(ver[hint], v); /* a hit writes nothing */
    tlb440_entry e = gent(0x10000000u, 0, TLBSZ_16M, 0, 0);
    tlb440_gtlb_write(t, 2, &e);
    for (uint32_t i = 0; i < 63; i++) /* wrap round to the host's slot */
        tlb440_map(t, 0x10000000u + i * 4096, 2, false, NULL);
    CU_ASSERT_NOT_EQUAL(ver[hint], v);
    tlb440_free(t);
}

static void test_bad_geometry_is_refused(void)
{
    tlb440_config c = {64, 64, 63, 1, false};
    tlb440 *t = NULL;
    CU_ASSERT_EQUAL(tlb440_new(&t, &c), SIM_ERR_RANGE);
    c = (tlb440_config){65, 64, 1, 1, false};
    CU_ASSERT_EQUAL(tlb440_new(&t, &c), SIM_ERR_RANGE);
}

static CU_TestInfo tests[] = {
    {"the magic page survives a PID switch", test_magic_page_survives_a_pid_switch},
    {"TLB word layout", test_word_layout},
    {"each page size", test_each_page_size},
    {"TID 0 is a wildcard", test_tid0_is_a_wildcard},
    {"TS mismatch misses", test_ts_mismatch_misses},
    {"shadow TID = !(guest TID)", test_shadow_tid_rule},
    {"PID change releases TID-0 shadows only",
     test_pid_change_releases_tid0_only},
    {"TLB full wraps round robin above hwater",
     test_tlb_full_wraps_round_robin},
    {"large page mapped 4 KB at a time",
     test_large_page_is_mapped_4k_at_a_time},
    {"guest supervisor gets U permissions",
     test_guest_supervisor_gets_user_permissions},
    {"user page permissions: KVM rule and union what-if",
     test_user_page_perms_kvm_rule_and_union_whatif},
    {"N host fills evict a guest entry, it re-faults",
     test_host_fills_evict_guest_entry_which_refaults},
    {"host access hits pinned and present",
     test_host_access_hits_pinned_and_present},
    {"guest tlbwe of valid entry invalidates",
     test_guest_tlbwe_of_valid_entry_invalidates_shadows},
    {"guest hit outside RAM is MMIO", test_guest_hit_outside_ram_is_mmio},
    {"vcpu_put/vcpu_load round trip", test_vcpu_put_load_round_trip},
    {"search memo agrees with a plain scan",
     test_search_memo_agrees_with_plain_scan},
    {"host access agrees with a plain scan",
     test_host_access_agrees_with_plain_scan},
    {"slot versions change with the slot",
     test_slot_versions_change_with_the_slot},
    {"bad geometry refused", test_bad_geometry_is_refused},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("tlb440", tests)
