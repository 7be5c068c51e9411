/* dev: the devices QEMU gives a 44x guest that matter for exits: a 16550
 * UART reached by MMIO (MMIO exits) and the UIC interrupt controller
 * reached by DCRs (DCR exits), after QEMU hw/char/serial.c and
 * hw/intc/ppc-uic.c; plus a power-off DCR to end a scenario. */
#include <string.h>

#include "cpu440_priv.h"

#define LSR_DR   0x01u
#define LSR_THRE 0x20u
#define LSR_TEMT 0x40u
#define IER_RDI  0x01u

static bool uart_irq(const cpu440 *c)
{
    return (c->uart.ier & IER_RDI) && c->uart.rx_len > 0;
}

/* UIC status: level inputs re-assert while the source is high. */
static void uic_update(cpu440 *c)
{
    if (uart_irq(c))
        c->uic.sr |= UIC_UART_BIT;
}

bool dev_ext_pending(const cpu440 *c)
{
    uint32_t sr = c->uic.sr | (uart_irq(c) ? UIC_UART_BIT : 0);
    return (sr & c->uic.er) != 0;
}

/* Whether a received line would wake a waiting guest. */
bool dev_uart_rx_wakes(const cpu440 *c)
{
    return (c->uart.ier & IER_RDI) && (c->uic.er & UIC_UART_BIT);
}

void dev_uart_input(cpu440 *c, const char *s, size_t n)
{
    uart *u = &c->uart;
    for (size_t i = 0; i < n && u->rx_len < sizeof u->rx; i++) {
        u->rx[(u->rx_head + u->rx_len) % sizeof u->rx] = s[i];
        u->rx_len++;
    }
    uic_update(c);
}

uint32_t dev_mmio_read(cpu440 *c, uint32_t off, unsigned size)
{
    (void)size;
    uart *u = &c->uart;
    switch (off & 7u) {
    case 0:
        if (u->lcr & 0x80)
            return u->dll;
        if (u->rx_len) {
            uint8_t ch = (uint8_t)u->rx[u->rx_head];
            u->rx_head = (u->rx_head + 1) % sizeof u->rx;
            if (--u->rx_len == 0 && c->input && c->input_pos < c->input_len)
                /* the next line comes after the user's think time */
                c->next_input = cpu_tb_now(c) +
                                (uint64_t)(c->c.think_s * (double)c->c.tb_hz);
            return ch;
        }
        return 0;
    case 1: return (u->lcr & 0x80) ? u->dlm : u->ier;
    case 2: return uart_irq(c) ? 0x04u : 0x01u; /* IIR: RX data / none */
    case 3: return u->lcr;
    case 4: return u->mcr;
    case 5: return LSR_THRE | LSR_TEMT | (u->rx_len ? LSR_DR : 0);
    case 6: return 0xb0u; /* MSR: CTS, DSR, DCD */
    default: return u->scr;
    }
}

void dev_mmio_write(cpu440 *c, uint32_t off, unsigned size, uint32_t v)
{
    (void)size;
    uart *u = &c->uart;
    uint8_t b = (uint8_t)v;
    switch (off & 7u) {
    case 0:
        if (u->lcr & 0x80)
            u->dll = b;
        else if (u->console)
            u->console(u->console_ctx, b);
        break;
    case 1:
        if (u->lcr & 0x80)
            u->dlm = b;
        else
            u->ier = b & 0x0fu;
        break;
    case 3: u->lcr = b; break;
    case 4: u->mcr = b; break;
    case 7: u->scr = b; break;
    default: break; /* FCR */
    }
    uic_update(c);
}

uint32_t dev_dcr_read(cpu440 *c, unsigned dcrn)
{
    uic *q = &c->uic;
    uic_update(c);
    switch (dcrn) {
    case DCR_UIC0_SR: return q->sr;
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
    case DCR_UIC0_SR: q->sr &= ~v; break; /* write 1 to clear */
    case DCR_UIC0_ER: q->er = v; break;
    case DCR_UIC0_CR: q->cr = v; break;
    case DCR_UIC0_PR: q->pr = v; break;
    case DCR_UIC0_TR: q->tr = v; break;
    case DCR_UIC0_VCR: q->vcr = v; break;
    case DCR_POWEROFF: c->poweroff = true; break;
    default: break;
    }
    uic_update(c);
}
