/* booke_msr: the BookE MSR bits (PPC440x5 UM, asm/reg_booke.h), shared by
 * cpu440 and the guest kernel of workloads/guest (built with -Icpu440, as
 * kvm_para.h is). Plain #defines. */
#ifndef BOOKE_MSR_H
#define BOOKE_MSR_H

#define MSR_WE 0x00040000u
#define MSR_CE 0x00020000u
#define MSR_EE 0x00008000u
#define MSR_PR 0x00004000u
#define MSR_FP 0x00002000u
#define MSR_ME 0x00001000u
#define MSR_DE 0x00000200u
#define MSR_IS 0x00000020u
#define MSR_DS 0x00000010u

#endif
