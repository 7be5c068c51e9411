/* simmpi: the few MPI calls `sim sweep` makes, so that the command runs
 * unchanged under mpirun/srun and in a build without MPI. The
 * real one (tools/mpi/simmpi_mpi.c, built when CMake finds OpenMPI),
 * simmpi_stub.c otherwise: a single process of rank 0. */
#ifndef SIMMPI_H
#define SIMMPI_H

#include <stddef.h>

#include "sim_err.h"

typedef struct simmpi {
    unsigned rank, size; /* 0, 1 without MPI or outside mpirun */
    int active;          /* this process called MPI_Init */
} simmpi;

/* Joins the MPI job if the process was started by mpirun/srun. */
void simmpi_init(simmpi *m);
/* Rank 0 receives every rank's finished items: item i comes from the rank
 * whose done[i] is set (items are `size` bytes each). Collective. */
SIM_MUST_CHECK sim_err simmpi_gather(simmpi *m, void *items, size_t size,
                                     unsigned char *done, size_t n);
void simmpi_finish(simmpi *m);
/* "OpenMPI x.y" or "no MPI in this build". */
const char *simmpi_describe(void);

#endif
