/* linux_boot: an unmodified Linux 44x kernel (workloads/linux/, built by
 * `cmake --build <build> --target linux-image`) loaded into cpu440 the way
 * QEMU's bamboo machine loaded KVM guests on 440: the vmlinux ELF's
 * segments at their physical addresses, the device tree at 24 MB, r3
 * pointing at it, r1 = 16 MB - 8, one 256 MB TLB entry at 0, entry at the
 * physical entry point (docs/linux-guest.md, plan step 1). The ELF is read
 * with libelf (elfutils). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workloads.h"

#define LINUX_DTB_PA   (24u << 20)
#define LINUX_STACK_PA ((16u << 20) - 8u)
#define LINUX_PAGE_OFFSET 0xc0000000u

static sim_err read_file(const char *path, unsigned char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return sim_fail(SIM_ERR_IO,
                        "%s: %s (build the Linux guest image with `cmake "
                        "--build <build> --target linux-image`, after "
                        "workloads/linux/install-deps.sh; or give "
                        "--linux-dir)",
                        path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) ||
        st.st_size <= 0 || st.st_size > (64 << 20)) {
        fclose(f);
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: not a regular file of 1 byte to 64 MiB", path);
    }
    *len = (size_t)st.st_size;
    *data = malloc(*len);
    if (!*data) {
        fclose(f);
        return sim_fail(SIM_ERR_NOMEM, "%s: out of memory", path);
    }
    size_t got = fread(*data, 1, *len, f);
    fclose(f);
    if (got != *len) {
        free(*data);
        *data = NULL;
        return sim_fail(SIM_ERR_IO, "%s: short read at byte %zu", path, got);
    }
    return SIM_OK;
}

static sim_err elf_bad(const char *path, const char *what)
{
    return sim_fail(SIM_ERR_FORMAT, "%s: %s", path, what);
}

/* Copies every PT_LOAD segment to its physical address (the BSS tail is
 * RAM's zero) and hooks the timebase reads in every executable section. */
static sim_err load_elf(cpu440 *cpu, const char *path, uint32_t *entry)
{
    unsigned char *img;
    size_t len;
    sim_err e = read_file(path, &img, &len);
    if (e != SIM_OK)
        return e;
    if (elf_version(EV_CURRENT) == EV_NONE) {
        free(img);
        return sim_fail(SIM_ERR_UNSUPP, "libelf: %s", elf_errmsg(-1));
    }
    Elf *elf = elf_memory((char *)img, len);
    GElf_Ehdr eh;
    size_t nph = 0;
    if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
        e = elf_bad(path, "not an ELF file");
        goto out;
    }
    if (eh.e_ident[EI_CLASS] != ELFCLASS32 ||
        eh.e_ident[EI_DATA] != ELFDATA2MSB || eh.e_machine != EM_PPC ||
        eh.e_type != ET_EXEC) {
        e = elf_bad(path, "not a 32-bit big-endian PowerPC executable "
                          "(expected the kernel's vmlinux)");
        goto out;
    }
    if (elf_getphdrnum(elf, &nph) != 0 || nph == 0) {
        e = elf_bad(path, "no program headers");
        goto out;
    }
    /* the physical entry: the segment holding e_entry */
    bool have_entry = false;
    for (size_t i = 0; i < nph && e == SIM_OK; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph)) {
            e = elf_bad(path, "unreadable program header");
            break;
        }
        if (ph.p_type != PT_LOAD)
            continue;
        if (ph.p_filesz > ph.p_memsz || ph.p_memsz > 0xffffffffu) {
            e = sim_fail(SIM_ERR_FORMAT,
                         "%s: program header %zu: %llu bytes in the file "
                         "but %llu in memory",
                         path, i, (unsigned long long)ph.p_filesz,
                         (unsigned long long)ph.p_memsz);
            break;
        }
        if (ph.p_offset > len || ph.p_filesz > len - ph.p_offset) {
            e = sim_fail(SIM_ERR_FORMAT,
                         "%s: program header %zu: segment at byte %llu, "
                         "%llu bytes (%llu in memory), runs past the end "
                         "of the file (%zu bytes): truncated?",
                         path, i, (unsigned long long)ph.p_offset,
                         (unsigned long long)ph.p_filesz,
                         (unsigned long long)ph.p_memsz, len);
            break;
        }
        e = cpu440_load_data(cpu, (uint32_t)ph.p_paddr, img + ph.p_offset,
                             (size_t)ph.p_filesz);
        if (e == SIM_OK && eh.e_entry >= ph.p_vaddr &&
            eh.e_entry - ph.p_vaddr < ph.p_memsz) {
            *entry = (uint32_t)(eh.e_entry - ph.p_vaddr + ph.p_paddr);
            have_entry = true;
        }
        /* executable sections inside this segment: timebase reads */
        Elf_Scn *scn = NULL;
        while (e == SIM_OK && (scn = elf_nextscn(elf, scn)) != NULL) {
            GElf_Shdr sh;
            if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
                !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_addr < ph.p_vaddr ||
                sh.sh_addr + sh.sh_size > ph.p_vaddr + ph.p_filesz)
                continue;
            e = cpu440_scan_timebase(
                cpu, (uint32_t)(sh.sh_addr - ph.p_vaddr + ph.p_paddr),
                (uint32_t)sh.sh_addr, (size_t)sh.sh_size);
        }
    }
    if (e == SIM_OK && !have_entry)
        e = elf_bad(path, "the entry point is in no loadable segment");
out:
    if (elf)
        elf_end(elf);
    free(img);
    return e;
}

sim_err linux_boot_load(cpu440 *cpu, const char *dir, bool pv)
{
    char vmlinux[4096], dtb[4096];
    /* the PV boot runs vmlinux-pv: see kvm-magic-page-selftest.patch */
    if ((size_t)snprintf(vmlinux, sizeof vmlinux, "%s/%s", dir,
                         pv ? "vmlinux-pv" : "vmlinux") >=
            sizeof vmlinux ||
        (size_t)snprintf(dtb, sizeof dtb, "%s/%s", dir,
                         pv ? "sim440-pv.dtb" : "sim440.dtb") >= sizeof dtb)
        return sim_fail(SIM_ERR_USAGE, "linux-boot: directory name too long");
    uint32_t entry = 0;
    sim_err e = load_elf(cpu, vmlinux, &entry);
    if (e != SIM_OK)
        return e;
    unsigned char *tree;
    size_t n;
    e = read_file(dtb, &tree, &n);
    if (e != SIM_OK)
        return e;
    /* a flattened device tree starts with 0xd00dfeed */
    if (n < 40 || tree[0] != 0xd0 || tree[1] != 0x0d || tree[2] != 0xfe ||
        tree[3] != 0xed)
        e = sim_fail(SIM_ERR_FORMAT,
                     "%s: not a flattened device tree (bad magic at byte 0)",
                     dtb);
    else
        e = cpu440_load_data(cpu, LINUX_DTB_PA, tree, n);
    free(tree);
    if (e != SIM_OK)
        return e;
    if (entry != 0)
        return sim_fail(SIM_ERR_FORMAT,
                        "%s: physical entry 0x%08x: expected 0 (the "
                        "boot TLB entry maps EA 0 -> PA 0)",
                        vmlinux, entry);
    cpu440_boot b = {.linux_entry = true,
                     .r1 = LINUX_STACK_PA,
                     .r3 = LINUX_DTB_PA,
                     .halt_loop_ends = true};
    cpu440_set_boot(cpu, &b);
    return SIM_OK;
}
