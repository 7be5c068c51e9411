/* taus2: the first uniforms of a freshly seeded GSL taus2 generator,
 * computed inline (L'Ecuyer's maximally equidistributed combined
 * Tausworthe generator, seeded as gsl_rng_taus2 seeds it: three LCG steps,
 * then six warm-up draws), for many seeds at once. The cycle model seeds
 * one generator per exit; through GSL's gsl_rng_set and gsl_rng_uniform
 * (calls through function pointers, one seed at a time) that was a fifth
 * of a model replay's time. Only a fast path: whenever more than these
 * first two draws are needed, the model seeds gsl_rng_taus2 itself and
 * draws through GSL, which stays the generator of record.
 * tests/test_cost.c checks the draws equal GSL's for many seeds. */
#ifndef TAUS2_H
#define TAUS2_H

#include <stdint.h>

/* The 32-bit word gsl_rng_set(r, seed) starts taus2 from (it takes 0 as 1;
 * its LCG keeps the low 32 bits only). */
static inline uint32_t taus2_seed_word(unsigned long seed)
{
    return (uint32_t)(seed ? seed : 1);
}

/* One step of the three component generators. */
#define TAUS2_STEP(a, b, c)                                                    \
    do {                                                                       \
        a = ((a & 0xfffffffeu) << 12) ^ (((a << 13) ^ a) >> 19);               \
        b = ((b & 0xfffffff8u) << 4) ^ (((b << 2) ^ b) >> 25);                 \
        c = ((c & 0xfffffff0u) << 17) ^ (((c << 3) ^ c) >> 11);                \
    } while (0)

/* x1[i], x2[i]: the first two gsl_rng_get draws of taus2 generators seeded
 * from the words w[i] (taus2_seed_word), for i < n. Branch-free over
 * independent lanes, so that the compiler vectorizes it. */
static inline void taus2_first2(const uint32_t *w, unsigned n, uint32_t *x1,
                                uint32_t *x2)
{
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = 69069u * w[i];
        a += a < 2 ? 2u : 0u;
        uint32_t b = 69069u * a;
        b += b < 8 ? 8u : 0u;
        uint32_t c = 69069u * b;
        c += c < 16 ? 16u : 0u;
        for (int k = 0; k < 6; k++) /* GSL's warm-up */
            TAUS2_STEP(a, b, c);
        TAUS2_STEP(a, b, c);
        x1[i] = a ^ b ^ c;
        TAUS2_STEP(a, b, c);
        x2[i] = a ^ b ^ c;
    }
}

#endif
