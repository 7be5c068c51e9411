/* Tests of the cpu440 decoder (cpu440/decode): one match/mask table, no two
 * rows overlapping, the illegal row last, and every instruction KVM/440
 * emulates (reference §4) resolving to its row. */
#include "decode.h"
#include "ppc_enc.h"
#include "testlib.h"

static void test_no_two_rows_overlap(void)
{
    unsigned n;
    const decode_row *t = decode_table(&n);
    for (unsigned i = 0; i + 1 < n; i++)
        for (unsigned j = i + 1; j + 1 < n; j++) {
            uint32_t common = t[i].mask & t[j].mask;
            bool overlap = ((t[i].match ^ t[j].match) & common) == 0;
            if (overlap)
                fprintf(stderr, "rows %s and %s overlap\n", t[i].name,
                        t[j].name);
            CU_ASSERT_FALSE(overlap);
        }
}

static void test_illegal_row_is_last_and_catches_all(void)
{
    unsigned n;
    const decode_row *t = decode_table(&n);
    CU_ASSERT_EQUAL(t[n - 1].op, DOP_ILLEGAL);
    CU_ASSERT_EQUAL(t[n - 1].mask, 0);
    CU_ASSERT_EQUAL(decode(0x00000000u), DOP_ILLEGAL);
    CU_ASSERT_EQUAL(decode(E_ADDI(3, 3, 1)), DOP_ILLEGAL);
}

static void test_rows_match_their_own_encoding(void)
{
    unsigned n;
    const decode_row *t = decode_table(&n);
    for (unsigned i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(t[i].match & ~t[i].mask, 0);
        CU_ASSERT_EQUAL(decode(t[i].match), t[i].op);
    }
}

static void test_every_kvm_emulated_instruction_resolves(void)
{
    static const struct {
        uint32_t inst;
        decode_op op;
    } k[] = {
        {E_MFMSR(3), DOP_MFMSR},         {E_MTMSR(3), DOP_MTMSR},
        {E_WRTEEI(1), DOP_WRTEEI},       {E_WRTEEI(0), DOP_WRTEEI},
        {e_x(3, 0, 0, 131), DOP_WRTEE},  {E_RFI, DOP_RFI},
        {E_MFSPR(3, 26), DOP_MFSPR},     {E_MTSPR(48, 3), DOP_MTSPR},
        {E_MFDCR(3, 0xc0), DOP_MFDCR},   {E_MTDCR(0xc0, 3), DOP_MTDCR},
        {E_TLBWE(3, 4, 0), DOP_TLBWE},   {E_TLBWE(3, 4, 2), DOP_TLBWE},
        {E_TLBSX(3, 0, 4), DOP_TLBSX},   {E_TLBSX_DOT(3, 0, 4), DOP_TLBSX},
        {E_TLBRE(3, 4, 1), DOP_TLBRE},   {E_ICCCI, DOP_ICCCI},
        {E_DCBI(0, 4), DOP_DCBI},        {E_TLBSYNC, DOP_TLBSYNC},
        {e_x(31, 0, 0, 4), DOP_TW},      {e_d(3, 4, 3, 0), DOP_TWI},
        {E_LWZ(3, 0, 4), DOP_LWZ},       {E_STW(3, 0, 4), DOP_STW},
        {E_LBZ(3, 5, 4), DOP_LBZ},       {E_STB(3, 5, 4), DOP_STB},
        {e_d(40, 3, 4, 0), DOP_LHZ},     {e_d(44, 3, 4, 0), DOP_STH},
        {e_d(42, 3, 4, 0), DOP_LHA},     {e_x(3, 4, 5, 23), DOP_LWZX},
        {e_x(3, 4, 5, 151), DOP_STWX},   {e_x(3, 4, 5, 534), DOP_LWBRX},
        {e_x(3, 4, 5, 662), DOP_STWBRX}, {e_x(3, 4, 5, 790), DOP_LHBRX},
        {e_x(3, 4, 5, 918), DOP_STHBRX}, {E_LFD(1, 0, 4), DOP_LFD},
        {E_STFD(1, 0, 4), DOP_STFD},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        decode_op got = decode(k[i].inst);
        if (got != k[i].op)
            fprintf(stderr, "0x%08x: %s, expected %s\n", k[i].inst,
                    decode_name(got), decode_name(k[i].op));
        CU_ASSERT_EQUAL(got, k[i].op);
    }
}

static void test_fields_and_mem_info(void)
{
    uint32_t i = E_MTSPR(946, 7); /* mtspr MMUCR, r7 */
    CU_ASSERT_EQUAL(dec_spr(i), 946);
    CU_ASSERT_EQUAL(dec_rt(i), 7);
    decode_mem m;
    CU_ASSERT_TRUE(decode_mem_info(DOP_LHAU, &m));
    CU_ASSERT_EQUAL(m.size, 2);
    CU_ASSERT_TRUE(m.update && m.algebraic && !m.store && !m.indexed);
    CU_ASSERT_TRUE(decode_mem_info(DOP_STWBRX, &m));
    CU_ASSERT_TRUE(m.store && m.byterev && m.indexed);
    CU_ASSERT_FALSE(decode_mem_info(DOP_MFMSR, &m));
    CU_ASSERT_TRUE(decode_is_fp(DOP_LFD));
    CU_ASSERT_FALSE(decode_is_fp(DOP_LWZ));
}

static CU_TestInfo tests[] = {
    {"no two rows overlap", test_no_two_rows_overlap},
    {"the illegal row is last and catches all",
     test_illegal_row_is_last_and_catches_all},
    {"each row matches its own encoding", test_rows_match_their_own_encoding},
    {"every KVM-emulated instruction resolves",
     test_every_kvm_emulated_instruction_resolves},
    {"fields and memory-access info", test_fields_and_mem_info},
    CU_TEST_INFO_NULL,
};

TEST_MAIN("decode", tests)
