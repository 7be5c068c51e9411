/* dev: the devices QEMU gives a 44x guest that matter for exits: a 16550
 * UART reached by MMIO (MMIO exits) and the UIC interrupt controller
 * reached by DCRs (DCR exits). Their register behaviour follows QEMU's
 * hw/char/serial.c and hw/intc/ppc-uic.c (7.2), the devices the Linux
 * oracle (workloads/linux/qemu-oracle.sh) boots on, so that a guest driver
 * takes the same paths on both; plus a power-off DCR to end a scenario. */
#include <string.h>

#include "cpu440_priv.h"

#define LSR_DR      0x01u
#define LSR_OE      0x02u
#define LSR_BI      0x10u
#define LSR_THRE    0x20u
#define LSR_TEMT    0x40u
#define LSR_INT_ANY 0x1eu
#define IER_RDI     0x01u
#define IER_THRI    0x02u
#define IER_RLSI    0x04u
#define IER_MSI     0x08u
#define IIR_NO_INT  0x01u
#define IIR_THRI    0x02u
#define IIR_RDI     0x04u
#define IIR_RLSI    0x06u
#define IIR_MSI     0x00u
#define IIR_ID      0x06u
#define IIR_FE      0xc0u
#define FCR_FE      0x01u
#define MCR_LOOP    0x10u
#define MCR_OUT2    0x08u
#define LCR_DLAB    0x80u
#define MSR_DELTA   0x0fu

/* ---- UIC0 ---- */
static void uic_set_input(cpu440 *c, unsigned n, bool level)
{
    uic *q = &c->uic;
    uint32_t mask = 0x80000000u >> n;
    if (q->tr & mask) { /* edge */
        if (level)
            q->sr |= mask;
    } else if (level) {
        q->sr |= mask;
        q->level |= mask;
    } else {
        q->sr &= ~mask;
        q->level &= ~mask;
    }
}

/* The UIC's non-critical output (critical interrupts are not modelled:
 * no guest routes a source to them). */
bool dev_ext_pending(const cpu440 *c)
{
    return (c->uic.sr & c->uic.er & ~c->uic.cr) != 0;
}

/* ---- 16550 ---- */
static void uart_update_irq(cpu440 *c)
{
    uart *u = &c->uart;
    uint8_t id = IIR_NO_INT;
    if ((u->ier & IER_RLSI) && (u->lsr & LSR_INT_ANY))
        id = IIR_RLSI;
    else if ((u->ier & IER_RDI) && (u->lsr & LSR_DR))
        id = IIR_RDI;
    else if ((u->ier & IER_THRI) && u->thr_ipending)
        id = IIR_THRI;
    else if ((u->ier & IER_MSI) && (u->msr & MSR_DELTA))
        id = IIR_MSI;
    u->iir = (uint8_t)(id | (u->iir & 0xf0u));
    uic_set_input(c, 0, id != IIR_NO_INT);
}

void dev_reset(cpu440 *c)
{
    uart *u = &c->uart;
    void (*con)(void *, int) = u->console;
    void *ctx = u->console_ctx;
    memset(u, 0, sizeof *u);
    u->console = con;
    u->console_ctx = ctx;
    u->lsr = LSR_TEMT | LSR_THRE;
    u->msr = 0xb0u; /* DCD, DSR, CTS */
    u->iir = IIR_NO_INT;
    u->divider = 12;
    u->mcr = MCR_OUT2;
    memset(&c->uic, 0, sizeof c->uic);
}

/* Whether a received line would wake a waiting guest. */
bool dev_uart_rx_wakes(const cpu440 *c)
{
    return (c->uart.ier & IER_RDI) && (c->uic.er & UIC_UART_BIT);
}

void dev_uart_input(cpu440 *c, const char *s, size_t n)
{
    uart *u = &c->uart;
    for (size_t i = 0; i < n; i++) {
        if (u->rx_len == sizeof u->rx) {
            u->lsr |= LSR_OE;
            break;
        }
        u->rx[(u->rx_head + u->rx_len) % sizeof u->rx] = s[i];
        u->rx_len++;
    }
    if (u->rx_len)
        u->lsr |= LSR_DR;
    uart_update_irq(c);
}

static uint8_t uart_rx(cpu440 *c)
{
    uart *u = &c->uart;
    uint8_t ch = 0;
    if (u->rx_len) {
        ch = (uint8_t)u->rx[u->rx_head];
        u->rx_head = (u->rx_head + 1) % sizeof u->rx;
        if (--u->rx_len == 0 && c->input && c->input_pos < c->input_len)
            /* the next line comes after the user's think time */
            c->next_input = cpu_tb_now(c) +
                            (uint64_t)(c->c.think_s * (double)c->c.tb_hz);
    }
    if (!u->rx_len)
        u->lsr &= (uint8_t)~(LSR_DR | LSR_BI);
    uart_update_irq(c);
    return ch;
}

uint32_t dev_mmio_read(cpu440 *c, uint32_t off, unsigned size)
{
    (void)size;
    uart *u = &c->uart;
    uint32_t r;
    switch (off & 7u) {
    case 0:
        return (u->lcr & LCR_DLAB) ? (u->divider & 0xffu) : uart_rx(c);
    case 1: return (u->lcr & LCR_DLAB) ? (uint32_t)(u->divider >> 8) : u->ier;
    case 2:
        r = u->iir;
        if ((r & IIR_ID) == IIR_THRI) { /* reading IIR acknowledges THRE */
            u->thr_ipending = false;
            uart_update_irq(c);
        }
        return r;
    case 3: return u->lcr;
    case 4: return u->mcr;
    case 5:
        r = u->lsr;
        if (u->lsr & (LSR_BI | LSR_OE)) {
            u->lsr &= (uint8_t)~(LSR_BI | LSR_OE);
            uart_update_irq(c);
        }
        return r;
    case 6:
        if (u->mcr & MCR_LOOP) /* modem outputs looped to the inputs */
            return (uint32_t)((u->mcr & 0x0cu) << 4 | (u->mcr & 0x02u) << 3 |
                              (u->mcr & 0x01u) << 5);
        r = u->msr;
        if (u->msr & MSR_DELTA) {
            u->msr &= 0xf0u;
            uart_update_irq(c);
        }
        return r;
    default: return u->scr;
    }
}

static void uart_thr(cpu440 *c, uint8_t b)
{
    uart *u = &c->uart;
    u->thr_ipending = false;
    u->lsr &= (uint8_t)~(LSR_THRE | LSR_TEMT);
    uart_update_irq(c);
    if (u->mcr & MCR_LOOP)
        dev_uart_input(c, (const char *)&b, 1);
    else if (u->console)
        u->console(u->console_ctx, b);
    /* sent at once: the holding register is empty again */
    u->lsr |= LSR_THRE | LSR_TEMT;
    u->thr_ipending = true;
    uart_update_irq(c);
}

void dev_mmio_write(cpu440 *c, uint32_t off, unsigned size, uint32_t v)
{
    (void)size;
    uart *u = &c->uart;
    uint8_t b = (uint8_t)v, changed;
    switch (off & 7u) {
    case 0:
        if (u->lcr & LCR_DLAB)
            u->divider = (uint16_t)((u->divider & 0xff00u) | b);
        else
            uart_thr(c, b);
        break;
    case 1:
        if (u->lcr & LCR_DLAB) {
            u->divider = (uint16_t)((u->divider & 0x00ffu) | b << 8);
            break;
        }
        changed = (uint8_t)((u->ier ^ b) & 0x0fu);
        u->ier = b & 0x0fu;
        /* turning ETBEI on with THR empty raises THRE again */
        if (changed & IER_THRI)
            u->thr_ipending = (u->ier & IER_THRI) && (u->lsr & LSR_THRE);
        if (changed)
            uart_update_irq(c);
        break;
    case 2:
        if (u->fcr == b)
            break;
        if (b & 0x02u) { /* receive FIFO reset */
            u->rx_len = 0;
            u->lsr &= (uint8_t)~(LSR_DR | LSR_BI);
        }
        if (b & FCR_FE)
            u->iir |= IIR_FE;
        else
            u->iir &= (uint8_t)~IIR_FE;
        u->fcr = b & 0xc9u;
        uart_update_irq(c);
        break;
    case 3: u->lcr = b; break;
    case 4: u->mcr = b & 0x1fu; break;
    case 7: u->scr = b; break;
    default: break; /* LSR, MSR: read-only */
    }
}

uint32_t dev_dcr_read(cpu440 *c, unsigned dcrn)
{
    uic *q = &c->uic;
    switch (dcrn) {
    case DCR_UIC0_SR:
    case DCR_UIC0_SR + 1: return q->sr; /* SR, SRS */
    case DCR_UIC0_ER: return q->er;
    case DCR_UIC0_CR: return q->cr;
    case DCR_UIC0_PR: return q->pr;
    case DCR_UIC0_TR: return q->tr;
    case DCR_UIC0_MSR: return q->sr & q->er;
    case DCR_UIC0_VCR: return q->vcr;
    default: return 0;
    }
}

void dev_dcr_write(cpu440 *c, unsigned dcrn, uint32_t v)
{
    uic *q = &c->uic;
    switch (dcrn) {
    case DCR_UIC0_SR: /* write 1 to clear; a high level input stays set */
        q->sr &= ~v;
        q->sr |= q->level;
        break;
    case DCR_UIC0_SR + 1: q->sr |= v; break; /* SRS: set */
    case DCR_UIC0_ER: q->er = v; break;
    case DCR_UIC0_CR: q->cr = v; break;
    case DCR_UIC0_PR: q->pr = v; break;
    case DCR_UIC0_TR: q->tr = v; break;
    case DCR_UIC0_VCR: q->vcr = v & 0xfffffffdu; break;
    case DCR_POWEROFF: c->poweroff = true; break;
    default: break;
    }
}
