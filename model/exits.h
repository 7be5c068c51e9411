/* exits: the KVM/440 exit-timing taxonomy, declared once.
 * Names are spelled exactly as the kernel's kvm_exit_names[] (arch/powerpc/kvm/
 * timing.c, 2.6.29+), in its enum order, with the two out-of-tree rows of the
 * seed's PV table (DTLBPV, HCALL) appended. Everything else (enum, names,
 * table rows, trace footer slots) is generated from EXIT_LIST. */
#ifndef EXITS_H
#define EXITS_H

#include <stdbool.h>
#include <stdint.h>

/* Flags per type. */
#define EXF_HEAVY 0x01u /* goes to user space (QEMU): vcpu_put/vcpu_load paid */
#define EXF_TIMED 0x02u /* arrives at a rate per wall-clock second */
#define EXF_EMUL 0x04u  /* an EMUL_* subtype of EMULINST */
#define EXF_PSEUDO 0x08u /* not an exit: TIMEINGUEST */

/*     enum tail     kernel name     flags */
#define EXIT_LIST(X)                                   \
    X(MMIO, "MMIO", EXF_HEAVY)                         \
    X(DCR, "DCR", EXF_HEAVY)                           \
    X(SIGNAL, "SIGNAL", EXF_HEAVY | EXF_TIMED)         \
    X(ITLBREAL, "ITLBREAL", 0)                         \
    X(ITLBVIRT, "ITLBVIRT", 0)                         \
    X(DTLBREAL, "DTLBREAL", 0)                         \
    X(DTLBVIRT, "DTLBVIRT", 0)                         \
    X(SYSCALL, "SYSCALL", 0)                           \
    X(ISI, "ISI", 0)                                   \
    X(DSI, "DSI", 0)                                   \
    X(EMULINST, "EMULINST", 0)                         \
    X(EMUL_WAIT, "EMUL_WAIT", EXF_EMUL)                \
    X(EMUL_WRTEE, "EMUL_WRTEE", EXF_EMUL)              \
    X(EMUL_MTSPR, "EMUL_MTSPR", EXF_EMUL)              \
    X(EMUL_MFSPR, "EMUL_MFSPR", EXF_EMUL)              \
    X(EMUL_MTMSR, "EMUL_MTMSR", EXF_EMUL)              \
    X(EMUL_MFMSR, "EMUL_MFMSR", EXF_EMUL)              \
    X(EMUL_TLBSX, "EMUL_TLBSX", EXF_EMUL)              \
    X(EMUL_TLBWE, "EMUL_TLBWE", EXF_EMUL)              \
    X(EMUL_RFI, "EMUL_RFI", EXF_EMUL)                  \
    X(DEC, "DEC", EXF_TIMED)                           \
    X(EXTINT, "EXTINT", EXF_TIMED)                     \
    X(HALT, "HALT", 0)                                 \
    X(USR_PR_INST, "USR_PR_INST", 0)                   \
    X(FP_UNAVAIL, "FP_UNAVAIL", 0)                     \
    X(DEBUG, "DEBUG", EXF_HEAVY)                       \
    X(TIMEINGUEST, "TIMEINGUEST", EXF_PSEUDO)          \
    X(DTLBPV, "DTLBPV", 0)                             \
    X(HCALL, "HCALL", 0)

typedef enum exit_type {
#define X(e, n, f) EXIT_##e,
    EXIT_LIST(X)
#undef X
        EXIT__COUNT
} exit_type;

/* Kernel name of a type ("EMULINST"); NULL if t is out of range. */
const char *exit_name(exit_type t);
/* Type from its exact kernel name; -1 if unknown. */
int exit_from_name(const char *name);
/* Like exit_from_name for a name of len bytes (not NUL-terminated). */
int exit_from_namen(const char *name, unsigned len);
/* The known name closest to an unknown one (for "did you mean"). */
const char *exit_nearest_name(const char *name);
unsigned exit_flags(exit_type t);
static inline bool exit_is_emul(exit_type t)
{
    return (exit_flags(t) & EXF_EMUL) != 0;
}
/* EMUL_* subtypes fold into EMULINST when a table is printed with one row
 * for all emulation (as the seed's table is); other types map to themselves. */
static inline exit_type exit_fold(exit_type t)
{
    return exit_is_emul(t) ? EXIT_EMULINST : t;
}

/* BookE interrupt numbers (BOOKE_INTERRUPT_*), as kvm_exit's exit_nr. */
#define BOOKE_IRQ_LIST(X)          \
    X(CRITICAL, 0)                 \
    X(MACHINE_CHECK, 1)            \
    X(DATA_STORAGE, 2)             \
    X(INST_STORAGE, 3)             \
    X(EXTERNAL, 4)                 \
    X(ALIGNMENT, 5)                \
    X(PROGRAM, 6)                  \
    X(FP_UNAVAIL, 7)               \
    X(SYSCALL, 8)                  \
    X(AP_UNAVAIL, 9)               \
    X(DECREMENTER, 10)             \
    X(FIT, 11)                     \
    X(WATCHDOG, 12)                \
    X(DTLB_MISS, 13)               \
    X(ITLB_MISS, 14)               \
    X(DEBUG, 15)

enum booke_irq {
#define X(n, v) BOOKE_IRQ_##n = v,
    BOOKE_IRQ_LIST(X)
#undef X
};
/* Name of a BookE interrupt number ("PROGRAM"); NULL if not a known one. */
const char *booke_irq_name(unsigned irq);
/* Number from name; -1 if unknown. */
int booke_irq_from_name(const char *name);
/* The interrupt that normally causes an exit type (e.g. DTLBVIRT -> 13);
 * -1 for TIMEINGUEST / HALT. */
int exit_default_irq(exit_type t);

#endif
