//===-- matmul.c - Matrix multiplication, PMAM'15 section 5.2 -------------===//
//
// C = A x B for n x n matrices, in these versions:
//   seq     sequential host loops (the reference)
//   mdev    hand-written multi-device OpenMP: one host thread per device, a
//           manual BLOCK split of the rows of A and C, B whole on each
//   rows    homp: A and C by rows (dist_data(BLOCK, DUPLICATE))
//   cols    homp: B and C by columns (dist_data(DUPLICATE, BLOCK)),
//           collapse(2)
//   blocks  homp: A by rows, B by columns and C in 2-D blocks over a
//           topology([*][*])
// Every call copies the matrices in and C out, as the papers time it.
//
// usage: matmul MODE N REPETITIONS
//
//===----------------------------------------------------------------------===//

#include "../common/bench.h"

#include <omp.h>
#include <string.h>

typedef struct {
  int n;
  double *A, *B, *C;
} Matrices;

static void mm_seq(void *P) {
  Matrices *M = P;
  int n = M->n;
  double(*A)[n] = (void *)M->A, (*B)[n] = (void *)M->B, (*C)[n] = (void *)M->C;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

static void mm_mdev(void *P) {
  Matrices *M = P;
  int n = M->n, ndev = omp_get_num_devices();
  double(*A)[n] = (void *)M->A, (*B)[n] = (void *)M->B, (*C)[n] = (void *)M->C;
#pragma omp parallel num_threads(ndev)
  {
    int dev = omp_get_thread_num();
    int rows = n / ndev, extra = n % ndev;
    int first = dev * rows + (dev < extra ? dev : extra);
    int count = rows + (dev < extra);
#pragma omp target teams distribute parallel for device(dev) \
    map(to: A[first:count][0:n], B[0:n][0:n]) map(from: C[first:count][0:n])
    for (int i = first; i < first + count; ++i)
      for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int k = 0; k < n; ++k)
          s += A[i][k] * B[k][j];
        C[i][j] = s;
      }
  }
}

static void mm_rows(void *P) {
  Matrices *M = P;
  int n = M->n;
  double(*A)[n] = (void *)M->A, (*B)[n] = (void *)M->B, (*C)[n] = (void *)M->C;
#pragma omp target teams distribute parallel for device(*) \
    map(to: A[0:n][0:n] dist_data(BLOCK, DUPLICATE), B[0:n][0:n]) \
    map(from: C[0:n][0:n] dist_data(BLOCK, DUPLICATE)) dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

static void mm_cols(void *P) {
  Matrices *M = P;
  int n = M->n;
  double(*A)[n] = (void *)M->A, (*B)[n] = (void *)M->B, (*C)[n] = (void *)M->C;
#pragma omp target teams distribute parallel for collapse(2) device(*) \
    map(to: A[0:n][0:n], B[0:n][0:n] dist_data(DUPLICATE, BLOCK)) \
    map(from: C[0:n][0:n] dist_data(DUPLICATE, BLOCK)) \
    dist_iteration(FULL, BLOCK)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

static void mm_blocks(void *P) {
  Matrices *M = P;
  int n = M->n;
  double(*A)[n] = (void *)M->A, (*B)[n] = (void *)M->B, (*C)[n] = (void *)M->C;
#pragma omp target teams distribute parallel for collapse(2) device(*) \
    topology([*][*]) \
    map(to: A[0:n][0:n] dist_data(BLOCK, *), \
            B[0:n][0:n] dist_data(*, BLOCK) topology([*])) \
    map(from: C[0:n][0:n] dist_data(BLOCK, BLOCK)) \
    dist_iteration(BLOCK, BLOCK)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

static double checksum(void *P) {
  Matrices *M = P;
  double S = 0;
  for (long i = 0; i < (long)M->n * M->n; ++i)
    S += M->C[i] * (i % 7 + 1);
  return S;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s seq|mdev|rows|cols|blocks N REPETITIONS\n",
            argv[0]);
    return 2;
  }
  const char *Mode = argv[1];
  int n = atoi(argv[2]), reps = atoi(argv[3]);
  void (*Fn)(void *) = !strcmp(Mode, "seq")      ? mm_seq
                       : !strcmp(Mode, "mdev")   ? mm_mdev
                       : !strcmp(Mode, "rows")   ? mm_rows
                       : !strcmp(Mode, "cols")   ? mm_cols
                       : !strcmp(Mode, "blocks") ? mm_blocks
                                                 : NULL;
  if (!Fn || n < 1 || reps < 1) {
    fprintf(stderr, "%s: bad arguments\n", argv[0]);
    return 2;
  }
  Matrices M = {n, malloc(sizeof(double) * n * n),
                malloc(sizeof(double) * n * n), malloc(sizeof(double) * n * n)};
  for (long i = 0; i < (long)n * n; ++i) {
    M.A[i] = (i % 13) * 0.25 - 1;
    M.B[i] = (i % 11) * 0.5 - 2;
  }
  bench_run(Mode, n, reps, Fn, &M, checksum);
  free(M.A);
  free(M.B);
  free(M.C);
  return 0;
}
