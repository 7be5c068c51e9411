/* nearest: the "did you mean" of every name a user types (exit types,
 * parameters): the shortest candidate the typed name is a prefix of (a
 * name cut short), else the candidate at the smallest edit distance; case
 * is ignored in both. */
#ifndef NEAREST_H
#define NEAREST_H

typedef struct nearest {
    const char *want;
    const char *prefix; /* shortest candidate starting with want */
    const char *best;   /* smallest edit distance so far */
    unsigned dist;
} nearest;

void nearest_init(nearest *n, const char *want);
void nearest_offer(nearest *n, const char *candidate);
/* The suggestion; NULL if no candidate was offered. */
const char *nearest_best(const nearest *n);
/* Levenshtein distance ignoring case (names longer than 63 bytes are cut
 * there). */
unsigned nearest_distance(const char *a, const char *b);

#endif
