/* iss: the thin harness around Unicorn 2.0.1 that executes the guest's
 * unprivileged instructions (PPC32 big-endian, 405D4 CPU model, problem
 * state), after Unicorn's samples/sample_ppc.c. Measured behaviour it relies
 * on is in docs/cpu440.md ("What Unicorn 2.0.1 does"); the choices it adds
 * are explained there too ("How the shadow TLB reaches Unicorn").
 *
 * Address spaces. The guest runs with Unicorn's MSR = PR|IR|DR, so every
 * fetch and access is translated by the 405's own 64-entry software TLB
 * inside Unicorn: those 64 slots ARE the hardware UTLB of the simulated 440
 * (slots 0..62 for shadow entries, 63 pinned). Unicorn's memory regions are
 * the guest-physical space (RAM, the host stub page, devices, the PV magic
 * page). Unicorn 2.0.1 checks the *effective* address against its region
 * list before translating, so the rest of the 32-bit space is covered by an
 * untouched "presence" region that no access ever reaches (translation
 * always picks a physical page first). */
#ifndef ISS_H
#define ISS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim_err.h"

/* Unicorn's PC in an interrupt hook is the faulting instruction + 4 for
 * every interrupt number we use (2, 3, 6, 7, 8, 13, 14 and 96 = illegal);
 * for `sc` that is the architectural SRR0. Measured, not documented. */
#define ISS_PC_SKEW 4u

/* Interrupt numbers Unicorn reports (QEMU POWERPC_EXCP_*, which equal the
 * BookE numbers for these) plus its number for an illegal instruction. */
enum {
    ISS_INT_DSI = 2,
    ISS_INT_ISI = 3,
    ISS_INT_PROGRAM = 6,
    ISS_INT_FPU = 7,
    ISS_INT_SYSCALL = 8,
    ISS_INT_DTLB = 13,
    ISS_INT_ITLB = 14,
    ISS_INT_ILLEGAL = 96,
};

/* Physical layout of Unicorn's regions. */
#define ISS_UART_PA   0xef600000u /* 4 KiB device page (uc_mmio_map) */
#define ISS_MAGIC_PA  0xfffff000u /* PV magic page, EA = PA = -4096 */
#define ISS_TLB_SLOTS 64          /* the 405/440 UTLB */

typedef struct iss iss;

/* Callbacks from Unicorn's hooks into the core (cpu440). */
typedef struct iss_hooks {
    void *ctx;
    /* An interrupt while the guest ran; pc is Unicorn's (fault + 4). */
    void (*intr)(void *ctx, unsigned intno, uint32_t pc);
    /* A translation block of n instructions starts at pc (not yet run). */
    void (*block)(void *ctx, uint32_t pc, uint32_t n);
    /* The guest is about to execute the registered instruction at pc
     * (iss_hook_insn): emulate it and set the PC past it. */
    void (*insn)(void *ctx, uint32_t pc);
    /* Device page accesses (offset in page, size 1/2/4, value in register
     * order). */
    uint32_t (*mmio_read)(void *ctx, uint32_t off, unsigned size);
    void (*mmio_write)(void *ctx, uint32_t off, unsigned size, uint32_t v);
} iss_hooks;

typedef struct iss_config {
    uint32_t ram_bytes; /* guest RAM at physical 0, multiple of 4 KiB */
} iss_config;

/* Opens Unicorn, maps the regions and installs the hooks. */
SIM_MUST_CHECK sim_err iss_open(iss **out, const iss_config *c,
                                const iss_hooks *h);
void iss_close(iss *s);

/* Host view of guest RAM (big-endian data) and of the magic page. */
uint8_t *iss_ram(iss *s);
uint32_t iss_ram_bytes(const iss *s);
uint8_t *iss_magic(iss *s);

/* Runs the guest from pc with the current registers until iss_stop or an
 * error. */
SIM_MUST_CHECK sim_err iss_run(iss *s, uint32_t pc);
/* Asks iss_run to return after the current hook; the guest's next PC
 * then is iss_resume_pc. */
void iss_stop(iss *s);
uint32_t iss_resume_pc(const iss *s);
bool iss_stopped(const iss *s);

/* Guest registers (only from hooks or between runs). */
uint32_t iss_gpr(iss *s, unsigned n);
void iss_set_gpr(iss *s, unsigned n, uint32_t v);
uint32_t iss_pc(iss *s);
void iss_set_pc(iss *s, uint32_t pc); /* redirects execution */
uint32_t iss_cr(iss *s);
void iss_set_cr(iss *s, uint32_t cr);
uint32_t iss_xer(iss *s);
void iss_set_xer(iss *s, uint32_t v);

/* Shadow TLB slot writes. They are queued and carried out by a 10-word
 * privileged stub that runs in real mode when the current hook returns
 * (tlbwe of the 405 through Unicorn itself: there is no API for it); the
 * guest's registers, MSR and PC are restored afterwards, so the guest never
 * sees the stub. A slot write invalidates QEMU's cached translations of the
 * old and new page, so an overwritten entry really faults again. */
/* Maps the 4 KiB page at ea to physical pa in slot, with TID tid (0
 * matches every PID, as on the 440). */
void iss_tlb_set(iss *s, unsigned slot, uint32_t ea, uint32_t pa, unsigned tid,
                 bool exec, bool write);
void iss_tlb_clear(iss *s, unsigned slot);
/* The same entry as the slot already holds, written again only to flush
 * its page from QEMU's translation cache: cheaper than iss_tlb_set. */
void iss_tlb_rewrite(iss *s, unsigned slot, uint32_t ea, uint32_t pa,
                     unsigned tid, bool exec, bool write);
/* The PID the entries are matched against (the shadow PID: 1 in guest
 * supervisor mode, 0 in guest user mode). QEMU 5 does not flush its
 * translation cache on a PID write, so the caller rewrites the entries a
 * new PID must stop matching (cpu440 does it for TID 1 on a switch to 0). */
void iss_set_pid(iss *s, unsigned pid);
/* SPRG4-7 (n = 4..7), which the guest reads natively in problem state
 * (SPRG4R-7R, no exit on a 440): Unicorn has no register API for them, so
 * the stub sets its copies when the current hook returns. */
void iss_set_sprg(iss *s, unsigned n, uint32_t v);
/* Stub runs so far (each serves every write queued by one hook). */
uint64_t iss_stub_runs(const iss *s);

/* Physical-address access through Unicorn's own memory map, so device
 * pages reach their uc_mmio_map callbacks (KVM's MMIO emulation path).
 * size 1, 2 or 4; value in register order. False if nothing is mapped. */
bool iss_phys_read(iss *s, uint32_t pa, unsigned size, uint32_t *v);
bool iss_phys_write(iss *s, uint32_t pa, unsigned size, uint32_t v);

/* Intercepts the instruction at ea before it executes (hooks.insn). Used
 * for mftb, which crashes Unicorn 2.0.1. */
SIM_MUST_CHECK sim_err iss_hook_insn(iss *s, uint32_t ea);

#endif
