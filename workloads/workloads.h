/* workloads: the guest programs `sim record` and `sim microbench` run on
 * cpu440 (workloads/guest/, built at build time with the powerpc cross
 * toolchain and embedded), each with its console script. */
#ifndef WORKLOADS_H
#define WORKLOADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu440.h"
#include "sim_err.h"

typedef struct workload {
    const char *name;
    const char *summary;
    const unsigned char *image, *image_pv; /* image_pv NULL: no PV flavour */
    const size_t *size, *size_pv;
    const char *input; /* lines typed on the console */
    uint32_t bootarg;  /* patched at physical 0x80: the scenario init runs */
    double think_s;    /* seconds before each line */
    /* An image read from the build tree at run time instead of an embedded
     * one (the Linux guest): its loader, and the machine it expects. */
    bool external, has_pv;
    uint32_t ram_bytes; /* 0: cpu440's default */
    uint64_t tb_hz;     /* 0: cpu440's default */
} workload;

const workload *workloads_list(unsigned *n);
const workload *workload_find(const char *name);

bool workload_has_pv(const workload *w);
/* The machine the workload expects, on top of cpu440's defaults. */
void workload_config(const workload *w, cpu440_config *c);

/* Where the Linux guest image is (vmlinux, sim440.dtb, sim440-pv.dtb):
 * <build>/linux unless set. */
void workloads_set_linux_dir(const char *dir);
const char *workloads_linux_dir(void);
/* Loads vmlinux and the (PV) device tree from dir, entered as QEMU's
 * bamboo loader entered KVM guests (workloads/linux_boot.c). */
SIM_MUST_CHECK sim_err linux_boot_load(cpu440 *cpu, const char *dir, bool pv);

/* Loads the kernel image (physical 0; kernel text linked at 0xc0000000)
 * and the console script into a new core. */
SIM_MUST_CHECK sim_err workload_load(const workload *w, bool pv, cpu440 *cpu);

#endif
