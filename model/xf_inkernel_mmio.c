/* xf_inkernel_mmio: MMIO decoded and served in the kernel (docs/whatif.md
 * "inkernel-mmio"). Up to 3.8 every guest access to a page outside RAM is
 * emulated by kvmppc_emulate_mmio and handed to QEMU (KVM_EXIT_MMIO): a
 * heavy exit with the KVM_RUN return, vcpu_put/vcpu_load and the QEMU
 * round trip. 3.9 added kvm_io_bus devices (virt/kvm/kvm_main.c
 * kvm_io_bus_write, reached from powerpc.c kvmppc_handle_store/load) that
 * answer in the kernel. The what-if puts every MMIO device there: the MMIO
 * exit stays (the DTLB miss and the emulation still happen, still charged
 * as MMIO) but becomes light - the model's cost_set_mmio_in_kernel. Shorter
 * exits, no QEMU pages evicting guest shadows: the run shortens, the
 * time-driven exits and the VIRT misses follow. */
#include <stdlib.h>

#include "whatif.h"

static sim_err mmio_parse(void **state, const char *opts)
{
    return xf_parse_none("inkernel-mmio", state, opts);
}

static void mmio_model(void *state, cost_model *m)
{
    (void)state;
    cost_set_mmio_in_kernel(m, true);
}

static void mmio_exit(void *state, whatif_env *env, xf_exit *x)
{
    (void)state;
    (void)env;
    if (x->rec.type == EXIT_MMIO) /* no longer a trip to user space */
        x->rec.flags &= (uint8_t)~TRF_USERSPACE;
}

const xf_ops xf_inkernel_mmio = {
    .name = "inkernel-mmio",
    .options = "",
    .summary = "MMIO served by in-kernel devices: no QEMU round trip",
    .parse = mmio_parse,
    .model = mmio_model,
    .exit = mmio_exit,
};
