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
} workload;

const workload *workloads_list(unsigned *n);
const workload *workload_find(const char *name);

/* Loads the kernel image (physical 0; kernel text linked at 0xc0000000)
 * and the console script into a new core. */
SIM_MUST_CHECK sim_err workload_load(const workload *w, bool pv, cpu440 *cpu);

#endif
