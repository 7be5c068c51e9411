/* start: the guest kernel's assembly, shaped like Linux's head_44x.S /
 * entry_32.S where exits come from: boot through the reset TLB entry, the
 * pinned kernel entry, exception prologue/epilogue through SPRG scratch
 * registers and SRR0/1, the software TLB-miss handlers (tlbsx + three-word
 * tlbwe), context switch. With -DPV the SPR/MSR accesses Linux's kvm.c
 * patches become magic-page loads/stores (docs/kvm440.md §5). */
#include "kvm_para.h"

#define SPRN_SRR0 26
#define SPRN_SRR1 27
#define SPRN_PID 48
#define SPRN_DEAR 61
#define SPRN_IVPR 63
#define SPRN_SPRG0 272
#define SPRN_SPRG1 273
#define SPRN_SPRG2 274
#define SPRN_SPRG3 275
#define SPRN_MMUCR 946

#define FRAME 176 /* 16 bytes of ABI header + struct frame (38 words) */
#define F(n) (16 + 4 * (n))
#define F_CR F(32)
#define F_LR F(33)
#define F_CTR F(34)
#define F_XER F(35)
#define F_SRR0 F(36)
#define F_SRR1 F(37)

#ifdef PV
#define SH(off) (-4096 + KVM_SH_LO(off))(0)
#define MTSPRG0(r) stw r, SH(KVM_SH_SPRG0)
#define MTSPRG1(r) stw r, SH(KVM_SH_SPRG1)
#define MTSPRG2(r) stw r, SH(KVM_SH_SPRG2)
#define MTSPRG3(r) stw r, SH(KVM_SH_SPRG3)
#define MFSPRG0(r) lwz r, SH(KVM_SH_SPRG0)
#define MFSPRG1(r) lwz r, SH(KVM_SH_SPRG1)
#define MFSPRG2(r) lwz r, SH(KVM_SH_SPRG2)
#define MFSPRG3(r) lwz r, SH(KVM_SH_SPRG3)
#define MFSRR0(r) lwz r, SH(KVM_SH_SRR0)
#define MFSRR1(r) lwz r, SH(KVM_SH_SRR1)
#define MTSRR0(r) stw r, SH(KVM_SH_SRR0)
#define MTSRR1(r) stw r, SH(KVM_SH_SRR1)
#define MFDEAR(r) lwz r, SH(KVM_SH_DAR)
/* wrteei 0 template (r = scratch) */
#define IRQ_OFF(r) lwz r, SH(KVM_SH_MSR); rlwinm r, r, 0, 17, 15; \
                   stw r, SH(KVM_SH_MSR)
#else
#define MTSPRG0(r) mtspr SPRN_SPRG0, r
#define MTSPRG1(r) mtspr SPRN_SPRG1, r
#define MTSPRG2(r) mtspr SPRN_SPRG2, r
#define MTSPRG3(r) mtspr SPRN_SPRG3, r
#define MFSPRG0(r) mfspr r, SPRN_SPRG0
#define MFSPRG1(r) mfspr r, SPRN_SPRG1
#define MFSPRG2(r) mfspr r, SPRN_SPRG2
#define MFSPRG3(r) mfspr r, SPRN_SPRG3
#define MFSRR0(r) mfspr r, SPRN_SRR0
#define MFSRR1(r) mfspr r, SPRN_SRR1
#define MTSRR0(r) mtspr SPRN_SRR0, r
#define MTSRR1(r) mtspr SPRN_SRR1, r
#define MFDEAR(r) mfspr r, SPRN_DEAR
#define IRQ_OFF(r) wrteei 0
#endif

/* ---- boot: runs at EA 0 through the reset entry (16 MB at 0) ---- */
    .section .boot, "ax"
    .globl _start
_start:
#ifdef PV
    /* KVM_HC_PPC_MAP_MAGIC_PAGE(pa = ea = -4096), as kvm.c does first */
    lis     0, KVM_SC_MAGIC_R0@h
    ori     0, 0, KVM_SC_MAGIC_R0@l
    lis     11, 42
    ori     11, 11, KVM_HC_PPC_MAP_MAGIC_PAGE
    li      3, -4096
    li      4, -4096
    sc
#endif
    /* the kernel's pinned entry 63: 16 MB at 0xc0000000 -> 0, TID 0,
     * supervisor RWX (head_44x.S) */
    li      3, 0
    mtspr   SPRN_MMUCR, 3
    li      4, 63
    lis     3, 0xc000
    ori     3, 3, 0x200 | (7 << 4)
    tlbwe   3, 4, 0
    li      3, 0
    tlbwe   3, 4, 1
    li      3, 0x7
    tlbwe   3, 4, 2
    lis     3, kstart@h
    ori     3, 3, kstart@l
    mtspr   SPRN_SRR0, 3
    li      3, 0
    mtspr   SPRN_SRR1, 3
    rfi
    /* the boot argument the host may patch (physical 0x80, EA 0xc0000080):
     * which scenario init runs */
    .org 0x80
    .globl bootarg
bootarg: .long 0

/* ---- vectors: IVPR = 0xc0000000, IVORn = 0x1000 + 0x100 * n ---- */
    .section .text.vectors, "ax"
    .balign 4096
    .globl vectors
vectors:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12
    .balign 256
    MTSPRG0(1)
    MTSPRG1(3)
    mfcr    3 /* CR before anything in the prologue changes it */
    MTSPRG3(3)
    li      3, \n
    b       exc_common
    .endr
    .balign 256
    b       dtlb_miss /* 13 */
    .balign 256
    b       itlb_miss /* 14 */
    .balign 256
    MTSPRG0(1) /* 15 */
    MTSPRG1(3)
    mfcr    3
    MTSPRG3(3)
    li      3, 15
    b       exc_common

    .text
    .globl kstart
kstart:
    lis     1, boot_stack_top@h
    ori     1, 1, boot_stack_top@l
    li      0, 0
    stwu    0, -16(1)
    /* drop the boot identity entry 0 */
    li      3, 0
    li      4, 0
    tlbwe   3, 4, 0
    lis     3, 0xc000
    mtspr   SPRN_IVPR, 3
    bl      kmain
    b       .

/* ---- exception entry: SPRG0 = r1, SPRG1 = r3, SPRG3 = CR, r3 = vector
 * (entry_32.S: the prologue's andi. must not clobber the saved CR) ---- */
exc_common:
    MFSRR1(1)
    andi.   1, 1, 0x4000 /* from user mode? */
    beq     1f
    MFSPRG2(1) /* top of the current process's kernel stack */
    b       2f
1:  MFSPRG0(1) /* from the kernel: stay on its stack */
2:  subi    1, 1, FRAME
    stw     0, F(0)(1)
    stw     2, F(2)(1)
    stmw    4, F(4)(1)
    MFSPRG0(0)
    stw     0, F(1)(1)
    MFSPRG1(0)
    stw     0, F(3)(1)
    MFSPRG3(0)
    stw     0, F_CR(1)
    mflr    0
    stw     0, F_LR(1)
    mfctr   0
    stw     0, F_CTR(1)
    mfxer   0
    stw     0, F_XER(1)
    MFSRR0(0)
    stw     0, F_SRR0(1)
    MFSRR1(0)
    stw     0, F_SRR1(1)
    li      0, 0
    stw     0, 0(1)
    addi    4, 1, 16
    bl      exc_dispatch
    b       exc_return

    /* the return path on its own page, as entry_32.S's is far from the
     * vectors */
    .section .text.page10, "ax"
    .globl exc_return
exc_return:
    IRQ_OFF(0)
    lwz     0, F_SRR0(1)
    MTSRR0(0)
    lwz     0, F_SRR1(1)
    MTSRR1(0)
    lwz     0, F_CR(1)
    mtcrf   0xff, 0
    lwz     0, F_LR(1)
    mtlr    0
    lwz     0, F_CTR(1)
    mtctr   0
    lwz     0, F_XER(1)
    mtxer   0
    lwz     2, F(2)(1)
    lwz     3, F(3)(1)
    lmw     4, F(4)(1)
    lwz     0, F(0)(1)
    lwz     1, F(1)(1)
    rfi
    .text

/* ---- software TLB miss (head_44x.S DataTLBError/InstructionTLBError):
 * user pages from the current page table, tlbsx for an existing entry,
 * else the next round-robin index; three tlbwe ---- */
dtlb_miss:
    MTSPRG0(10)
    MTSPRG1(11)
    lis     10, tlb_save@ha
    addi    10, 10, tlb_save@l
    li      11, 13
    b       tlb_save_regs
itlb_miss:
    MTSPRG0(10)
    MTSPRG1(11)
    lis     10, tlb_save@ha
    addi    10, 10, tlb_save@l
    li      11, 14
tlb_save_regs:
    /* tlb_save: cr, vector, ea, r9, r12, r13 (SPRG0/1 hold r10/r11;
     * SPRG2 is the kernel stack pointer) */
    stw     11, 4(10)
    stw     9, 12(10)
    stw     12, 16(10)
    stw     13, 20(10)
    mfcr    11
    stw     11, 0(10)
    mr      12, 10
    lwz     11, 4(12)
    cmpwi   11, 13
    bne     1f
    MFDEAR(10)
    b       2f
1:  MFSRR0(10)
2:  stw     10, 8(12)
    /* user space is 0x10000000..0x100fffff */
    lis     11, 0x1000
    subf    11, 11, 10
    srwi.   12, 11, 20
    bne     tlb_fault
    srwi    11, 11, 12 /* page index */
    lis     12, cur_pgtab@ha
    lwz     12, cur_pgtab@l(12)
    slwi    11, 11, 2
    lwzx    12, 12, 11 /* pte */
    andi.   11, 12, 1 /* present */
    beq     tlb_fault
    /* MMUCR[STID] = PID, then look for an entry to overwrite */
    mfspr   11, SPRN_PID
    mtspr   SPRN_MMUCR, 11
    tlbsx.  13, 0, 10
    beq     3f
    lis     11, tlb_next@ha
    lwz     13, tlb_next@l(11)
    addi    13, 13, 1
    cmpwi   13, 62
    ble     4f
    li      13, 2
4:  stw     13, tlb_next@l(11)
3:  /* word 2: SR|UR always, SW|UW if dirty, SX|UX if exec-ok */
    li      9, 0x09
    andi.   11, 12, 4
    beq     5f
    ori     9, 9, 0x12
5:  andi.   11, 12, 8
    beq     6f
    ori     9, 9, 0x24
6:  rlwinm  10, 10, 0, 0, 19
    ori     10, 10, 0x200 | (1 << 4)
    tlbwe   10, 13, 0
    rlwinm  12, 12, 0, 0, 19
    tlbwe   12, 13, 1
    tlbwe   9, 13, 2
    lis     12, tlb_save@ha
    addi    12, 12, tlb_save@l
    lwz     11, 0(12)
    mtcrf   0xff, 11
    lwz     9, 12(12)
    lwz     13, 20(12)
    lwz     12, 16(12)
    MFSPRG0(10)
    MFSPRG1(11)
    rfi
tlb_fault:
    /* not in the page table: the C page-fault path, as vector 13/14 */
    lis     12, tlb_save@ha
    addi    12, 12, tlb_save@l
    lwz     11, 0(12)
    mtcrf   0xff, 11
    lwz     9, 12(12)
    lwz     13, 20(12)
    lwz     12, 16(12)
    MFSPRG0(10)
    MFSPRG1(11)
    MTSPRG0(1)
    MTSPRG1(3)
    mfcr    3
    MTSPRG3(3)
    lis     3, tlb_save@ha
    addi    3, 3, tlb_save@l
    lwz     3, 4(3)
    b       exc_common

/* switch_to(&prev->ksp, next_ksp): callee-saved state on the stacks */
    .globl switch_to
switch_to:
    stwu    1, -96(1)
    mflr    0
    stw     0, 8(1)
    mfcr    0
    stw     0, 12(1)
    stmw    14, 16(1)
    stw     1, 0(3)
    mr      1, 4
    lwz     0, 8(1)
    mtlr    0
    lwz     0, 12(1)
    mtcrf   0xff, 0
    lmw     14, 16(1)
    addi    1, 1, 96
    blr

    .globl ret_from_fork
ret_from_fork:
    b       exc_return

/* user programs (workloads/guest/user.c linked at 0x10000000) */
    .section .rodata
    .balign 4096
    .globl user_image, user_image_end
user_image:
    .incbin USER_BIN
user_image_end:

    .bss
    .balign 16
    .space 8192
    .globl boot_stack_top
boot_stack_top:
    .globl tlb_save
tlb_save: .space 24
