/* exits: names and properties generated from EXIT_LIST (exits.h). */
#include "exits.h"

#include "nearest.h"

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

const char *exit_nearest_name(const char *name)
{
    nearest n;
    nearest_init(&n, name);
    for (int i = 0; i < EXIT__COUNT; i++)
        nearest_offer(&n, names[i]);
    return nearest_best(&n);
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
