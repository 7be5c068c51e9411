/* xf_pv: the paravirtual magic page as Linux's arch/powerpc/kernel/kvm.c
 * (kvm_check_ins, 2.6.37 .. 6.1) and kvm_emul.S patch a 44x guest kernel
 * (docs/whatif.md "pv"): mfmsr and mfspr/mtspr of SPRG0-3, SRR0/1 and DEAR
 * become one lwz/stw of the page at -4096 (ESR, PIR and SPRG4-7 too with
 * the host feature KVM_MAGIC_FEAT_MAS0_TO_SPRG7), tlbsync a nop; mtmsr,
 * wrtee and wrteei branch to templates that stay in the guest unless they
 * must trap (mtmsr changing more than EE/RI, or EE set while an interrupt
 * is pending). The map-magic-page hypercall comes first; every access finds
 * the page's shadow entry in the UTLB or takes a DTLBPV exit that maps it
 * into the next round-robin slot, like any shadow entry. Templates come
 * from a fixed area (kvm_tmp, 64 KiB in 6.1) in the order the kernel scans
 * its text (ascending address); a site that does not fit keeps trapping
 * ("KVM: No more space", printed per line and per byte as the trace's
 * console printed its lines). Given the text, the scan's own exits too:
 * a D-TLB miss per text page, an iccci per flush_icache_range; and, given
 * the instructions its compiled loop runs per page (pv-scan.awk), their
 * guest time. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "insn440.h"
#include "insnprof.h"
#include "whatif.h"

/* Template sizes in words, counted from 6.1's kvm_emul.S (32-bit: LL64 and
 * STL64 are one lwz/stw, SCRATCH_SAVE and SCRATCH_RESTORE five each). */
#define TPL_MTMSR_WORDS   32
#define TPL_WRTEE_WORDS   27 /* also wrteei 1 */
#define TPL_WRTEEI0_WORDS 14
/* Instructions run in the guest instead of the trap: the patched site's
 * branch plus the template's path back (fast path), or the one load/store. */
#define RUN_LOADSTORE 1
#define RUN_MTMSR     23 /* b + save 5, lwz, ori, xor, lis/ori, and., beq,
                            ori, stw, lwz, cmpwi, beq, restore 5, b */
#define RUN_WRTEE_ON  21 /* b + save 5, lwz, ori, rlwimi, andi., stw, beq,
                            lwz, cmpwi, bne, restore 5, b */
#define RUN_WRTEE_OFF 18 /* b + ... beq taken: no int_pending check */
#define RUN_WRTEEI0   15 /* b + save 5, lwz, rlwinm, stw, restore 5, b */

#define SKIP_BYTES   32
#define WINDOW_BYTES 64
#define WINDOW_MAX   8192
#define GAP_MID_MAX  64      /* exits of a gap kept for the window */
/* iccci 0,r3: flush_icache_range on 44x invalidates the whole I-cache */
#define ICCCI_WORD   0x7c001f8cu
#define LINE_REC_MAX 65536   /* per-line exits captured, at most */

#define SPR_SRR0  26
#define SPR_SRR1  27
#define SPR_DEAR  61
#define SPR_ESR   62
#define SPR_PIR   286
#define SPR_SPRG0 272
#define SPR_SPRG3 275
#define SPR_SPRG4 276
#define SPR_SPRG7 279
#define SPR_SPRG4R 260
#define SPR_SPRG7R 263

enum kind { K_NONE, K_LOAD, K_STORE, K_NOP, K_MTMSR, K_WRTEE, K_WRTEEI0 };

typedef struct site {
    uint32_t pc;
    uint8_t kind;
    bool patched;
    uint32_t off; /* patched: its template's offset in kvm_tmp */
} site;

typedef struct pv {
    uint64_t template_bytes; /* 0: no limit */
    unsigned hcalls;
    bool sprg7;
    /* template sites (prescan), sorted by address */
    site *sites;
    size_t n_sites, cap_sites;
    bool sorted;
    uint64_t used_bytes, unpatched_sites;
    char *sites_file;  /* sites=FILE: the kernel text's template sites */
    /* and, when the file gives them, the text the scan reads (stext,
     * etext) and the load/store/nop sites it patches in place */
    uint32_t stext, etext;
    bool have_stext, have_etext;
    /* and where kvm_tmp is (the templates run there), and the scan's own
     * code (kvm_use_magic_page's loop, kvm_alloc) */
    uint32_t tmp_base;
    bool have_tmp;
    uint64_t tmp_misses;
    uint32_t code_pc[8];
    unsigned n_code;
    uint64_t code_misses;
    uint32_t *ls_pc;
    size_t n_ls, cap_ls;
    /* the console semaphore's down_trylock and up (sites file's 'conlock'
     * lines): each flood line takes and releases it, and their emulated
     * exits as the trace first shows each (lock_rec) go with every line */
    uint32_t lock_lo[4], lock_hi[4];
    unsigned n_lock;
    trace_rec lock_rec[16];
    unsigned n_lock_rec;
    uint64_t flood_lock_exits;
    /* kvm_guest_init (the sites file's 'guestinit' line): the kernel
     * patches itself when this postcore initcall runs, so the prediction
     * patches from the trace's first exit inside it (init_seen: the
     * prescan found one); before it every exit stays as it is */
    uint32_t init_lo, init_hi;
    bool have_init, init_seen, armed;
    uint64_t before_init, emul_before_init;
    uint64_t scan_reads, scan_flushes;
    /* the guest instructions of the scan's loop on each text page (the
     * file's 'scaninsns' lines, sorted by page), and what ran of them */
    struct scan_page {
        uint32_t page;
        uint64_t insns;
    } *scan;
    size_t n_scan, cap_scan;
    uint64_t scan_insns, scan_cycles;
    bool console;      /* console=1: the "No more space" lines printed */
    /* the trace's UART traffic (first pass): MMIO exits by page, and in
     * each page the addresses stored to and read, and how often */
    struct mmio_page {
        uint32_t page;
        uint64_t exits;
        uint32_t st_addr[8], ld_addr[8];
        uint64_t st_count[8], ld_count[8];
    } mmio[8];
    uint64_t flood_bytes, flood_exits, flood_patched, flood_line_exits;
    /* the lines, in the order kvm_alloc prints them: the unplaced site's
     * address (where the scan is) and the line's length in bytes */
    uint32_t *line_pc, *line_len;
    size_t n_lines;
    /* the console (busiest MMIO page): its data register (stored to most)
     * and status register (read most; has_status) */
    unsigned pass;
    uint32_t con_page, data_reg, status_reg;
    bool has_status;
    /* passes 1 and 2 follow the console's lines: the exits since its last
     * access (time-driven ones aside), and whether one is an emulated
     * instruction (then the next access starts a line) */
    uint64_t gap_n;
    bool gap_emul, con_seen;
    /* pass 1: each line's gap (exits before it); gap_limit, their median */
    uint32_t *gaps;
    size_t n_gaps, cap_gaps;
    uint64_t gap_limit;
    /* pass 2: the gap in progress (up to gap_buf_max), the per-line exits
     * of the lines whose gap is at most the median (line_rec, each line's
     * from line_at[k]), and the per-byte window: what the console did
     * while it wrote WINDOW_BYTES bytes after SKIP_BYTES, the gaps
     * between lines left out */
    trace_rec *gap_buf;
    size_t n_gap_buf, cap_gap_buf, gap_buf_max;
    trace_rec *line_rec;
    size_t n_line_rec, cap_line_rec;
    size_t *line_at;
    size_t n_line_at, cap_line_at;
    bool line_captured;
    /* after pass 2: the printing path's pages, the VIRT misses seen in at
     * least two captured lines (one record each) */
    trace_rec *path;
    size_t n_path;
    uint64_t flood_path_misses, flood_held;
    uint64_t stores_seen;
    trace_rec *window;
    size_t n_window, cap_window;
    uint64_t window_bytes;
    /* int_pending: guest ticks in predicted time */
    uint64_t disabled_at; /* predicted time of the last EE-clearing site */
    bool have_disable;
    uint64_t last_exit_at;
    /* counters */
    uint64_t n[8], kept_pending, kept_wait, kept_nospace, no_inst;
    /* the baseline's own magic-page exits (a guest that already uses it:
     * the transform assumes one that does not) */
    uint64_t base_hcall, base_dtlbpv;
} pv;

static sim_err opt_u64(const char *name, const char *v, uint64_t lo,
                       uint64_t hi, uint64_t *out)
{
    /* decimal, or hex after 0x; digits first (strtoull alone takes " 5",
     * "+5", wraps "-1" and reads "010" as octal 8) */
    char *end = NULL;
    unsigned long long x = 0;
    bool hex = v && v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
    const char *d = v ? v + (hex ? 2 : 0) : NULL;
    if (d && (hex ? isxdigit((unsigned char)*d) : isdigit((unsigned char)*d)))
        x = strtoull(d, &end, hex ? 16 : 10);
    if (!end || *end || x < lo || x > hi)
        return sim_fail(SIM_ERR_USAGE,
                        "whatif: pv:%s=%s: expected a whole number in "
                        "%llu..%llu", name, v ? v : "",
                        (unsigned long long)lo, (unsigned long long)hi);
    *out = x;
    return SIM_OK;
}

static const char *pv_input(const void *state)
{
    return ((const pv *)state)->sites_file;
}

static void pv_free(void *state)
{
    pv *s = state;
    if (s) {
        free(s->sites);
        free(s->sites_file);
        free(s->ls_pc);
        free(s->window);
        free(s->gaps);
        free(s->gap_buf);
        free(s->line_rec);
        free(s->line_at);
        free(s->path);
        free(s->line_pc);
        free(s->line_len);
        free(s->scan);
    }
    free(s);
}

static sim_err add_site(pv *s, uint32_t pc, enum kind k)
{
    if (s->n_sites == s->cap_sites) {
        size_t cap = s->cap_sites ? 2 * s->cap_sites : 256;
        site *n = realloc(s->sites, cap * sizeof *n);
        if (!n)
            return sim_fail(SIM_ERR_NOMEM, "whatif: out of memory");
        s->sites = n;
        s->cap_sites = cap;
    }
    s->sites[s->n_sites++] = (site){pc, (uint8_t)k, 0, 0};
    return SIM_OK;
}

static enum kind classify(const pv *s, uint32_t inst);

/* At most this many instructions for one page's words: a compiled
 * kvm_check_ins runs a few hundred a word at worst (1,024 words a page). */
#define SCAN_PAGE_MAX 100000000ull

/* "0xPAGE scaninsns N" (N decimal): the scan loop's instructions for the
 * words of that text page (workloads/linux/pv-scan.awk). */
static sim_err add_scan_page(pv *s, unsigned n, unsigned long addr,
                             const char *v)
{
    char *end = NULL;
    unsigned long long x = 0;
    errno = 0;
    if (isdigit((unsigned char)*v))
        x = strtoull(v, &end, 10);
    if (end)
        end += strspn(end, " \t\r\n");
    if (!end || *end || errno || x > SCAN_PAGE_MAX || (addr & 0xfffu))
        return sim_fail(SIM_ERR_FORMAT, "%s:%u: expected '0xPAGE scaninsns "
                                        "N' (a page address, N in 0..%llu)",
                        s->sites_file, n, SCAN_PAGE_MAX);
    if (s->n_scan == s->cap_scan) {
        size_t cap = s->cap_scan ? 2 * s->cap_scan : 256;
        struct scan_page *g = realloc(s->scan, cap * sizeof *g);
        if (!g)
            return sim_fail(SIM_ERR_NOMEM, "whatif: out of memory");
        s->scan = g;
        s->cap_scan = cap;
    }
    s->scan[s->n_scan++] = (struct scan_page){(uint32_t)addr, x};
    return SIM_OK;
}

static int scan_cmp(const void *a, const void *b)
{
    uint32_t x = ((const struct scan_page *)a)->page;
    uint32_t y = ((const struct scan_page *)b)->page;
    return x < y ? -1 : x > y;
}

/* The scan pages sorted, each once, each a page of the text. */
static sim_err check_scan(pv *s)
{
    if (!s->n_scan)
        return SIM_OK;
    if (!s->have_stext)
        return sim_fail(SIM_ERR_FORMAT, "%s: 'scaninsns' lines need the "
                                        "text they count ('stext' and "
                                        "'etext' lines)", s->sites_file);
    qsort(s->scan, s->n_scan, sizeof *s->scan, scan_cmp);
    for (size_t i = 0; i < s->n_scan; i++) {
        uint32_t pg = s->scan[i].page;
        if (i && pg == s->scan[i - 1].page)
            return sim_fail(SIM_ERR_FORMAT, "%s: page 0x%08x has two "
                                            "'scaninsns' lines",
                            s->sites_file, (unsigned)pg);
        if (pg < (s->stext & ~0xfffu) || pg >= s->etext)
            return sim_fail(SIM_ERR_FORMAT, "%s: 'scaninsns' page 0x%08x is "
                                            "outside the text 0x%08x..0x%08x",
                            s->sites_file, (unsigned)pg, (unsigned)s->stext,
                            (unsigned)s->etext);
    }
    return SIM_OK;
}

/* sites=FILE: "0xADDRESS KIND" or "0xADDRESS insn 0xWORD" per line
 * (workloads/linux/pv-sites.sh; docs/whatif.md "pv"). */
static sim_err read_sites(pv *s)
{
    FILE *f = fopen(s->sites_file, "r");
    if (!f)
        return sim_fail(SIM_ERR_IO, "whatif: pv:sites=%s: cannot open: %s",
                        s->sites_file, strerror(errno));
    char line[256];
    unsigned n = 0;
    sim_err e = SIM_OK;
    while (e == SIM_OK && fgets(line, sizeof line, f)) {
        n++;
        char kind[32];
        unsigned long addr;
        int used = 0;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        /* the whole line: an address, a kind, nothing after them */
        if (!strchr(line, '\n') && !feof(f)) {
            e = sim_fail(SIM_ERR_FORMAT, "%s:%u: line longer than %zu bytes",
                         s->sites_file, n, sizeof line - 2);
            break;
        }
        if (sscanf(line, " %lx %31s %n", &addr, kind, &used) != 2 ||
            addr > UINT32_MAX || line[strspn(line, " \t")] == '-') {
            e = sim_fail(SIM_ERR_FORMAT, "%s:%u: expected '0xADDRESS KIND'",
                         s->sites_file, n);
            break;
        }
        if (!strcmp(kind, "scaninsns")) { /* a decimal count after it */
            e = add_scan_page(s, n, addr, line + used);
            continue;
        }
        unsigned long word = 0;
        int wused = 0;
        bool worded = !strcmp(kind, "insn") || !strcmp(kind, "conlock") ||
                      !strcmp(kind, "guestinit");
        if (worded &&
            (sscanf(line + used, "%lx %n", &word, &wused) != 1 ||
             word > UINT32_MAX || line[used] == '-'))
            wused = -1;
        if (wused < 0 || line[used + wused]) {
            e = sim_fail(SIM_ERR_FORMAT, "%s:%u: expected '0xADDRESS KIND', "
                                         "'0xADDRESS insn 0xWORD' or "
                                         "'0xADDRESS conlock|guestinit 0xSIZE'",
                         s->sites_file, n);
            break;
        }
        if (!strcmp(kind, "guestinit")) {
            if (s->have_init || !word || addr + word > UINT32_MAX) {
                e = sim_fail(SIM_ERR_FORMAT, "%s:%u: %s", s->sites_file, n,
                             s->have_init ? "a second 'guestinit' line"
                                          : "'guestinit' needs a size above "
                                            "0 within 32 bits");
                break;
            }
            s->init_lo = (uint32_t)addr;
            s->init_hi = (uint32_t)(addr + word);
            s->have_init = true;
            continue;
        }
        if (!strcmp(kind, "conlock")) {
            if (s->n_lock == 4 || !word || addr + word > UINT32_MAX) {
                e = sim_fail(SIM_ERR_FORMAT, "%s:%u: %s", s->sites_file, n,
                             s->n_lock == 4 ? "more than 4 'conlock' lines"
                                            : "a 'conlock' function needs a "
                                              "size above 0 within 32 bits");
                break;
            }
            s->lock_lo[s->n_lock] = (uint32_t)addr;
            s->lock_hi[s->n_lock++] = (uint32_t)(addr + word);
            continue;
        }
        if (!strcmp(kind, "scancode")) {
            if (s->n_code == 8) {
                e = sim_fail(SIM_ERR_FORMAT, "%s:%u: more than 8 'scancode' "
                                             "lines", s->sites_file, n);
                break;
            }
            s->code_pc[s->n_code++] = (uint32_t)addr;
            continue;
        }
        if (!strcmp(kind, "kvm_tmp")) {
            s->tmp_base = (uint32_t)addr;
            s->have_tmp = true;
            continue;
        }
        if (!strcmp(kind, "stext") || !strcmp(kind, "etext")) {
            bool start = kind[0] == 's';
            *(start ? &s->stext : &s->etext) = (uint32_t)addr;
            *(start ? &s->have_stext : &s->have_etext) = true;
            continue;
        }
        if (!strcmp(kind, "insn")) {
            /* an instruction patched in place (lwz, stw, nop), or one the
             * kernel leaves alone; the template kinds have their lines */
            enum kind c = classify(s, (uint32_t)word);
            if (c != K_LOAD && c != K_STORE && c != K_NOP)
                continue;
            if (s->n_ls == s->cap_ls) {
                size_t cap = s->cap_ls ? 2 * s->cap_ls : 256;
                uint32_t *g = realloc(s->ls_pc, cap * sizeof *g);
                if (!g) {
                    e = sim_fail(SIM_ERR_NOMEM, "whatif: out of memory");
                    break;
                }
                s->ls_pc = g;
                s->cap_ls = cap;
            }
            s->ls_pc[s->n_ls++] = (uint32_t)addr;
            continue;
        }
        enum kind k = !strcmp(kind, "mtmsr")     ? K_MTMSR
                      : !strcmp(kind, "wrtee")   ? K_WRTEE
                      : !strcmp(kind, "wrteei1") ? K_WRTEE
                      : !strcmp(kind, "wrteei0") ? K_WRTEEI0
                                                 : K_NONE;
        if (k == K_NONE)
            e = sim_fail(SIM_ERR_FORMAT, "%s:%u: kind '%s': expected mtmsr, "
                                         "wrtee, wrteei1, wrteei0, insn, "
                                         "stext, etext, kvm_tmp, "
                                         "scancode, scaninsns, conlock or "
                                         "guestinit",
                         s->sites_file, n, kind);
        else
            e = add_site(s, (uint32_t)addr, k);
    }
    if (e == SIM_OK && ferror(f))
        e = sim_fail(SIM_ERR_IO, "%s: read error", s->sites_file);
    fclose(f);
    if (e == SIM_OK && (s->have_stext != s->have_etext ||
                        (s->have_stext && s->stext >= s->etext)))
        e = sim_fail(SIM_ERR_FORMAT, "%s: the text needs one 'stext' line "
                                     "and one 'etext' line above it",
                     s->sites_file);
    if (e == SIM_OK)
        e = check_scan(s);
    /* a kernel always has template sites: an empty list is a failed
     * listing (pv-sites.sh on a stripped or wrong image), not "none" */
    if (e == SIM_OK && s->n_sites == 0)
        e = sim_fail(SIM_ERR_FORMAT, "%s: no template sites (expected "
                                     "'0xADDRESS KIND' lines, as "
                                     "workloads/linux/pv-sites.sh lists them)",
                     s->sites_file);
    return e;
}

static sim_err pv_parse(void **state, const char *opts)
{
    pv *s = calloc(1, sizeof *s);
    if (!s)
        return sim_fail(SIM_ERR_NOMEM, "whatif: out of memory");
    s->hcalls = 1;
    sim_err e = SIM_OK;
    char *copy = opts ? strdup(opts) : NULL;
    if (opts && !copy)
        e = sim_fail(SIM_ERR_NOMEM, "whatif: out of memory");
    static const char *const names[] = {"template-bytes", "hcalls", "sprg7",
                                        "sites", "console"};
    bool seen[sizeof names / sizeof names[0]] = {0};
    /* "pv:" and "a::b" are empty options, refused like any other mistake */
    for (char *tok = copy, *next; tok && e == SIM_OK; tok = next) {
        next = strchr(tok, ':');
        if (next)
            *next++ = '\0';
        char *eq = strchr(tok, '=');
        const char *v = eq ? eq + 1 : NULL;
        if (eq)
            *eq = '\0';
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (!strcmp(tok, names[i])) {
                if (seen[i])
                    e = sim_fail(SIM_ERR_USAGE, "whatif: pv:%s given twice",
                                 tok);
                seen[i] = true;
            }
        uint64_t x = 0;
        if (e != SIM_OK)
            break;
        if (!*tok)
            e = sim_fail(SIM_ERR_USAGE,
                         "whatif: pv: an empty option in '%s' (valid: "
                         "template-bytes=N, hcalls=N, sprg7=0|1, sites=FILE, "
                         "console=0|1)", opts);
        else if (!strcmp(tok, "template-bytes")) {
            e = opt_u64(tok, v, 4, 1ull << 30, &x);
            s->template_bytes = x;
        } else if (!strcmp(tok, "hcalls")) {
            e = opt_u64(tok, v, 0, 16, &x);
            s->hcalls = (unsigned)x;
        } else if (!strcmp(tok, "sprg7")) {
            e = opt_u64(tok, v, 0, 1, &x);
            s->sprg7 = x != 0;
        } else if (!strcmp(tok, "console")) {
            e = opt_u64(tok, v, 0, 1, &x);
            s->console = x != 0;
        } else if (!strcmp(tok, "sites")) {
            if (!v || !*v)
                e = sim_fail(SIM_ERR_USAGE, "whatif: pv:sites=: expected "
                                            "FILE, the kernel text's template "
                                            "sites");
            else if (!(s->sites_file = strdup(v)))
                e = sim_fail(SIM_ERR_NOMEM, "whatif: out of memory");
        } else
            e = sim_fail(SIM_ERR_USAGE,
                         "whatif: unknown pv option '%s' (valid: "
                         "template-bytes=N, hcalls=N, sprg7=0|1, sites=FILE, "
                         "console=0|1)", tok);
    }
    free(copy);
    if (e == SIM_OK && s->sites_file)
        e = read_sites(s);
    if (e == SIM_OK && (s->sites_file || s->console) && !s->template_bytes)
        e = sim_fail(SIM_ERR_USAGE, "whatif: pv:sites and pv:console need "
                                    "pv:template-bytes=N");
    if (e != SIM_OK) {
        pv_free(s);
        return e;
    }
    *state = s;
    return SIM_OK;
}



static bool spr_patched(const pv *s, unsigned spr, bool store)
{
    if ((spr >= SPR_SPRG0 && spr <= SPR_SPRG3) || spr == SPR_SRR0 ||
        spr == SPR_SRR1 || spr == SPR_DEAR)
        return true;
    if (!s->sprg7)
        return false;
    if (spr == SPR_ESR || (spr >= SPR_SPRG4 && spr <= SPR_SPRG7))
        return true;
    return !store && (spr == SPR_PIR ||
                      (spr >= SPR_SPRG4R && spr <= SPR_SPRG7R));
}

/* What kvm_check_ins does with the instruction word of a trapping guest
 * kernel instruction. */
static enum kind classify(const pv *s, uint32_t inst)
{
    switch (insn440_decode(inst)) {
    case INSN_MFMSR: return K_LOAD;
    case INSN_MFSPR:
        return spr_patched(s, insn440_spr(inst), false) ? K_LOAD : K_NONE;
    case INSN_MTSPR:
        return spr_patched(s, insn440_spr(inst), true) ? K_STORE : K_NONE;
    case INSN_MTMSR: return K_MTMSR;
    case INSN_WRTEE:
        /* wrteei 0 has its own template; wrteei 1 and wrtee use wrtee's */
        return inst == 0x7c000146u ? K_WRTEEI0 : K_WRTEE;
    case INSN_CACHE: return inst == 0x7c00046cu ? K_NOP : K_NONE;
    default: return K_NONE;
    }
}

/* insnprof.h: what the transform does with an instruction word, with its
 * default options (no sprg7): the classification pv_exit applies */
const char *xf_pv_fate(uint32_t inst, bool wait)
{
    static const pv defaults; /* every option off */
    switch (classify(&defaults, inst)) {
    case K_LOAD: return "lwz of the page (removed)";
    case K_STORE: return "stw to the page (removed)";
    case K_NOP: return "nop (removed)";
    case K_WRTEEI0: return "template (removed)";
    case K_WRTEE: return "template (traps if an interrupt is pending)";
    case K_MTMSR:
        return wait ? "template, traps (MSR[WE])"
                    : "template (traps if an interrupt is pending)";
    default: return "traps";
    }
}

static unsigned template_words(enum kind k)
{
    return k == K_MTMSR ? TPL_MTMSR_WORDS
           : k == K_WRTEE ? TPL_WRTEE_WORDS
           : k == K_WRTEEI0 ? TPL_WRTEEI0_WORDS
                            : 0;
}

/* A trapping instruction of the guest kernel (PROGRAM in supervisor mode). */
static bool kernel_emul(const trace_rec *r)
{
    exit_type t = (exit_type)r->type;
    return (t == EXIT_EMULINST || exit_is_emul(t)) &&
           !(r->flags & TRF_GUEST_PR);
}

static bool pv_prescan_needed(const void *state)
{
    return ((const pv *)state)->template_bytes > 0;
}

/* Whether an instruction word is a store (D-form stw/stb/sth and their
 * update forms, X-form indexed and byte-reversed stores). */
static bool is_store(uint32_t inst)
{
    unsigned op = inst >> 26, xo = (inst >> 1) & 0x3ffu;
    if ((op >= 36 && op <= 39) || op == 44 || op == 45)
        return true;
    return op == 31 && (xo == 151 || xo == 183 || xo == 215 || xo == 247 ||
                        xo == 407 || xo == 439 || xo == 662 || xo == 918);
}

/* One address of an MMIO page counted (the first 8 seen). */
static void count_addr(uint32_t *addr, uint64_t *count, uint32_t a)
{
    for (unsigned k = 0; k < 8; k++)
        if (!count[k] || addr[k] == a) {
            addr[k] = a;
            count[k]++;
            return;
        }
}

/* MMIO exits by page (the first 8 pages seen; a console is among them),
 * with the addresses stored to and read in each. */
static void count_mmio(pv *s, const trace_rec *r)
{
    uint32_t page = r->addr & ~0xfffu;
    for (unsigned i = 0; i < 8; i++) {
        struct mmio_page *m = &s->mmio[i];
        if (m->exits && m->page != page)
            continue;
        m->page = page;
        m->exits++;
        if (is_store(r->inst))
            count_addr(m->st_addr, m->st_count, r->addr);
        else
            count_addr(m->ld_addr, m->ld_count, r->addr);
        return;
    }
}

static bool site_patched(const pv *s, uint32_t pc);

/* What a record of the console window becomes while kvm_use_magic_page
 * prints a line with its scan at address `scan`: the patches are made in
 * ascending address order, so an instruction below the scan is patched
 * (a template only if it found space), one above it still traps. K_NONE:
 * it traps (or is no emulation). Pending interrupts aside: the scan runs
 * with interrupts disabled. */
static enum kind patched_at(const pv *s, const trace_rec *r, uint32_t scan)
{
    if (!kernel_emul(r) || !r->inst || r->type == EXIT_EMUL_WAIT ||
        r->pc >= scan)
        return K_NONE;
    enum kind k = classify(s, r->inst);
    if (k != K_NONE && template_words(k) && !site_patched(s, r->pc))
        return K_NONE;
    return k;
}

/* Appends n records to a growable array (false: out of memory). */
static bool push_recs(trace_rec **a, size_t *n, size_t *cap,
                      const trace_rec *r, size_t k)
{
    if (!k)
        return true;
    if (*n + k > *cap) {
        size_t c = *cap ? *cap : 256;
        while (c < *n + k)
            c *= 2;
        trace_rec *g = realloc(*a, c * sizeof *g);
        if (!g)
            return false;
        *a = g;
        *cap = c;
    }
    memcpy(*a + *n, r, k * sizeof *r);
    *n += k;
    return true;
}

static bool in_window(const pv *s)
{
    return s->stores_seen >= SKIP_BYTES && s->window_bytes < WINDOW_BYTES &&
           s->n_window < WINDOW_MAX;
}

/* Passes 1 and 2: the console's output as lines. A console driver writes
 * a line (one printk record) in one call, a loop of status polls and data
 * stores with no privileged instruction in it; between two lines the
 * kernel runs printk, the console lock and the interrupt save/restore
 * around the driver call, emulated instructions on a 440 guest. So a
 * console access after exits that include an emulated instruction starts
 * a line, and the exits since the last access are its gap: the per-line
 * work (and whatever else the kernel did in between). Exits between
 * accesses without an emulated instruction (the loop's own TLB refills)
 * belong to the bytes. */
static void follow_console(pv *s, const trace_rec *r)
{
    if (exit_flags((exit_type)r->type) & EXF_TIMED)
        return;
    if (r->type != EXIT_MMIO || (r->addr & ~0xfffu) != s->con_page) {
        s->gap_n++;
        s->gap_emul |= kernel_emul(r);
        if (s->pass == 2 && s->n_gap_buf < s->gap_buf_max &&
            !push_recs(&s->gap_buf, &s->n_gap_buf, &s->cap_gap_buf, r, 1))
            s->gap_buf_max = 0; /* out of memory: a shorter capture */
        return;
    }
    /* the first access starts a line too, but what came before it was
     * not printing: no gap */
    bool first = !s->con_seen, line = first || s->gap_emul;
    s->con_seen = true;
    if (first)
        s->line_captured = false;
    else if (s->pass == 1 && line) {
        if (s->n_gaps == s->cap_gaps) {
            size_t cap = s->cap_gaps ? 2 * s->cap_gaps : 256;
            uint32_t *g = realloc(s->gaps, cap * sizeof *g);
            if (g) {
                s->gaps = g;
                s->cap_gaps = cap;
            }
        }
        if (s->n_gaps < s->cap_gaps)
            s->gaps[s->n_gaps++] =
                (uint32_t)(s->gap_n < UINT32_MAX ? s->gap_n : UINT32_MAX);
    } else if (s->pass == 2 && line) {
        /* a line whose gap is at most the median: its gap is per-line */
        s->line_captured = s->gap_n <= s->gap_limit &&
                           s->n_line_rec + s->n_gap_buf <= LINE_REC_MAX;
        if (s->line_captured && s->n_line_at == s->cap_line_at) {
            size_t cap = s->cap_line_at ? 2 * s->cap_line_at : 64;
            size_t *g = realloc(s->line_at, cap * sizeof *g);
            if (g) {
                s->line_at = g;
                s->cap_line_at = cap;
            }
        }
        s->line_captured = s->line_captured &&
                           s->n_line_at < s->cap_line_at &&
                           push_recs(&s->line_rec, &s->n_line_rec,
                                     &s->cap_line_rec, s->gap_buf,
                                     s->n_gap_buf);
        if (s->line_captured)
            s->line_at[s->n_line_at++] = s->n_line_rec - s->n_gap_buf;
    } else if (s->pass == 2 && in_window(s) &&
               !push_recs(&s->window, &s->n_window, &s->cap_window,
                          s->gap_buf, s->n_gap_buf))
        s->n_window = 0;
    s->gap_n = 0;
    s->gap_emul = false;
    s->n_gap_buf = 0;
    if (s->pass != 2)
        return;
    /* the access: a data store or status poll goes with the bytes; any
     * other register of the console (an interrupt-enable saved and
     * restored around the line) with the line */
    bool data = r->addr == s->data_reg && is_store(r->inst);
    bool per_byte = r->addr == s->data_reg ||
                    (s->has_status && r->addr == s->status_reg);
    if (!per_byte) {
        if (s->line_captured &&
            !push_recs(&s->line_rec, &s->n_line_rec, &s->cap_line_rec, r, 1))
            s->line_captured = false;
    } else if (in_window(s) &&
               !push_recs(&s->window, &s->n_window, &s->cap_window, r, 1))
        s->n_window = 0;
    if (data && s->stores_seen++ >= SKIP_BYTES &&
        s->window_bytes < WINDOW_BYTES)
        s->window_bytes++;
}

/* Whether pc is in the console semaphore's down_trylock or up. */
static bool in_lock(const pv *s, uint32_t pc)
{
    for (unsigned i = 0; i < s->n_lock; i++)
        if (pc >= s->lock_lo[i] && pc < s->lock_hi[i])
            return true;
    return false;
}

/* The first emulated exit the trace shows at each of their sites, in
 * address order (the order a call runs them). */
static void keep_lock_rec(pv *s, const trace_rec *r)
{
    unsigned i = 0;
    while (i < s->n_lock_rec && s->lock_rec[i].pc < r->pc)
        i++;
    if ((i < s->n_lock_rec && s->lock_rec[i].pc == r->pc) ||
        s->n_lock_rec == 16)
        return;
    memmove(&s->lock_rec[i + 1], &s->lock_rec[i],
            (s->n_lock_rec - i) * sizeof s->lock_rec[0]);
    s->lock_rec[i] = *r;
    s->n_lock_rec++;
}

static void pv_prescan(void *state, const trace_rec *r)
{
    pv *s = state;
    if (s->pass > 0) {
        follow_console(s, r);
        return;
    }
    if (s->console && r->type == EXIT_MMIO)
        count_mmio(s, r);
    if (s->console && in_lock(s, r->pc) && kernel_emul(r) && r->inst)
        keep_lock_rec(s, r);
    if (s->have_init && r->pc >= s->init_lo && r->pc < s->init_hi)
        s->init_seen = true;
    /* without a site list, the template sites are those the trace shows */
    if (s->sites_file || !kernel_emul(r) || !r->inst ||
        !template_words(classify(s, r->inst)))
        return;
    if (add_site(s, r->pc, classify(s, r->inst)) != SIM_OK)
        sim_clear_error(); /* a site short: reported by the counts */
}

/* The console: the busiest MMIO page (MMIO exits), its data register
 * (the address stored to most: one store per byte) and its status
 * register (the address read most: the driver polls it before a byte). */
static bool find_console(pv *s)
{
    const struct mmio_page *u = &s->mmio[0];
    for (unsigned i = 1; i < 8; i++)
        if (s->mmio[i].exits > u->exits)
            u = &s->mmio[i];
    uint64_t best = 0, best_ld = 0;
    for (unsigned k = 0; k < 8; k++) {
        if (u->st_count[k] > best) {
            best = u->st_count[k];
            s->data_reg = u->st_addr[k];
        }
        if (u->ld_count[k] > best_ld) {
            best_ld = u->ld_count[k];
            s->status_reg = u->ld_addr[k];
        }
    }
    s->con_page = u->page;
    s->has_status = best_ld > 0;
    return best > SKIP_BYTES;
}

static int u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* A VIRT miss's page, as the UTLB searches it (TS 1, the guest's mode). */
static uint64_t page_key(const trace_rec *r)
{
    uint32_t ea = r->type == EXIT_ITLBVIRT && !r->addr ? r->pc : r->addr;
    return (uint64_t)r->type << 40 |
           (uint64_t)((r->flags & TRF_GUEST_PR) != 0) << 32 | ea >> 12;
}

typedef struct page_use {
    uint64_t key;
    size_t line, rec;
} page_use;

static int use_cmp(const void *a, const void *b)
{
    const page_use *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->rec < y->rec ? -1 : x->rec > y->rec;
}

static int rec_idx_cmp(const void *a, const void *b)
{
    size_t x = ((const page_use *)a)->rec, y = ((const page_use *)b)->rec;
    return x < y ? -1 : x > y;
}

/* The printing path's pages: those of the VIRT misses in at least two of
 * the captured lines' gaps (a page missed by one line only is that
 * line's caller's). Each captured line shows the misses of the pages its
 * predecessor's round trips evicted; a flood line, after its own ~70
 * round trips, touches all of them again. */
static void find_path_pages(pv *s)
{
    page_use *u = malloc((s->n_line_rec ? s->n_line_rec : 1) * sizeof *u);
    if (!u)
        return;
    size_t n = 0;
    for (size_t k = 0; k < s->n_line_at; k++) {
        size_t end = k + 1 < s->n_line_at ? s->line_at[k + 1] : s->n_line_rec;
        for (size_t j = s->line_at[k]; j < end; j++)
            if (s->line_rec[j].type == EXIT_ITLBVIRT ||
                s->line_rec[j].type == EXIT_DTLBVIRT)
                u[n++] = (page_use){page_key(&s->line_rec[j]), k, j};
    }
    qsort(u, n, sizeof *u, use_cmp);
    size_t w = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i, lines = 0;
        for (; j < n && u[j].key == u[i].key; j++)
            lines += j == i || u[j].line != u[j - 1].line;
        if (lines >= 2)
            u[w++] = u[i]; /* its first record */
        i = j;
    }
    qsort(u, w, sizeof *u, rec_idx_cmp);
    s->path = malloc((w ? w : 1) * sizeof *s->path);
    for (size_t i = 0; s->path && i < w; i++)
        s->path[s->n_path++] = s->line_rec[u[i].rec];
    free(u);
}

/* After the first pass with console=1, two more: the lines' gaps, then
 * the capture (per line: the gaps of the lines with a gap at most the
 * median, the lines printed among other lines, their gap the printing
 * path; per byte: the window). */
static void allocate_templates(pv *s);

static bool pv_prescan_end(void *state)
{
    pv *s = state;
    if (s->pass == 0 && s->template_bytes && !s->sorted)
        allocate_templates(s);
    if (!s->console)
        return false;
    s->pass++;
    s->gap_n = 0;
    s->gap_emul = s->con_seen = false;
    if (s->pass == 1)
        return find_console(s);
    if (s->pass == 3)
        find_path_pages(s);
    if (s->pass != 2)
        return false;
    if (s->n_gaps) {
        qsort(s->gaps, s->n_gaps, sizeof *s->gaps, u32_cmp);
        s->gap_limit = s->gaps[(s->n_gaps - 1) / 2];
    }
    s->gap_buf_max = s->gap_limit > GAP_MID_MAX ? s->gap_limit : GAP_MID_MAX;
    return true;
}

/* The bytes the UART gets for a line kvm_alloc prints for a site it
 * cannot place: "KVM: No more space (%d + %d)\n", the area's index and the
 * template's length, and the '\r' a Linux serial console sends before
 * each '\n' (uart_console_write, udbg_uart_putc). */
static uint64_t line_bytes(uint64_t index, uint64_t len)
{
    char b[96];
    return (uint64_t)snprintf(b, sizeof b, "KVM: No more space (%llu + %llu)\r\n",
                              (unsigned long long)index,
                              (unsigned long long)len);
}

static int site_cmp(const void *a, const void *b)
{
    uint32_t x = ((const site *)a)->pc, y = ((const site *)b)->pc;
    return x < y ? -1 : x > y;
}

/* kvm_use_magic_page: the text in ascending address order, each template
 * site taking kvm_alloc(len) until the area is full. */
static void allocate_templates(pv *s)
{
    qsort(s->sites, s->n_sites, sizeof *s->sites, site_cmp);
    if (s->n_ls)
        qsort(s->ls_pc, s->n_ls, sizeof *s->ls_pc, u32_cmp);
    size_t w = 0;
    for (size_t i = 0; i < s->n_sites; i++)
        if (!w || s->sites[i].pc != s->sites[w - 1].pc)
            s->sites[w++] = s->sites[i];
    s->n_sites = w;
    s->line_pc = malloc((s->n_sites ? s->n_sites : 1) * sizeof *s->line_pc);
    s->line_len = malloc((s->n_sites ? s->n_sites : 1) * sizeof *s->line_len);
    for (size_t i = 0; i < s->n_sites; i++) {
        uint64_t len = 4u * template_words((enum kind)s->sites[i].kind);
        if (s->used_bytes + len <= s->template_bytes) {
            s->sites[i].off = (uint32_t)s->used_bytes;
            s->used_bytes += len;
            s->sites[i].patched = true;
        } else {
            uint64_t b = line_bytes(s->used_bytes, len);
            s->unpatched_sites++;
            s->flood_bytes += b;
            if (s->line_pc && s->line_len) {
                s->line_pc[s->n_lines] = s->sites[i].pc;
                s->line_len[s->n_lines++] = (uint32_t)b;
            }
        }
    }
    s->sorted = true;
}

static const site *find_site(const pv *s, uint32_t pc)
{
    size_t lo = 0, hi = s->n_sites;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->sites[mid].pc < pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n_sites && s->sites[lo].pc == pc ? &s->sites[lo] : NULL;
}

static bool site_patched(const pv *s, uint32_t pc)
{
    const site *t = find_site(s, pc);
    return t && t->patched;
}

/* The guest kernel touches the page at addr (I-side: fetches from it):
 * a TLB miss inserted when the predicting UTLB no longer holds it; 1 if
 * so. */
static unsigned touch_page(whatif_env *env, bool fetch, uint32_t addr)
{
    uint32_t page = addr & ~0xfffu;
    trace_rec r = {.kind = TREC_EXIT,
                   .type = fetch ? EXIT_ITLBVIRT : EXIT_DTLBVIRT,
                   .irq = fetch ? BOOKE_IRQ_ITLB_MISS : BOOKE_IRQ_DTLB_MISS,
                   .pc = page,
                   .addr = page};
    if (whatif_env_holds(env, &r))
        return 0;
    whatif_env_insert(env, &r);
    return 1;
}

/* A patched template site runs its template in kvm_tmp (when the site
 * list says where kvm_tmp is): an I-TLB miss when the predicting UTLB no
 * longer holds that page, as the magic page's D-side access. */
static void template_fetch(pv *s, whatif_env *env, uint32_t pc)
{
    const site *t = s->have_tmp ? find_site(s, pc) : NULL;
    if (t && t->patched && template_words((enum kind)t->kind))
        s->tmp_misses += touch_page(env, true, s->tmp_base + t->off);
}

/* Guest instructions that replace a patched trap (the load/store, or the
 * template's path with nothing pending). */
static unsigned patched_run(enum kind k)
{
    switch (k) {
    case K_MTMSR: return RUN_MTMSR;
    case K_WRTEE: return RUN_WRTEE_ON;
    case K_WRTEEI0: return RUN_WRTEEI0;
    default: return RUN_LOADSTORE;
    }
}

/* One exit of the captured console output, while the scan is at `scan`:
 * the printing code's instructions above it still trap, those below it
 * run patched (their guest run and the patched code go to the guest, and
 * they touch the magic page). */
static void flood_exit(pv *s, whatif_env *env, const trace_rec *r,
                       uint32_t scan, double cpi)
{
    if (whatif_env_holds(env, r)) { /* still mapped: no miss */
        whatif_env_run_on(env, r, 0, false);
        s->flood_held++;
        return;
    }
    enum kind k = patched_at(s, r, scan);
    if (k == K_NONE) {
        whatif_env_repeat(env, r);
        s->flood_exits++;
    } else {
        template_fetch(s, env, r->pc);
        whatif_env_run_on(env, r, (uint64_t)(patched_run(k) * cpi + 0.5),
                          k != K_NOP);
        s->flood_patched++;
    }
}

/* console=1: line i goes out as the trace's console output did. It first
 * takes one captured line's per-line exits (the gap before a line printed
 * among other lines: printk, the console lock, interrupts saved and
 * restored, the TLB refills of that code; the captured lines in turn),
 * then a miss of each of the printing path's pages the predicting UTLB
 * no longer holds, then the window's exits for its bytes (the console's
 * polls and stores and the refills within a line; time-driven exits are
 * the engine's), in turn (*w, *due carry the window's position). */
static void print_line(pv *s, whatif_env *env, size_t i, size_t *w,
                       double *due)
{
    double per_byte = s->window_bytes
                          ? (double)s->n_window / (double)s->window_bytes
                          : 0;
    double cpi = P(cost_params(whatif_env_model(env)), guest_cpi);
    uint32_t scan = s->line_pc[i];
    /* each line is a printk of its own: console_trylock's down_trylock
     * and console_unlock's up run once for it (their sites trap until the
     * scan patches them, and for good when no template space is left) */
    for (unsigned j = 0; j < s->n_lock_rec; j++) {
        flood_exit(s, env, &s->lock_rec[j], scan, cpi);
        s->flood_lock_exits++;
    }
    if (s->n_line_at) {
        size_t k = i % s->n_line_at;
        size_t end = k + 1 < s->n_line_at ? s->line_at[k + 1] : s->n_line_rec;
        for (size_t j = s->line_at[k]; j < end; j++) {
            const trace_rec *r = &s->line_rec[j];
            if (s->n_lock_rec && in_lock(s, r->pc) && kernel_emul(r))
                continue; /* the lock's exits: above, once a line */
            flood_exit(s, env, r, scan, cpi);
            s->flood_line_exits++;
        }
    }
    /* the path's pages this line's records did not map again */
    for (size_t j = 0; j < s->n_path; j++)
        if (!whatif_env_holds(env, &s->path[j])) {
            whatif_env_insert(env, &s->path[j]);
            s->flood_path_misses++;
        }
    *due += (double)s->line_len[i] * per_byte;
    for (; s->n_window && *due >= 0.5;
         *due -= 1.0, *w = (*w + 1) % s->n_window)
        flood_exit(s, env, &s->window[*w], scan, cpi);
}

static bool printing(const pv *s)
{
    return s->console && s->n_lines && (s->n_window || s->n_line_at);
}

/* The scan reads a word of the text page at `page`: a D-TLB miss when
 * the predicting UTLB no longer holds the page (its first word, or the
 * next word after a line's round trips). */
static void scan_read(pv *s, whatif_env *env, uint32_t page)
{
    s->scan_reads += touch_page(env, false, page);
}

/* The scan's code runs (at the start, and again after a site without
 * space, whose kvm_alloc printed a line): its pages fetched. */
static void scan_code(pv *s, whatif_env *env)
{
    for (unsigned i = 0; i < s->n_code; i++)
        s->code_misses += touch_page(env, true, s->code_pc[i]);
}

/* kvm_patch_ins (and a template's copy) ends with flush_icache_range,
 * whose iccci on 44x traps (EMULINST). */
static void scan_flush(pv *s, whatif_env *env, uint32_t pc)
{
    trace_rec r = {.kind = TREC_EXIT, .type = EXIT_EMULINST,
                   .irq = BOOKE_IRQ_PROGRAM, .pc = pc, .inst = ICCCI_WORD};
    whatif_env_insert(env, &r);
    s->scan_flushes++;
}

/* The scan's loop runs n instructions (kvm_check_ins on the words since
 * the last exit), with interrupts off: guest time of the run in progress
 * (whatif_env_guest; from a hook, off the guest ticks' clock). */
static void scan_run(pv *s, whatif_env *env, uint64_t n)
{
    if (!n)
        return;
    s->scan_insns += n;
    s->scan_cycles += whatif_env_guest(env, n);
}

/* kvm_use_magic_page with the text given (sites=FILE with stext/etext):
 * the scan reads the text page by page in ascending order; at each
 * load/store/nop site it patches the word (one flush), at each template
 * site that finds space it copies the template and patches the branch
 * (two flushes), at each one that does not it prints a line (console=1)
 * and reads on. */
static void replay_scan(pv *s, whatif_env *env)
{
    size_t t = 0, l = 0, line = 0, w = 0, k = 0;
    double due = 0;
    scan_code(s, env);
    for (uint64_t page = s->stext & ~0xfffu; page < s->etext; page += 4096) {
        scan_read(s, env, (uint32_t)page);
        /* the loop's instructions for this page's words, in the guest
         * between the page's exits: the share of the words before each
         * site runs before it */
        uint64_t insns = 0, done = 0;
        if (k < s->n_scan && s->scan[k].page == page)
            insns = s->scan[k++].insns;
        for (;;) {
            uint64_t tp = t < s->n_sites ? s->sites[t].pc : UINT64_MAX;
            uint64_t lp = l < s->n_ls ? s->ls_pc[l] : UINT64_MAX;
            uint64_t pc = tp < lp ? tp : lp;
            if (pc >= page + 4096)
                break;
            uint64_t upto = pc > page ? insns * (pc - page) / 4096 : 0;
            scan_run(s, env, upto - done);
            done = upto;
            if (lp < tp) {
                scan_flush(s, env, (uint32_t)lp);
                l++;
            } else if (s->sites[t++].patched) {
                scan_flush(s, env, (uint32_t)tp);
                scan_flush(s, env, (uint32_t)tp);
            } else if (line < s->n_lines) {
                if (printing(s))
                    print_line(s, env, line, &w, &due);
                line++;
                scan_code(s, env);
                scan_read(s, env, (uint32_t)page);
            }
        }
        scan_run(s, env, insns - done);
    }
    for (; printing(s) && line < s->n_lines; line++) /* sites past etext */
        print_line(s, env, line, &w, &due);
}

/* kvm_guest_init: the map hypercalls, the scan and its lines. */
static void patch_now(pv *s, whatif_env *env)
{
    s->armed = true;
    /* kvm_map_magic_page: KVM_HC_PPC_MAP_MAGIC_PAGE(-4096, -4096), a guest
     * supervisor sc with r0 = KVM_SC_MAGIC_R0 */
    for (unsigned i = 0; i < s->hcalls; i++) {
        trace_rec r = {.kind = TREC_EXIT, .type = EXIT_HCALL,
                       .irq = BOOKE_IRQ_SYSCALL, .inst = 0x44000002u};
        whatif_env_insert(env, &r);
    }
    if (s->have_stext)
        replay_scan(s, env);
    else if (printing(s)) {
        size_t w = 0;
        double due = 0;
        for (size_t i = 0; i < s->n_lines; i++)
            print_line(s, env, i, &w, &due);
    }
}

static void pv_begin(void *state, whatif_env *env)
{
    pv *s = state;
    if (s->template_bytes && !s->sorted)
        allocate_templates(s);
    /* with kvm_guest_init in the trace, the patching waits for it */
    if (!(s->have_init && s->init_seen))
        patch_now(s, env);
}

/* Whether a guest decrementer tick (guest_hz, predicted time) fell between
 * the moment interrupts were last disabled (or the previous exit) and now:
 * the interrupt is then pending (int_pending) when EE is set again. */
static bool tick_pending(pv *s, whatif_env *env)
{
    cost_model *m = whatif_env_model(env);
    double hz = P(cost_params(m), guest_hz);
    uint64_t period = cost_to_ticks(m, (uint64_t)((double)cost_core_hz(m) / hz));
    uint64_t now = whatif_env_now(env);
    uint64_t from = s->have_disable ? s->disabled_at : s->last_exit_at;
    return period && now / period != from / period;
}

static void pv_exit(void *state, whatif_env *env, xf_exit *x)
{
    pv *s = state;
    const trace_rec *r = &x->rec;
    s->base_hcall += r->type == EXIT_HCALL;
    s->base_dtlbpv += r->type == EXIT_DTLBPV;
    if (!s->armed) {
        if (r->pc >= s->init_lo && r->pc < s->init_hi) {
            patch_now(s, env); /* its exits go before this one */
        } else {
            s->before_init++;
            s->emul_before_init += kernel_emul(r);
            return; /* not patched yet: as the trace has it */
        }
    }
    uint64_t now = whatif_env_now(env);
    if (!kernel_emul(r)) {
        s->last_exit_at = now;
        return;
    }
    if (!r->inst) {
        s->no_inst++;
        s->last_exit_at = now;
        return;
    }
    enum kind k = classify(s, r->inst);
    if (k == K_NONE || (s->template_bytes && template_words(k) &&
                        !site_patched(s, r->pc))) {
        if (k != K_NONE)
            s->kept_nospace++;
        s->last_exit_at = now;
        return;
    }
    double cpi = P(cost_params(whatif_env_model(env)), guest_cpi);
    unsigned run = patched_run(k);
    bool enable = false;
    switch (k) {
    case K_MTMSR:
        /* MSR[WE] (idle) is a critical bit: the template traps */
        if (r->type == EXIT_EMUL_WAIT) {
            s->kept_wait++;
            s->last_exit_at = now;
            return;
        }
        enable = true;
        break;
    case K_WRTEE:
        /* wrteei 1, or wrtee (its register is not in the trace: taken as
         * setting EE, so the template checks int_pending) */
        enable = true;
        break;
    case K_WRTEEI0:
        s->disabled_at = now;
        s->have_disable = true;
        break;
    default: break;
    }
    if (enable) {
        bool pending = tick_pending(s, env);
        s->have_disable = false;
        if (pending) { /* the template runs, then the real instruction */
            s->kept_pending++;
            s->last_exit_at = now;
            return;
        }
    }
    (void)RUN_WRTEE_OFF;
    template_fetch(s, env, r->pc);
    s->n[k]++;
    s->last_exit_at = now;
    x->removed = true;
    x->magic_access = k != K_NOP;
    x->guest_extra = (uint64_t)((double)run * cpi + 0.5);
}

static void pv_report(const void *state, FILE *f)
{
    const pv *s = state;
    fprintf(f,
            "# pv: patched %llu lwz, %llu stw, %llu nop, %llu mtmsr, %llu "
            "wrtee/wrteei 1, %llu wrteei 0 exits; still trapping: %llu "
            "interrupt pending, %llu mtmsr to MSR[WE], %llu no template "
            "space",
            (unsigned long long)s->n[K_LOAD], (unsigned long long)s->n[K_STORE],
            (unsigned long long)s->n[K_NOP], (unsigned long long)s->n[K_MTMSR],
            (unsigned long long)s->n[K_WRTEE],
            (unsigned long long)s->n[K_WRTEEI0],
            (unsigned long long)s->kept_pending,
            (unsigned long long)s->kept_wait,
            (unsigned long long)s->kept_nospace);
    if (s->template_bytes)
        fprintf(f, " (%llu of %llu template bytes used by %s, %llu sites "
                   "unpatched; %llu exits inserted and %llu patched "
                   "instructions run for %llu bytes of 'No more space' "
                   "lines",
                (unsigned long long)s->used_bytes,
                (unsigned long long)s->template_bytes,
                s->sites_file ? "the kernel text's sites" : "the trace's sites",
                (unsigned long long)s->unpatched_sites,
                (unsigned long long)s->flood_exits,
                (unsigned long long)s->flood_patched,
                (unsigned long long)s->flood_bytes);
    if (s->console)
        fprintf(f, ": %llu of them per line, from %zu of the console's %zu "
                   "lines (gap at most the median, %llu exits), %zu per-byte "
                   "exits for %llu bytes; %llu misses of the printing path's "
                   "%zu pages inserted, %llu misses of pages still mapped "
                   "left out",
                (unsigned long long)s->flood_line_exits, s->n_line_at,
                s->n_gaps, (unsigned long long)s->gap_limit, s->n_window,
                (unsigned long long)s->window_bytes,
                (unsigned long long)s->flood_path_misses, s->n_path,
                (unsigned long long)s->flood_held);
    if (s->console && s->n_lock)
        fprintf(f, "; %llu console-lock exits (down_trylock and up once a "
                   "line: %u emulated sites of the trace)",
                (unsigned long long)s->flood_lock_exits, s->n_lock_rec);
    if (s->have_init)
        fprintf(f, s->init_seen
                       ? "; patched at kvm_guest_init: %llu exits before it "
                         "(%llu emulated) as the trace has them"
                       : "; kvm_guest_init not in the trace: patched from "
                         "its first exit",
                (unsigned long long)s->before_init,
                (unsigned long long)s->emul_before_init);
    if (s->have_tmp)
        fprintf(f, "; %llu I-TLB misses of kvm_tmp's pages (templates run "
                   "there)", (unsigned long long)s->tmp_misses);
    if (s->have_stext)
        fprintf(f, "; the scan of 0x%08x..0x%08x: %llu misses of its text "
                   "pages, %llu of its code's, %llu iccci of "
                   "flush_icache_range for %zu load/store/nop sites and the "
                   "placed templates",
                (unsigned)s->stext, (unsigned)s->etext,
                (unsigned long long)s->scan_reads,
                (unsigned long long)s->code_misses,
                (unsigned long long)s->scan_flushes, s->n_ls);
    if (s->n_scan)
        fprintf(f, "; the scan's loop: %llu guest instructions on %zu "
                   "pages, %llu cycles (guest_cpi and the longer runs' "
                   "refills)",
                (unsigned long long)s->scan_insns, s->n_scan,
                (unsigned long long)s->scan_cycles);
    if (s->template_bytes)
        fputc(')', f);
    fprintf(f, "; %llu emulation exits without an instruction word left "
               "as they are\n",
            (unsigned long long)s->no_inst);
    if (s->base_hcall || s->base_dtlbpv)
        fprintf(f, "# pv: note: the baseline already has %llu HCALL and %llu "
                   "DTLBPV exits, the magic page's (docs/kvm440.md): its "
                   "guest uses it already, and pv, which assumes one that "
                   "does not, adds its own map hypercall and misses to "
                   "them\n",
                (unsigned long long)s->base_hcall,
                (unsigned long long)s->base_dtlbpv);
}

const xf_ops xf_pv = {
    .name = "pv",
    .options = "template-bytes=N:hcalls=N:sprg7=0|1:sites=FILE:console=0|1",
    .summary = "paravirtual magic page as Linux's kvm.c patches a 44x kernel",
    .parse = pv_parse,
    .prescan_needed = pv_prescan_needed,
    .prescan = pv_prescan,
    .prescan_end = pv_prescan_end,
    .begin = pv_begin,
    .exit = pv_exit,
    .report = pv_report,
    .input = pv_input,
    .free = pv_free,
};
