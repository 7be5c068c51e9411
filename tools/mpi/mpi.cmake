# tools/mpi: MPI for `sim sweep` under mpirun/srun (Debian libopenmpi-dev,
# optional). Without it a stub of one process (rank 0 of 1) is built and
# the command runs on one machine unchanged.
find_package(MPI COMPONENTS C QUIET)
if(MPI_C_FOUND AND NOT SIM_FUZZ)
  message(STATUS "MPI found (${MPI_C_LIBRARY_VERSION_STRING}): sim sweep splits points over ranks")
  add_library(simmpi STATIC ${CMAKE_SOURCE_DIR}/tools/mpi/simmpi_mpi.c)
  target_link_libraries(simmpi PUBLIC simmodel MPI::MPI_C)
  set(SIM_HAVE_MPI 1)
else()
  if(NOT SIM_FUZZ)
    message(STATUS "MPI not found: sim sweep runs in one process (Debian packages openmpi-bin libopenmpi-dev)")
  endif()
  add_library(simmpi STATIC ${CMAKE_SOURCE_DIR}/tools/mpi/simmpi_stub.c)
  target_link_libraries(simmpi PUBLIC simmodel)
  set(SIM_HAVE_MPI 0)
endif()
target_include_directories(simmpi PUBLIC ${CMAKE_SOURCE_DIR}/tools/mpi)
list(APPEND SIM_EXTRA_LIBS simmpi)
