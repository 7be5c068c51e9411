/* exits: names and properties generated from EXIT_LIST (exits.h). */
#include "exits.h"

#include <string.h>

static const char *const names[EXIT__COUNT] = {
#define X(e, n, f) [EXIT_##e] = n,
    EXIT_LIST(X)
#undef X
};

static const unsigned flags[EXIT__COUNT] = {
#define X(e, n, f) [EXIT_##e] = (f),
    EXIT_LIST(X)
#undef X
};

const char *exit_name(exit_type t)
{
    return (unsigned)t < EXIT__COUNT ? names[t] : NULL;
}

int exit_from_namen(const char *name, unsigned len)
{
    for (int i = 0; i < EXIT__COUNT; i++)
        if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
            return i;
    return -1;
}

int exit_from_name(const char *name)
{
    return exit_from_namen(name, (unsigned)strlen(name));
}

/* Levenshtein distance, small strings only (names are < 16 chars). */
static unsigned edit_distance(const char *a, const char *b)
{
    unsigned la = (unsigned)strlen(a), lb = (unsigned)strlen(b);
    unsigned row[64];
    if (la > 63 || lb > 63)
        return 99;
    for (unsigned j = 0; j <= lb; j++)
        row[j] = j;
    for (unsigned i = 1; i <= la; i++) {
        unsigned prev = row[0];
        row[0] = i;
        for (unsigned j = 1; j <= lb; j++) {
            unsigned cur = row[j];
            unsigned cost = a[i - 1] == b[j - 1] ? 0 : 1;
            unsigned best = prev + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            prev = cur;
        }
    }
    return row[lb];
}

const char *exit_nearest_name(const char *name)
{
    const char *best = names[0];
    unsigned bd = ~0u;
    for (int i = 0; i < EXIT__COUNT; i++) {
        unsigned d = edit_distance(name, names[i]);
        if (d < bd) {
            bd = d;
            best = names[i];
        }
    }
    return best;
}

unsigned exit_flags(exit_type t)
{
    return (unsigned)t < EXIT__COUNT ? flags[t] : 0;
}

static const char *const irq_names[16] = {
#define X(n, v) [v] = #n,
    BOOKE_IRQ_LIST(X)
#undef X
};

const char *booke_irq_name(unsigned irq)
{
    return irq < 16 ? irq_names[irq] : NULL;
}

int booke_irq_from_name(const char *name)
{
    for (int i = 0; i < 16; i++)
        if (irq_names[i] && strcmp(irq_names[i], name) == 0)
            return i;
    return -1;
}

int exit_default_irq(exit_type t)
{
    switch (t) {
    case EXIT_MMIO:
    case EXIT_DTLBREAL:
    case EXIT_DTLBVIRT:
    case EXIT_DTLBPV:
        return BOOKE_IRQ_DTLB_MISS;
    case EXIT_ITLBREAL:
    case EXIT_ITLBVIRT:
        return BOOKE_IRQ_ITLB_MISS;
    case EXIT_SYSCALL:
    case EXIT_HCALL:
        return BOOKE_IRQ_SYSCALL;
    case EXIT_ISI:
        return BOOKE_IRQ_INST_STORAGE;
    case EXIT_DSI:
        return BOOKE_IRQ_DATA_STORAGE;
    case EXIT_DEC:
        return BOOKE_IRQ_DECREMENTER;
    case EXIT_EXTINT:
    case EXIT_SIGNAL:
        return BOOKE_IRQ_EXTERNAL;
    case EXIT_FP_UNAVAIL:
        return BOOKE_IRQ_FP_UNAVAIL;
    case EXIT_DEBUG:
        return BOOKE_IRQ_DEBUG;
    case EXIT_HALT:
    case EXIT_TIMEINGUEST:
    case EXIT__COUNT:
        return -1;
    default:
        return BOOKE_IRQ_PROGRAM; /* DCR, EMULINST, EMUL_*, USR_PR_INST */
    }
}
