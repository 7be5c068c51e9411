/* nearest: prefix match, else Levenshtein distance over the candidates,
 * both ignoring case (ICACHE_BYTES finds icache_bytes, emulinst EMULINST). */
#include "nearest.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static int fold(char c)
{
    return tolower((unsigned char)c);
}

unsigned nearest_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63)
        la = 63;
    if (lb > 63)
        lb = 63;
    unsigned row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned best = diag + (fold(a[i - 1]) != fold(b[j - 1]));
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

void nearest_init(nearest *n, const char *want)
{
    n->want = want;
    n->prefix = NULL;
    n->best = NULL;
    n->dist = ~0u;
}

void nearest_offer(nearest *n, const char *c)
{
    size_t w = strlen(n->want);
    /* a prefix of 3 or more characters beats edit distance, which favours
     * short names over the one that was cut short */
    if (w >= 3 && strncasecmp(c, n->want, w) == 0 &&
        (!n->prefix || strlen(c) < strlen(n->prefix)))
        n->prefix = c;
    unsigned d = nearest_distance(n->want, c);
    if (d < n->dist) {
        n->dist = d;
        n->best = c;
    }
}

const char *nearest_best(const nearest *n)
{
    return n->prefix ? n->prefix : n->best;
}
