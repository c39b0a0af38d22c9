// A program that uses MPI itself: it initializes MPI (homp then joins the
// job through the program's MPI, on a communicator of its own), sends its
// own messages around homp's constructs (one still in flight while a
// construct completes the ranks' results), and finalizes MPI before it
// exits. 'hompcc -mpi' adds MPI's include and link flags, as mpicc does.
// REQUIRES: mpi
// RUN: %hompcc -mpi -O2 %s -o %t
// RUN: env HOMP_DEVICES=0,1 %mpirun -n 2 %t | sort | FileCheck %s --check-prefix=TWO --implicit-check-not=FAIL
// RUN: env HOMP_DEVICES=1 %mpirun -n 3 %t | sort | FileCheck %s --check-prefix=THREE --implicit-check-not=FAIL
// TWO-COUNT-2: PASS
// THREE-COUNT-3: PASS

#include <mpi.h>
#include <stdio.h>

enum { N = 3001 };
static double y[N];

int main(int argc, char **argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < N; ++i)
    y[i] = i % 10;
  // The program's own message to the next rank, received after homp's
  // construct.
  int token = 100 + rank, got = -1;
  MPI_Request req;
  MPI_Isend(&token, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, &req);
  double s = 0;
#pragma omp target device(*) map(tofrom: y[0:N] dist_data(BLOCK)) map(tofrom: s)
#pragma omp parallel for reduction(+: s)
  for (int i = 0; i < N; ++i) {
    y[i] = 2 * y[i] + rank; // ranks differ: each keeps what it computed
    s += y[i];
  }
  MPI_Recv(&got, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  // Each element holds the rank that computed it: rank q ran a contiguous
  // part, in rank order.
  int ok = got == 100 + (rank + size - 1) % size;
  double want = 0;
  int owner = 0, last = 0;
  for (int i = 0; i < N; ++i) {
    int q = (int)(y[i] - 2 * (i % 10));
    ok &= q >= last && q < size;
    last = q;
    want += y[i];
    owner |= 1 << q;
  }
  ok &= owner == (1 << size) - 1 && s == want;
  // The program's own collective between homp's constructs.
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  printf("%s\n", all ? "PASS" : "FAIL");
  MPI_Finalize();
  return !all;
}
