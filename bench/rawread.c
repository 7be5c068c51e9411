/* rawread: the baseline of bench_replay.sh - a minimal sequential reader
 * that read()s the file in 2 MiB chunks and touches one word of every
 * 32-byte record, so replay is compared against just reading the data. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: rawread FILE\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        perror(argv[1]);
        return 2;
    }
    size_t cap = 2u << 20;
    unsigned char *buf = malloc(cap);
    if (!buf)
        return 2;
    uint64_t acc = 0, bytes = 0;
    for (;;) {
        ssize_t n = read(fd, buf, cap);
        if (n < 0) {
            perror("read");
            return 2;
        }
        if (n == 0)
            break;
        for (ssize_t i = 0; i + 8 <= n; i += 32) {
            uint64_t w;
            memcpy(&w, buf + i, 8);
            acc += w;
        }
        bytes += (uint64_t)n;
    }
    printf("%llu bytes, checksum %llx\n", (unsigned long long)bytes,
           (unsigned long long)acc);
    free(buf);
    close(fd);
    return 0;
}
