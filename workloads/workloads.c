/* workloads: the registry of guest programs (workloads/guest/) embedded by
 * workloads/embed.cmake. */
#include "workloads.h"

#include <string.h>

extern const unsigned char wl_kernel_nopv[], wl_kernel_pv[], wl_kernel_bench[];
extern const size_t wl_kernel_nopv_size, wl_kernel_pv_size,
    wl_kernel_bench_size;

static const workload k_workloads[] = {
    {"boot",
     "boot the guest kernel, log in as root, run ls twice, halt "
     "(the seed's scenario); a background job runs meanwhile",
     wl_kernel_nopv, wl_kernel_pv, &wl_kernel_nopv_size, &wl_kernel_pv_size,
     "root\nls\nls\nhalt\n", 0, 0.25, false, false, 0, 0},
    {"compute",
     "boot, then init runs the background job's work without syscalls and "
     "halts (the reference for the hook-free rate in bench/)",
     wl_kernel_nopv, wl_kernel_pv, &wl_kernel_nopv_size, &wl_kernel_pv_size, "",
     1, 0, false, false, 0, 0},
    {"microbench",
     "trap-cost microbenchmark (kvm-unit-tests style), one line per trap kind",
     wl_kernel_bench, NULL, &wl_kernel_bench_size, NULL, "", 0, 0, false, false,
     0, 0},
    {"linux-boot",
     "boot the unmodified Linux 6.1 44x kernel of workloads/linux/ to its "
     "init, list /, power off (image from the build tree: target "
     "linux-image)",
     NULL, NULL, NULL, NULL, "", 0, 0, true, true, 128u << 20, 400000000u},
};

#ifndef SIM_LINUX_DIR
#define SIM_LINUX_DIR "build/linux"
#endif
static const char *g_linux_dir = SIM_LINUX_DIR;

void workloads_set_linux_dir(const char *dir)
{
    g_linux_dir = dir;
}

const char *workloads_linux_dir(void)
{
    return g_linux_dir;
}

bool workload_has_pv(const workload *w)
{
    return w->external ? w->has_pv : w->image_pv != NULL;
}

void workload_config(const workload *w, cpu440_config *c)
{
    if (w->think_s > 0)
        c->think_s = w->think_s;
    if (w->ram_bytes)
        c->ram_bytes = w->ram_bytes;
    if (w->tb_hz)
        c->tb_hz = w->tb_hz;
}

const workload *workloads_list(unsigned *n)
{
    *n = sizeof k_workloads / sizeof k_workloads[0];
    return k_workloads;
}

const workload *workload_find(const char *name)
{
    for (size_t i = 0; i < sizeof k_workloads / sizeof k_workloads[0]; i++)
        if (!strcmp(k_workloads[i].name, name))
            return &k_workloads[i];
    return NULL;
}

sim_err workload_load(const workload *w, bool pv, cpu440 *cpu)
{
    if (pv && !workload_has_pv(w))
        return sim_fail(SIM_ERR_USAGE, "workload %s has no PV flavour",
                        w->name);
    if (w->external)
        return linux_boot_load(cpu, g_linux_dir, pv);
    const unsigned char *img = pv ? w->image_pv : w->image;
    size_t n = pv ? *w->size_pv : *w->size;
    if (n < 0x84)
        return sim_fail(SIM_ERR_FORMAT,
                        "workload %s: image of %zu bytes "
                        "is too short",
                        w->name, n);
    sim_err e = cpu440_load(cpu, 0, 0xc0000000u, img, n);
    if (e == SIM_OK && w->bootarg) {
        uint8_t arg[4] = {(uint8_t)(w->bootarg >> 24),
                          (uint8_t)(w->bootarg >> 16),
                          (uint8_t)(w->bootarg >> 8), (uint8_t)w->bootarg};
        e = cpu440_load(cpu, 0x80, 0xc0000080u, arg, 4);
    }
    if (e == SIM_OK && w->input[0])
        e = cpu440_set_input(cpu, w->input);
    return e;
}
