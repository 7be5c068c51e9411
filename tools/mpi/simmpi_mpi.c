/* simmpi with OpenMPI: joins the job when started by mpirun or srun (their
 * environment says so), else runs as one process without touching MPI, so
 * the same binary serves both. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "simmpi.h"

static int launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK",
                                       "PMI_RANK", "PMI_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return 1;
    return 0;
}

void simmpi_init(simmpi *m)
{
    m->rank = 0;
    m->size = 1;
    m->active = 0;
    if (!launched())
        return;
    int r, s;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    m->rank = (unsigned)r;
    m->size = (unsigned)s;
    m->active = 1;
}

/* k indices and k items of `size` bytes; out of memory ends the job. */
static sim_err alloc_items(uint64_t k, size_t size, uint64_t **idx,
                           unsigned char **buf)
{
    *idx = malloc((k + 1) * sizeof **idx);
    *buf = malloc(k * size + 1);
    if (*idx && *buf)
        return SIM_OK;
    free(*idx);
    free(*buf);
    MPI_Abort(MPI_COMM_WORLD, 2);
    return sim_fail(SIM_ERR_NOMEM, "mpi: out of memory");
}

sim_err simmpi_gather(simmpi *m, void *items, size_t size,
                      unsigned char *done, size_t n)
{
    if (!m->active || m->size < 2)
        return SIM_OK;
    unsigned char *base = items;
    if (m->rank != 0) {
        uint64_t k = 0;
        for (size_t i = 0; i < n; i++)
            k += done[i] != 0;
        uint64_t *idx;
        unsigned char *buf;
        if (alloc_items(k, size, &idx, &buf) != SIM_OK)
            return SIM_ERR_NOMEM;
        uint64_t j = 0;
        for (size_t i = 0; i < n; i++)
            if (done[i]) {
                idx[j] = i;
                memcpy(buf + j * size, base + i * size, size);
                j++;
            }
        MPI_Send(&k, 1, MPI_UINT64_T, 0, 1, MPI_COMM_WORLD);
        MPI_Send(idx, (int)k, MPI_UINT64_T, 0, 2, MPI_COMM_WORLD);
        MPI_Send(buf, (int)(k * size), MPI_BYTE, 0, 3, MPI_COMM_WORLD);
        free(idx);
        free(buf);
        return SIM_OK;
    }
    for (unsigned r = 1; r < m->size; r++) {
        uint64_t k;
        MPI_Recv(&k, 1, MPI_UINT64_T, (int)r, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        uint64_t *idx;
        unsigned char *buf;
        if (alloc_items(k, size, &idx, &buf) != SIM_OK)
            return SIM_ERR_NOMEM;
        MPI_Recv(idx, (int)k, MPI_UINT64_T, (int)r, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Recv(buf, (int)(k * size), MPI_BYTE, (int)r, 3, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        for (uint64_t j = 0; j < k; j++) {
            if (idx[j] >= n)
                continue;
            memcpy(base + idx[j] * size, buf + j * size, size);
            done[idx[j]] = 1;
        }
        free(idx);
        free(buf);
    }
    return SIM_OK;
}

void simmpi_finish(simmpi *m)
{
    if (m->active)
        MPI_Finalize();
    m->active = 0;
}

const char *simmpi_describe(void)
{
    return "OpenMPI";
}
