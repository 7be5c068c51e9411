/* ustart: entry of the user binary; words 1-3 tell the kernel the image
 * layout (end of text, end of data, end of bss) for demand paging, word 4
 * is umain for the hook-free benchmark (bench/cpu440_plain.c). */
    .section .text.start, "ax"
    .globl _ustart
_ustart:
    b       1f
    .long   _etext_page
    .long   _edata
    .long   _end
    .long   umain
1:  stwu    1, -16(1)
    bl      umain
    mr      4, 3
    li      0, 1 /* exit */
    mr      3, 4
    sc
    b       .
