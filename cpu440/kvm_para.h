/* kvm_para: the PV interface between a guest and KVM/PPC as of 2.6.37-3.x
 * (Documentation/virtual/kvm/ppc-pv.txt, asm/kvm_para.h, struct
 * kvm_vcpu_arch_shared): hypercall ABI and the magic page layout. Plain
 * #defines, included by cpu440 and by the guest kernel (workloads/). */
#ifndef KVM_PARA_H
#define KVM_PARA_H

/* `sc` in guest supervisor mode with r0 = 'KVM!' is a hypercall. */
#define KVM_SC_MAGIC_R0 0x4b564d21
/* r11 = KVM_HCALL_TOKEN(nr): the KVM vendor id 42 in the upper half. */
#define KVM_HCALL_TOKEN(nr)       ((42 << 16) | (nr))
#define KVM_HC_FEATURES           3
#define KVM_HC_PPC_MAP_MAGIC_PAGE 4
#define KVM_FEATURE_MAGIC_PAGE    1
/* Linux maps the page at EA = PA = -4096, reached by absolute addressing. */
#define KVM_MAGIC_PAGE 0xfffff000

/* struct kvm_vcpu_arch_shared: u64 fields big-endian; a 32-bit guest uses
 * the low word at offset + 4 (kvm.c kvm_patch_ins_lwz/stw). */
#define KVM_SH_SCRATCH1    0
#define KVM_SH_SCRATCH2    8
#define KVM_SH_SCRATCH3    16
#define KVM_SH_CRITICAL    24
#define KVM_SH_SPRG0       32
#define KVM_SH_SPRG1       40
#define KVM_SH_SPRG2       48
#define KVM_SH_SPRG3       56
#define KVM_SH_SRR0        64
#define KVM_SH_SRR1        72
#define KVM_SH_DAR         80 /* DEAR on BookE */
#define KVM_SH_MSR         88
#define KVM_SH_DSISR       96  /* u32 */
#define KVM_SH_INT_PENDING 100 /* u32 */
#define KVM_SH_ESR         200 /* u32 */
#define KVM_SH_PIR         204 /* u32 */
#define KVM_SH_SPRG4       208
#define KVM_SH_SPRG5       216
#define KVM_SH_SPRG6       224
#define KVM_SH_SPRG7       232
/* Offset of the 32-bit value of a u64 field. */
#define KVM_SH_LO(off) ((off) + 4)

#endif
