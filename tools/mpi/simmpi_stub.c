/* simmpi without MPI (CMake found no OpenMPI): one process, rank 0 of 1. */
#include "simmpi.h"

void simmpi_init(simmpi *m)
{
    m->rank = 0;
    m->size = 1;
    m->active = 0;
}

sim_err simmpi_gather(simmpi *m, void *items, size_t size,
                      unsigned char *done, size_t n)
{
    (void)m, (void)items, (void)size, (void)done, (void)n;
    return SIM_OK;
}

void simmpi_finish(simmpi *m)
{
    (void)m;
}

const char *simmpi_describe(void)
{
    return "no MPI in this build (install libopenmpi-dev and re-run cmake)";
}
