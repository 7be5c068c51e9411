/* Tests of the one 440 decode table (model/insn440), shared by cpu440 and
 * the cycle model: no two rows overlapping, the illegal row last, every
 * instruction KVM/440 emulates (docs/kvm440.md §4) resolving to its row and
 * class, and the opcode index agreeing with a scan of the table. */
#include "insn440.h"
#include "ppc_enc.h"
#include "testlib.h"

static void test_no_two_rows_overlap(void)
{
    unsigned n;
    const insn_row *t = insn440_table(&n);
    for (unsigned i = 0; i + 1 < n; i++)
        for (unsigned j = i + 1; j + 1 < n; j++) {
            uint32_t common = t[i].mask & t[j].mask;
            bool overlap = ((t[i].match ^ t[j].match) & common) == 0;
            if (overlap)
                fprintf(stderr, "rows %s and %s overlap\n", t[i].mnemonic,
                        t[j].mnemonic);
            CU_ASSERT_FALSE(overlap);
        }
}

static void test_illegal_row_is_last_and_catches_all(void)
{
    unsigned n;
    const insn_row *t = insn440_table(&n);
    CU_ASSERT_EQUAL(t[n - 1].op, INSN_OP_ILLEGAL);
    CU_ASSERT_EQUAL(t[n - 1].mask, 0);
    CU_ASSERT_EQUAL(insn440_decode_op(0x00000000u), INSN_OP_ILLEGAL);
    CU_ASSERT_EQUAL(insn440_decode_op(E_ADDI(3, 3, 1)), INSN_OP_ILLEGAL);
}

static void test_rows_match_their_own_encoding(void)
{
    unsigned n;
    const insn_row *t = insn440_table(&n);
    for (unsigned i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(t[i].match & ~t[i].mask, 0);
        CU_ASSERT_EQUAL(insn440_decode_op(t[i].match), t[i].op);
    }
}

static void test_every_kvm_emulated_instruction_resolves(void)
{
    static const struct {
        uint32_t inst;
        insn_op op;
    } k[] = {
        {E_MFMSR(3), INSN_OP_MFMSR},
        {E_MTMSR(3), INSN_OP_MTMSR},
        {E_WRTEEI(1), INSN_OP_WRTEEI},
        {E_WRTEEI(0), INSN_OP_WRTEEI},
        {e_x(3, 0, 0, 131), INSN_OP_WRTEE},
        {E_RFI, INSN_OP_RFI},
        {E_MFSPR(3, 26), INSN_OP_MFSPR},
        {E_MTSPR(48, 3), INSN_OP_MTSPR},
        {E_MFDCR(3, 0xc0), INSN_OP_MFDCR},
        {E_MTDCR(0xc0, 3), INSN_OP_MTDCR},
        {E_TLBWE(3, 4, 0), INSN_OP_TLBWE},
        {E_TLBWE(3, 4, 2), INSN_OP_TLBWE},
        {E_TLBSX(3, 0, 4), INSN_OP_TLBSX},
        {E_TLBSX_DOT(3, 0, 4), INSN_OP_TLBSX},
        {E_TLBRE(3, 4, 1), INSN_OP_TLBRE},
        {E_ICCCI, INSN_OP_ICCCI},
        {E_DCBI(0, 4), INSN_OP_DCBI},
        {E_TLBSYNC, INSN_OP_TLBSYNC},
        {e_x(31, 0, 0, 4), INSN_OP_TW},
        {e_d(3, 4, 3, 0), INSN_OP_TWI},
        {E_LWZ(3, 0, 4), INSN_OP_LWZ},
        {E_STW(3, 0, 4), INSN_OP_STW},
        {E_LBZ(3, 5, 4), INSN_OP_LBZ},
        {E_STB(3, 5, 4), INSN_OP_STB},
        {e_d(40, 3, 4, 0), INSN_OP_LHZ},
        {e_d(44, 3, 4, 0), INSN_OP_STH},
        {e_d(42, 3, 4, 0), INSN_OP_LHA},
        {e_x(3, 4, 5, 23), INSN_OP_LWZX},
        {e_x(3, 4, 5, 151), INSN_OP_STWX},
        {e_x(3, 4, 5, 534), INSN_OP_LWBRX},
        {e_x(3, 4, 5, 662), INSN_OP_STWBRX},
        {e_x(3, 4, 5, 790), INSN_OP_LHBRX},
        {e_x(3, 4, 5, 918), INSN_OP_STHBRX},
        {E_LFD(1, 0, 4), INSN_OP_LFD},
        {E_STFD(1, 0, 4), INSN_OP_STFD},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        insn_op got = insn440_decode_op(k[i].inst);
        if (got != k[i].op)
            fprintf(stderr, "0x%08x: %s, expected %s\n", k[i].inst,
                    insn440_op_name(got), insn440_op_name(k[i].op));
        CU_ASSERT_EQUAL(got, k[i].op);
    }
}

static void test_every_kvm_emulated_instruction_has_its_class(void)
{
    static const struct {
        uint32_t inst;
        insn_class cls;
    } k[] = {
        {E_MFMSR(3), INSN_MFMSR},
        {E_MTMSR(3), INSN_MTMSR},
        {E_WRTEEI(1), INSN_WRTEE},
        {e_x(3, 0, 0, 131), INSN_WRTEE},
        {E_RFI, INSN_RFI},
        {0x4c000066u /* rfci */, INSN_RFI},
        {E_MFSPR(3, 26), INSN_MFSPR},
        {E_MTSPR(48, 3), INSN_MTSPR},
        {E_MFDCR(3, 0xc0), INSN_DCR},
        {E_MTDCR(0xc0, 3), INSN_DCR},
        {E_TLBWE(3, 4, 0), INSN_TLBWE},
        {E_TLBSX(3, 0, 4), INSN_TLBSX},
        {E_TLBRE(3, 4, 1), INSN_TLBRE},
        {E_ICCCI, INSN_CACHE},
        {E_DCBI(0, 4), INSN_CACHE},
        {E_TLBSYNC, INSN_CACHE},
        {e_x(31, 0, 0, 4), INSN_TRAP},
        {e_d(3, 4, 3, 0), INSN_TRAP},
        {E_LWZ(3, 0, 4), INSN_LOADSTORE},
        {E_STW(3, 0, 4), INSN_LOADSTORE},
        {e_x(3, 4, 5, 23), INSN_LOADSTORE},
        {e_x(3, 4, 5, 918), INSN_LOADSTORE},
        {E_LFD(1, 0, 4), INSN_ILLEGAL},
        {E_ADDI(3, 3, 1), INSN_ILLEGAL},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        insn_class got = insn440_decode(k[i].inst);
        if (got != k[i].cls)
            fprintf(stderr, "0x%08x: %s, expected %s\n", k[i].inst,
                    insn440_class_name(got), insn440_class_name(k[i].cls));
        CU_ASSERT_EQUAL(got, k[i].cls);
    }
}

/* The opcode index must give exactly the row a first-match scan gives: every
 * primary x extended opcode x Rc, with pseudo-random other fields, plus
 * random words. */
static void test_index_agrees_with_linear_scan(void)
{
    uint32_t x = 0x2545f491u; /* xorshift32 */
    unsigned bad = 0;
    for (uint32_t p = 0; p < 64; p++)
        for (uint32_t xo = 0; xo < 1024; xo++)
            for (uint32_t rc = 0; rc < 2; rc++) {
                x ^= x << 13, x ^= x >> 17, x ^= x << 5;
                uint32_t inst = p << 26 | (x & 0x03fff800u) | xo << 1 | rc;
                bad += insn440_lookup(inst) != insn440_lookup_linear(inst);
                bad += insn440_lookup(p << 26 | xo << 1 | rc) !=
                       insn440_lookup_linear(p << 26 | xo << 1 | rc);
            }
    for (unsigned i = 0; i < 1000000; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        bad += insn440_lookup(x) != insn440_lookup_linear(x);
    }
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_fields_and_mem_info(void)
{
    uint32_t i = E_MTSPR(946, 7); /* mtspr MMUCR, r7 */
    CU_ASSERT_EQUAL(insn440_spr(i), 946);
    CU_ASSERT_EQUAL(insn440_rt(i), 7);
    insn_mem m;
    CU_ASSERT_TRUE(insn440_mem_info(INSN_OP_LHAU, &m));
    CU_ASSERT_EQUAL(m.size, 2);
    CU_ASSERT_TRUE(m.update && m.algebraic && !m.store && !m.indexed);
    CU_ASSERT_TRUE(insn440_mem_info(INSN_OP_STWBRX, &m));
    CU_ASSERT_TRUE(m.store && m.byterev && m.indexed);
    CU_ASSERT_FALSE(insn440_mem_info(INSN_OP_MFMSR, &m));
    CU_ASSERT_TRUE(insn440_is_fp(INSN_OP_LFD));
    CU_ASSERT_FALSE(insn440_is_fp(INSN_OP_LWZ));
}

static CU_TestInfo tests[] = {
    {"no two rows overlap", test_no_two_rows_overlap},
    {"the illegal row is last and catches all",
     test_illegal_row_is_last_and_catches_all},
    {"each row matches its own encoding", test_rows_match_their_own_encoding},
    {"every KVM-emulated instruction resolves",
     test_every_kvm_emulated_instruction_resolves},
    {"every KVM-emulated instruction has its cost class",
     test_every_kvm_emulated_instruction_has_its_class},
    {"the opcode index agrees with a linear scan",
     test_index_agrees_with_linear_scan},
    {"fields and memory-access info", test_fields_and_mem_info},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("insn440", tests)
