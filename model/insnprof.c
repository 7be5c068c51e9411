/* insnprof: emulation exits by instruction word (insnprof.h). */
#include "insnprof.h"

#include <stdlib.h>
#include <string.h>

#include "insn440.h"

void insnprof_init(insnprof *p, bool usec, uint64_t tb_hz)
{
    memset(p, 0, sizeof *p);
    p->usec = usec;
    p->tb_per_usec = tb_hz / 1000000 ? tb_hz / 1000000 : 1;
}

/* The op, with the SPR of an mfspr/mtspr or the E bit of a wrteei: the
 * distinctions kvm.c's patching makes (docs/whatif.md, `pv`). */
static uint32_t key_of(uint32_t inst)
{
    insn_op op = insn440_decode_op(inst);
    uint32_t k = (uint32_t)op << 16;
    switch (insn440_decode(inst)) {
    case INSN_MFSPR:
    case INSN_MTSPR: return k | insn440_spr(inst);
    case INSN_WRTEE: return k | ((inst >> 15) & 1u);
    default: return k;
    }
}

static void account(insnprof *p, const trace_rec *r, uint64_t handler_ticks)
{
    exit_type t = (exit_type)r->type;
    if (!(t == EXIT_EMULINST || exit_is_emul(t)))
        return;
    uint64_t d = p->usec ? handler_ticks / p->tb_per_usec : handler_ticks;
    p->exits++;
    p->sum += d;
    if (r->flags & TRF_GUEST_PR) {
        p->user++;
        p->user_sum += d;
        return;
    }
    if (!r->inst) {
        p->no_word++;
        p->no_word_sum += d;
        return;
    }
    uint32_t k = key_of(r->inst);
    bool wait = t == EXIT_EMUL_WAIT;
    for (int i = 0; i < p->n; i++)
        if (p->rows[i].key == k && p->rows[i].wait == wait) {
            p->rows[i].count++;
            p->rows[i].sum += d;
            return;
        }
    if (p->n == INSNPROF_MAX) {
        p->other++;
        return;
    }
    p->rows[p->n++] = (insnprof_row){
        .key = k, .inst = r->inst, .wait = wait, .count = 1, .sum = d};
}

void insnprof_add(insnprof *p, const trace_rec *r, uint64_t handler_ticks)
{
    if (r->kind != TREC_EXIT)
        return;
    /* the kernel charges an exit when the next one comes (stats_exit): the
     * last exit of a trace is in no row, and in no line here */
    if (p->pending)
        account(p, &p->pend, p->pend_ticks);
    p->pend = *r;
    p->pend_ticks = handler_ticks;
    p->pending = true;
}

/* The 440's SPRs an emulated mfspr/mtspr names (docs/kvm440.md §4). */
static const char *spr_name(unsigned spr)
{
    static const struct {
        unsigned n;
        const char *name;
    } names[] = {
        {1, "XER"},      {8, "LR"},       {9, "CTR"},      {22, "DEC"},
        {26, "SRR0"},    {27, "SRR1"},    {48, "PID"},     {54, "DECAR"},
        {58, "CSRR0"},   {59, "CSRR1"},   {61, "DEAR"},    {62, "ESR"},
        {63, "IVPR"},    {256, "USPRG0"}, {259, "SPRG3R"}, {260, "SPRG4R"},
        {261, "SPRG5R"}, {262, "SPRG6R"}, {263, "SPRG7R"}, {268, "TBL"},
        {269, "TBU"},    {272, "SPRG0"},  {273, "SPRG1"},  {274, "SPRG2"},
        {275, "SPRG3"},  {276, "SPRG4"},  {277, "SPRG5"},  {278, "SPRG6"},
        {279, "SPRG7"},  {284, "TBWL"},   {285, "TBWU"},   {286, "PIR"},
        {287, "PVR"},    {304, "DBSR"},   {308, "DBCR0"},  {309, "DBCR1"},
        {310, "DBCR2"},  {336, "TSR"},    {340, "TCR"},    {912, "DNV0"},
        {946, "MMUCR"},  {947, "CCR0"},   {888, "CCR1"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].n == spr)
            return names[i].name;
    if (spr >= 400 && spr <= 415) {
        static char ivor[16][8];
        snprintf(ivor[spr - 400], sizeof ivor[0], "IVOR%u", spr - 400);
        return ivor[spr - 400];
    }
    return NULL;
}

static void name_of(const insnprof_row *r, char *buf, size_t n)
{
    insn_op op = insn440_decode_op(r->inst);
    const char *m = insn440_op_name(op);
    switch (insn440_decode(r->inst)) {
    case INSN_MFSPR:
    case INSN_MTSPR: {
        unsigned spr = insn440_spr(r->inst);
        const char *s = spr_name(spr);
        if (s)
            snprintf(buf, n, "%s %s", m, s);
        else
            snprintf(buf, n, "%s SPR %u", m, spr);
        return;
    }
    case INSN_WRTEE:
        if (op == INSN_OP_WRTEEI) {
            snprintf(buf, n, "wrteei %u", (unsigned)((r->inst >> 15) & 1u));
            return;
        }
        break;
    default: break;
    }
    snprintf(buf, n, "%s%s", m, r->wait ? " (MSR[WE])" : "");
}

/* 1234567 -> "1,234,567" */
static const char *grouped(char *buf, size_t n, uint64_t v)
{
    char d[32];
    int l = snprintf(d, sizeof d, "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < l && o + 2 < n; i++) {
        if (i && (l - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = d[i];
    }
    buf[o] = '\0';
    return buf;
}

static int by_sum(const void *a, const void *b)
{
    const insnprof_row *x = *(const insnprof_row *const *)a,
                       *y = *(const insnprof_row *const *)b;
    if (x->sum != y->sum)
        return x->sum < y->sum ? 1 : -1;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return x->key < y->key ? -1 : x->key > y->key;
}

void insnprof_write(FILE *f, const insnprof *p)
{
    double div = p->usec ? 1.0 : (double)p->tb_per_usec;
    char a[32], b[32];
    fprintf(f,
            "# emulated instructions by instruction word: %s exits, their "
            "handlers %s usec (%s; docs/tables.md \"By instruction\")\n",
            grouped(a, sizeof a, p->exits),
            grouped(b, sizeof b, (uint64_t)((double)p->sum / div + 0.5)),
            p->usec ? "2.6.29 accounting: each sample truncated to usec"
                    : "3.1 accounting: ticks added, then divided");
    if (p->exits == 0)
        return;
    fprintf(f, "# %-16s %12s %7s %14s %7s %9s  %s\n", "insn", "exits",
            "exits%", "sum usec", "time%", "avg usec", "whatif pv");
    const insnprof_row *order[INSNPROF_MAX];
    for (int i = 0; i < p->n; i++)
        order[i] = &p->rows[i];
    qsort(order, (size_t)p->n, sizeof order[0], by_sum);
    double ex = (double)p->exits, sm = p->sum ? (double)p->sum : 1;
    for (int i = 0; i < p->n; i++) {
        const insnprof_row *r = order[i];
        char nm[48];
        name_of(r, nm, sizeof nm);
        fprintf(f, "# %-16s %12s %7.2f %14s %7.2f %9.2f  %s\n", nm,
                grouped(a, sizeof a, r->count), 100.0 * (double)r->count / ex,
                grouped(b, sizeof b,
                        (uint64_t)((double)r->sum / div + 0.5)),
                100.0 * (double)r->sum / sm,
                (double)r->sum / div / (double)r->count,
                xf_pv_fate(r->inst, r->wait));
    }
    if (p->user)
        fprintf(f, "# %-16s %12s %7.2f %14s %7.2f %9.2f  %s\n", "(user mode)",
                grouped(a, sizeof a, p->user), 100.0 * (double)p->user / ex,
                grouped(b, sizeof b,
                        (uint64_t)((double)p->user_sum / div + 0.5)),
                100.0 * (double)p->user_sum / sm,
                (double)p->user_sum / div / (double)p->user,
                "traps (the kernel patches its own text only)");
    if (p->no_word)
        fprintf(f, "# %-16s %12s %7.2f %14s %7.2f %9.2f  %s\n", "(no word)",
                grouped(a, sizeof a, p->no_word),
                100.0 * (double)p->no_word / ex,
                grouped(b, sizeof b,
                        (uint64_t)((double)p->no_word_sum / div + 0.5)),
                100.0 * (double)p->no_word_sum / sm,
                (double)p->no_word_sum / div / (double)p->no_word,
                "not known: the trace has no instruction word");
    if (p->other)
        fprintf(f, "# %-16s %12s  (more distinct words than %d: counted "
                   "above in the total only)\n",
                "(others)", grouped(a, sizeof a, p->other), INSNPROF_MAX);
}

static const insnprof_row *find(const insnprof *p, const insnprof_row *r)
{
    for (int i = 0; i < p->n; i++)
        if (p->rows[i].key == r->key && p->rows[i].wait == r->wait)
            return &p->rows[i];
    return NULL;
}

static void diff_line(FILE *f, const char *name, uint64_t c0, uint64_t s0,
                      uint64_t c1, uint64_t s1, double div, const char *what)
{
    char a[32], b[32], x[32], y[32];
    double u0 = (double)s0 / div, u1 = (double)s1 / div;
    fprintf(f, "# %-16s %12s %12s %14s %14s %+14.0f  %s\n", name,
            grouped(a, sizeof a, c0), grouped(b, sizeof b, c1),
            grouped(x, sizeof x, (uint64_t)(u0 + 0.5)),
            grouped(y, sizeof y, (uint64_t)(u1 + 0.5)), u1 - u0, what);
}

void insnprof_write_diff(FILE *f, const insnprof *base, const insnprof *pred,
                         const char *ref_label, const char *label)
{
    double div = base->usec ? 1.0 : (double)base->tb_per_usec;
    char a[32], b[32], x[32], y[32];
    fprintf(f,
            "# emulated instructions by instruction word, %s -> %s: %s -> %s "
            "exits, their handlers %s -> %s usec (%s; docs/tables.md \"By "
            "instruction\")\n",
            ref_label, label, grouped(a, sizeof a, base->exits),
            grouped(b, sizeof b, pred->exits),
            grouped(x, sizeof x, (uint64_t)((double)base->sum / div + 0.5)),
            grouped(y, sizeof y, (uint64_t)((double)pred->sum / div + 0.5)),
            base->usec ? "2.6.29 accounting: each sample truncated to usec"
                       : "3.1 accounting: ticks added, then divided");
    if (base->exits == 0 && pred->exits == 0)
        return;
    fprintf(f, "# %-16s %12s %12s %14s %14s %14s  %s\n", "insn", "exits ref",
            "exits new", "sum usec ref", "sum usec new", "new - ref",
            "whatif pv");
    /* the baseline's lines by its time, then the prediction's own */
    const insnprof_row *order[2 * INSNPROF_MAX];
    int n = 0;
    for (int i = 0; i < base->n; i++)
        order[n++] = &base->rows[i];
    qsort(order, (size_t)n, sizeof order[0], by_sum);
    int nb = n;
    for (int i = 0; i < pred->n; i++)
        if (!find(base, &pred->rows[i]))
            order[n++] = &pred->rows[i];
    qsort(order + nb, (size_t)(n - nb), sizeof order[0], by_sum);
    for (int i = 0; i < n; i++) {
        const insnprof_row *r0 = i < nb ? order[i] : find(base, order[i]);
        const insnprof_row *r1 = i < nb ? find(pred, order[i]) : order[i];
        char nm[48];
        name_of(order[i], nm, sizeof nm);
        diff_line(f, nm, r0 ? r0->count : 0, r0 ? r0->sum : 0,
                  r1 ? r1->count : 0, r1 ? r1->sum : 0, div,
                  xf_pv_fate(order[i]->inst, order[i]->wait));
    }
    if (base->user || pred->user)
        diff_line(f, "(user mode)", base->user, base->user_sum, pred->user,
                  pred->user_sum, div,
                  "traps (the kernel patches its own text only)");
    if (base->no_word || pred->no_word)
        diff_line(f, "(no word)", base->no_word, base->no_word_sum,
                  pred->no_word, pred->no_word_sum, div,
                  "not known: the trace has no instruction word");
}
