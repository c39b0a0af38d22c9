//===-- mpi.c - Kernels over the ranks of an MPI job: hand-written, homp ---===//
//
// Two kernels of the seed papers over every device of every rank, in two
// versions side by side (issue 38's benchmark):
//   mpi   hand-written MPI + OpenMP offload: each rank takes a contiguous
//         BLOCK of the rows, one host thread per local device runs its part
//         of them, then MPI_Allgatherv completes every rank's host array
//   homp  the single-node homp program, unchanged: homp splits the loop
//         over the ranks, then over each rank's devices, and completes the
//         host arrays itself
// Kernels: AXPY (y += a * x, PMAM'15 Figure 1), one sweep of the 5-point
// Jacobi stencil over rows (out from in, PMAM'15 Figure 2's kernel) with
// its error as a reduction (MPI_Allreduce in the hand-written version),
// and 'region': 10 sweeps inside a data region, the arrays resident on the
// devices, halos exchanged between devices and ranks (PMAM'15 Figure 2).
//
// usage: mpirun -n R mpi KERNEL MODE N REPETITIONS
// N: elements (axpy) or rows of N x 512 (jacobi), over all the ranks.
// BENCH_DEVICES=D: each rank uses devices 0 .. D-1 (the hand-written
// version's threads; run.py gives homp the same with HOMP_DEVICES).
// Rank 0 prints "MODE N MEDIAN_SECONDS MEAN_SECONDS CHECKSUM" (bench.h),
// each call timed from a barrier to the slowest rank's end.
//
//===----------------------------------------------------------------------===//

#include "../common/bench.h"

#include <mpi.h>
#include <omp.h>
#include <string.h>

enum { COLS = 512 };

static int rank, size;
static long n;
static double *x, *y, *in, *out, err;

/// The devices each rank uses: BENCH_DEVICES, else all.
static int devices(void) {
  const char *D = getenv("BENCH_DEVICES");
  int N = omp_get_num_devices();
  return D && atoi(D) > 0 && atoi(D) < N ? atoi(D) : N;
}

/// This rank's BLOCK of [0, Count): [*First, *First + *Len).
static void block(long Count, int Part, int Parts, long *First, long *Len) {
  long Base = Count / Parts, Extra = Count % Parts;
  *First = Part * Base + (Part < Extra ? Part : Extra);
  *Len = Base + (Part < Extra);
}

/// Every rank's block of Count rows of Row elements from row First,
/// gathered on every rank.
static void gather(double *A, long First, long Count, long Row) {
  int *Counts = malloc(size * sizeof *Counts), *Displs = malloc(size * sizeof *Displs);
  for (int R = 0; R < size; ++R) {
    long F, L;
    block(Count, R, size, &F, &L);
    Counts[R] = (int)(L * Row);
    Displs[R] = (int)((F + First) * Row);
  }
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, A, Counts, Displs,
                 MPI_DOUBLE, MPI_COMM_WORLD);
  free(Counts);
  free(Displs);
}

static void axpy_mpi(void *Ctx) {
  (void)Ctx;
  long First, Len;
  block(n, rank, size, &First, &Len);
  int ndev = devices();
#pragma omp parallel num_threads(ndev)
  {
    int dev = omp_get_thread_num();
    long F, L;
    block(Len, dev, ndev, &F, &L);
    F += First;
#pragma omp target device(dev) map(tofrom: y[F:L]) map(to: x[F:L])
#pragma omp parallel for
    for (long i = F; i < F + L; ++i)
      y[i] += 2.0 * x[i];
  }
  gather(y, 0, n, 1);
}

static void axpy_homp(void *Ctx) {
  (void)Ctx;
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK)) map(to: x[0:n] dist_data(BLOCK))
#pragma omp parallel for
  for (long i = 0; i < n; ++i)
    y[i] += 2.0 * x[i];
}

static void jacobi_mpi(void *Ctx) {
  (void)Ctx;
  long First, Len;
  block(n - 2, rank, size, &First, &Len);
  First += 1; // rows 1 .. n - 2
  int ndev = devices();
  double e = 0;
#pragma omp parallel num_threads(ndev) reduction(+: e)
  {
    int dev = omp_get_thread_num();
    long F, L;
    block(Len, dev, ndev, &F, &L);
    F += First;
    double de = 0;
#pragma omp target device(dev) map(to: in[(F - 1) * COLS:(L + 2) * COLS]) map(tofrom: out[F * COLS:L * COLS], de)
#pragma omp parallel for reduction(+: de)
    for (long i = F; i < F + L; ++i)
      for (long j = 1; j < COLS - 1; ++j) {
        double v = 0.25 * (in[(i - 1) * COLS + j] + in[(i + 1) * COLS + j] +
                           in[i * COLS + j - 1] + in[i * COLS + j + 1]);
        de += (v - in[i * COLS + j]) * (v - in[i * COLS + j]);
        out[i * COLS + j] = v;
      }
    e += de;
  }
  // out's rows 1 .. n - 2, each rank's block, to every rank.
  gather(out, 1, n - 2, COLS);
  MPI_Allreduce(&e, &err, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void jacobi_homp(void *Ctx) {
  (void)Ctx;
  double(*a)[COLS] = (double(*)[COLS])in, (*b)[COLS] = (double(*)[COLS])out;
  double e = 0;
#pragma omp target device(*) map(to: a[0:n][0:COLS] dist_data(BLOCK, *) halo(1,)) map(tofrom: b[0:n][0:COLS] dist_data(BLOCK, *)) map(tofrom: e)
#pragma omp parallel for collapse(2) reduction(+: e)
  for (long i = 1; i < n - 1; ++i)
    for (long j = 1; j < COLS - 1; ++j) {
      double v =
          0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
      e += (v - a[i][j]) * (v - a[i][j]);
      b[i][j] = v;
    }
  err = e;
}

enum { STEPS = 10 };

/// STEPS Jacobi sweeps with the arrays resident: each rank its block of
/// rows, each local device its part of them with a halo row on each side,
/// halos exchanged between the devices through the host and between the
/// ranks with MPI_Sendrecv, the error summed with MPI_Allreduce; at the end
/// MPI_Allgatherv completes every rank's host array.
static void region_mpi(void *Ctx) {
  (void)Ctx;
  long First, Len;
  block(n - 2, rank, size, &First, &Len);
  First += 1;
  const int ndev = devices();
  long F[64], L[64];
  for (int d = 0; d < ndev; ++d) {
    block(Len, d, ndev, &F[d], &L[d]);
    F[d] += First;
  }
  for (int d = 0; d < ndev; ++d) {
    long lo = F[d] - 1, len = L[d] + 2;
#pragma omp target enter data device(d) map(to: in[lo * COLS:len * COLS], out[lo * COLS:len * COLS])
  }
  double e = 0;
  for (int s = 0; s < STEPS; ++s) {
    e = 0;
#pragma omp parallel num_threads(ndev) reduction(+: e)
    {
      const int d = omp_get_thread_num();
      const long f = F[d], l = L[d];
      double de = 0;
#pragma omp target device(d) map(tofrom: de)
#pragma omp parallel for reduction(+: de)
      for (long i = f; i < f + l; ++i)
        for (long j = 1; j < COLS - 1; ++j) {
          double v = 0.25 * (in[(i - 1) * COLS + j] + in[(i + 1) * COLS + j] +
                             in[i * COLS + j - 1] + in[i * COLS + j + 1]);
          de += (v - in[i * COLS + j]) * (v - in[i * COLS + j]);
          out[i * COLS + j] = v;
        }
#pragma omp target device(d)
#pragma omp parallel for
      for (long i = f; i < f + l; ++i)
        for (long j = 1; j < COLS - 1; ++j)
          in[i * COLS + j] = out[i * COLS + j];
      // Its edge rows to the host, for its neighbours.
#pragma omp target update device(d) from(in[f * COLS:COLS])
#pragma omp target update device(d) from(in[(f + l - 1) * COLS:COLS])
      e += de;
    }
    // The ranks' edge rows.
    const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    const int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    MPI_Sendrecv(&in[First * COLS], COLS, MPI_DOUBLE, up, 0,
                 &in[(First + Len) * COLS], COLS, MPI_DOUBLE, down, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&in[(First + Len - 1) * COLS], COLS, MPI_DOUBLE, down, 1,
                 &in[(First - 1) * COLS], COLS, MPI_DOUBLE, up, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    // Every device's halo rows from the host.
#pragma omp parallel num_threads(ndev)
    {
      const int d = omp_get_thread_num();
      const long f = F[d], l = L[d];
#pragma omp target update device(d) to(in[(f - 1) * COLS:COLS])
#pragma omp target update device(d) to(in[(f + l) * COLS:COLS])
    }
    MPI_Allreduce(MPI_IN_PLACE, &e, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  for (int d = 0; d < ndev; ++d) {
    long f = F[d], l = L[d], lo = F[d] - 1, len = L[d] + 2;
#pragma omp target update device(d) from(in[f * COLS:l * COLS], out[f * COLS:l * COLS])
#pragma omp target exit data device(d) map(delete: in[lo * COLS:len * COLS], out[lo * COLS:len * COLS])
  }
  gather(in, 1, n - 2, COLS);
  gather(out, 1, n - 2, COLS);
  err = e;
}

static void region_homp(void *Ctx) {
  (void)Ctx;
  double(*a)[COLS] = (double(*)[COLS])in, (*b)[COLS] = (double(*)[COLS])out;
  double e = 0;
#pragma omp target data device(*) map(tofrom: a[0:n][0:COLS] dist_data(BLOCK, *) halo(1,), b[0:n][0:COLS] dist_data(BLOCK, *) halo(1,))
  for (int s = 0; s < STEPS; ++s) {
    e = 0;
#pragma omp target device(*) map(tofrom: e)
#pragma omp parallel for collapse(2) reduction(+: e)
    for (long i = 1; i < n - 1; ++i)
      for (long j = 1; j < COLS - 1; ++j) {
        double v =
            0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
        e += (v - a[i][j]) * (v - a[i][j]);
        b[i][j] = v;
      }
#pragma omp target device(*)
#pragma omp parallel for collapse(2)
    for (long i = 1; i < n - 1; ++i)
      for (long j = 1; j < COLS - 1; ++j)
        a[i][j] = b[i][j];
#pragma omp halo_exchange(a)
  }
  err = e;
}

static double checksum(void *Ctx) {
  const char *Kernel = Ctx;
  double S = 0;
  if (strcmp(Kernel, "axpy") == 0)
    for (long i = 0; i < n; ++i)
      S += y[i] * (1 + i % 7);
  else
    for (long i = 0; i < n * COLS; ++i)
      S += out[i] * (1 + i % 7);
  // Every rank has the whole result.
  double Min = S, Max = S;
  MPI_Allreduce(MPI_IN_PLACE, &Min, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &Max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return Min == Max ? S + err : -1;
}

static void (*timed)(void *);
static void synchronized(void *Ctx) {
  MPI_Barrier(MPI_COMM_WORLD);
  timed(Ctx);
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 5) {
    if (rank == 0)
      fprintf(stderr,
              "usage: mpirun -n R %s axpy|jacobi|region mpi|homp N REPS\n",
              argv[0]);
    MPI_Finalize();
    return 2;
  }
  char *Kernel = argv[1];
  const char *Mode = argv[2];
  n = atol(argv[3]);
  int Reps = atoi(argv[4]);
  const int Region = strcmp(Kernel, "region") == 0;
  const int Jacobi = Region || strcmp(Kernel, "jacobi") == 0;
  const int Homp = strcmp(Mode, "homp") == 0;
  if (Jacobi) {
    in = malloc(n * COLS * sizeof *in);
    out = malloc(n * COLS * sizeof *out);
    for (long i = 0; i < n * COLS; ++i) {
      in[i] = (i * 7919) % 1000 / 1000.0;
      out[i] = 0;
    }
    timed = Region ? (Homp ? region_homp : region_mpi)
                   : (Homp ? jacobi_homp : jacobi_mpi);
  } else {
    x = malloc(n * sizeof *x);
    y = malloc(n * sizeof *y);
    for (long i = 0; i < n; ++i) {
      x[i] = i % 13;
      y[i] = i % 7;
    }
    timed = Homp ? axpy_homp : axpy_mpi;
  }
  // Each call starts from the same input: AXPY's y grows, which the
  // checksum allows for (every version makes as many calls).
  if (rank == 0) {
    bench_run(Mode, n, Reps, synchronized, Kernel, checksum);
  } else {
    // The other ranks make the same calls; bench_run prints on rank 0.
    synchronized(Kernel);
    for (int r = 0; r < Reps; ++r)
      synchronized(Kernel);
    checksum(Kernel);
  }
  MPI_Finalize();
  return 0;
}
