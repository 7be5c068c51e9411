/* ftexport: trace.bin -> kvm tracepoint text, in the order the kernel emits
 * the events of one exit (booke.c / 44x_tlb.c / kvm_main.c of 3.10):
 * kvm_exit, then the TLB events of the handler, then kvm_ppc_instr at the
 * end of the emulation, then kvm_userspace_exit when KVM_RUN returns. */
#include "ftexport.h"

#include <string.h>

#include "classify.h"
#include "exits.h"
#include "ftrace.h"
#include "trace.h"

#define MSR_PR 0x00004000u
/* a guest MSR as kvm_exit would show it: CE | EE | ME (+ PR) */
#define MSR_GUEST 0x00029000u

void ftexport_defaults(ftexport_opts *o)
{
    o->comm = "qemu-system-ppc";
    o->pid = 1234;
    o->cpu = 0;
    o->ns = false;
    o->progress = NULL;
    o->progress_ctx = NULL;
}

static uint32_t spr_insn(uint32_t base, unsigned rt, unsigned spr)
{
    return base | rt << 21 | (spr & 31u) << 16 | ((spr >> 5) & 31u) << 11;
}

/* An instruction word the importer classifies as t (a canonical one when
 * the record's own word is not). */
static uint32_t word_for(exit_type t)
{
    switch (t) {
    case EXIT_EMUL_MFSPR: return spr_insn(0x7c0002a6u, 3, 62); /* ESR */
    case EXIT_EMUL_MTSPR: return spr_insn(0x7c0003a6u, 3, 62);
    case EXIT_EMUL_WAIT:
    case EXIT_EMUL_MTMSR: return 0x7c600124u; /* mtmsr r3 */
    case EXIT_EMUL_MFMSR: return 0x7c6000a6u;
    case EXIT_EMUL_WRTEE: return 0x7c008146u; /* wrteei 1 */
    case EXIT_EMUL_TLBSX: return 0x7c602724u; /* tlbsx r3,0,r4 */
    case EXIT_EMUL_TLBWE: return 0x7c6407a4u; /* tlbwe r3,r4,0 */
    case EXIT_EMUL_RFI: return 0x4c000064u;
    case EXIT_DCR: return spr_insn(0x7c000286u, 3, 0x0c0); /* UIC0_SR */
    default: return spr_insn(0x7c0002a6u, 3, 26);          /* mfspr SRR0 */
    }
}

typedef struct exporter {
    FILE *out;
    const ftexport_opts *o;
    uint64_t tb_hz;
    ftexport_stats *st;
    /* follow-up events of the exit in progress */
    bool open;
    bool instr, user;
    uint32_t inst, pc, emulate;
    const char *reason;
    int code;
    uint64_t last_tb;
} exporter;

static void prefix(exporter *x, uint64_t tb)
{
    /* tb -> rounded ns (or us), the inverse of ftimport's rounding */
    uint64_t div = x->o->ns ? 1000000000u : 1000000u;
    unsigned __int128 u =
        ((unsigned __int128)tb * div + x->tb_hz / 2) / x->tb_hz;
    fprintf(x->out,
            x->o->ns ? "%16s-%-5u [%03u] .... %5llu.%09llu: "
                     : "%16s-%-5u [%03u] .... %5llu.%06llu: ",
            x->o->comm, x->o->pid, x->o->cpu, (unsigned long long)(u / div),
            (unsigned long long)(u % div));
    x->st->lines++;
    if (tb > x->last_tb)
        x->last_tb = tb;
}

static void close_open(exporter *x)
{
    if (!x->open)
        return;
    if (x->instr) {
        prefix(x, x->last_tb);
        /* TP_printk ends in "\n": the kernel's text has a blank line */
        fprintf(x->out, "kvm_ppc_instr: inst %u pc 0x%x emulate %u\n\n",
                x->inst, x->pc, x->emulate);
    }
    if (x->user) {
        prefix(x, x->last_tb);
        fprintf(x->out, "kvm_userspace_exit: reason %s (%d)\n", x->reason,
                x->code);
    }
    x->open = false;
}

static void put_exit(exporter *x, const trace_rec *r)
{
    exit_type t = (exit_type)r->type;
    bool pr = (r->flags & TRF_GUEST_PR) != 0;
    uint32_t inst = r->inst;
    x->instr = x->user = false;
    x->emulate = CLASSIFY_DONE;
    if (r->irq == BOOKE_IRQ_PROGRAM && !pr) {
        exit_type want = t == EXIT_SIGNAL ? classify_program(inst, -1) : t;
        if (t == EXIT_EMULINST) {
            /* an instruction with a row of its own charged as EMULINST:
             * its emulation failed */
            if (classify_program(inst, CLASSIFY_DONE) != EXIT_EMULINST)
                x->emulate = CLASSIFY_FAIL;
        } else if (t == EXIT_DCR) {
            if (classify_program(inst, CLASSIFY_DO_DCR) != EXIT_DCR)
                inst = word_for(t), x->st->substituted++;
            x->emulate = CLASSIFY_DO_DCR;
        } else if (t == EXIT_EMUL_WAIT) {
            if (!classify_may_wait(inst))
                inst = word_for(t), x->st->substituted++;
        } else if (exit_is_emul(t)) {
            if (classify_program(inst, CLASSIFY_DONE) != t)
                inst = word_for(t), x->st->substituted++;
        } else if (t == EXIT_SIGNAL) {
            if (want == EXIT_DCR)
                x->emulate = CLASSIFY_DO_DCR;
        } else {
            x->st->unrepresentable++;
        }
        x->instr = true;
    } else if (t == EXIT_MMIO) {
        x->instr = true;
        x->emulate = CLASSIFY_DO_MMIO;
    } else if (r->irq == BOOKE_IRQ_DTLB_MISS && t == EXIT_EMULINST) {
        x->instr = true;
        x->emulate = CLASSIFY_FAIL;
    } else if (t == EXIT_HALT || t == EXIT_TIMEINGUEST) {
        x->st->unrepresentable++;
    }
    x->inst = inst;
    x->pc = r->pc;
    if ((r->flags & TRF_USERSPACE) || t == EXIT_SIGNAL) {
        x->user = true;
        switch (t) {
        case EXIT_MMIO: x->reason = "KVM_EXIT_MMIO", x->code = 6; break;
        case EXIT_DCR: x->reason = "KVM_EXIT_DCR", x->code = 15; break;
        case EXIT_DEBUG: x->reason = "KVM_EXIT_DEBUG", x->code = 4; break;
        case EXIT_SIGNAL: x->reason = "restart", x->code = 4; break; /* EINTR */
        default: x->reason = "KVM_EXIT_UNKNOWN", x->code = 0; break;
        }
    }
    prefix(x, r->tb);
    const char *name = ftrace_irq_name(r->irq);
    if (name)
        fprintf(x->out, "kvm_exit: exit=%s", name);
    else
        fprintf(x->out, "kvm_exit: exit=0x%x", r->irq);
    fprintf(x->out, " | pc=0x%x | msr=0x%x | dar=0x%x | last_inst=0x%x\n",
            r->pc, MSR_GUEST | (pr ? MSR_PR : 0u), r->addr, inst);
    x->open = true;
    x->st->exits++;
}

static void put_rec(exporter *x, const trace_rec *r)
{
    switch (r->kind) {
    case TREC_EXIT:
        close_open(x);
        put_exit(x, r);
        break;
    case TREC_GTLB_WRITE:
    case TREC_STLB_WRITE:
        prefix(x, r->tb);
        fprintf(x->out,
                r->kind == TREC_GTLB_WRITE
                    ? "kvm_gtlb_write: gtlb_index %u tid %u w0 %u w1 "
                      "%u w2 %u\n"
                    : "kvm_stlb_write: victim %u tid %u w0 %u w1 %u "
                      "w2 %u\n",
                r->type, r->irq, r->pc, r->inst, r->addr);
        x->st->states++;
        break;
    case TREC_STLB_INVAL:
        prefix(x, r->tb);
        fprintf(x->out, "kvm_stlb_inval: stlb_index %u\n", r->type);
        x->st->states++;
        break;
    default: x->st->markers++; break;
    }
}

static sim_err export_header(void *ctx, const trace_header *h)
{
    exporter *x = ctx;
    x->tb_hz = h->tb_hz;
    fprintf(x->out, "# tracer: nop\n"
                    "#\n"
                    "#                              _-----=> irqs-off\n"
                    "#                             / _----=> need-resched\n"
                    "#                            | / _---=> hardirq/softirq\n"
                    "#                            || / _--=> preempt-depth\n"
                    "#                            ||| /     delay\n"
                    "#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
                    "#              | |       |   ||||       |         |\n");
    return SIM_OK;
}

static sim_err export_chunk(void *ctx, const trace_rec *recs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put_rec(ctx, &recs[i]);
    return SIM_OK;
}

sim_err ftexport_trace(const char *path, FILE *out, const ftexport_opts *o,
                       ftexport_stats *st)
{
    memset(st, 0, sizeof *st);
    exporter x = {.out = out, .o = o, .st = st};
    trace_pass p = {.ctx = &x,
                    .header = export_header,
                    .chunk = export_chunk,
                    .progress = o->progress,
                    .progress_ctx = o->progress_ctx};
    sim_err e = trace_pass_file(path, &p, NULL);
    close_open(&x); /* the last exit's follow-up lines */
    return e;
}
