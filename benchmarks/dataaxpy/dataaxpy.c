//===-- dataaxpy.c - 100 AXPY kernels on data that stays on the devices ---===//
//
// y += a * x, Kernels times, with x and y copied to the devices once and y
// back once, in two versions:
//   mdev   hand-written multi-device OpenMP: one host thread per device
//          maps its block with 'target enter data', runs the kernels on it
//          and maps it back with 'target exit data'
//   homp   one 'target data device(*)' with x and y in blocks, the kernels
//          inside it
// One call is the whole data region.
//
// usage: dataaxpy MODE N REPETITIONS
//
//===----------------------------------------------------------------------===//

#include "../common/bench.h"

#include <omp.h>
#include <string.h>

enum { Kernels = 100 };

typedef struct {
  int n;
  double *x, *y;
} Vectors;

static void axpy_mdev(void *P) {
  Vectors *V = P;
  int n = V->n, ndev = omp_get_num_devices();
  double *x = V->x, *y = V->y, a = 0.5;
#pragma omp parallel num_threads(ndev)
  {
    int dev = omp_get_thread_num();
    int size = n / ndev, extra = n % ndev;
    int first = dev * size + (dev < extra ? dev : extra);
    int count = size + (dev < extra);
#pragma omp target enter data device(dev) map(to: x[first:count], y[first:count])
    for (int k = 0; k < Kernels; ++k) {
#pragma omp target teams distribute parallel for device(dev)
      for (int i = first; i < first + count; ++i)
        y[i] += a * x[i];
    }
#pragma omp target exit data device(dev) map(from: y[first:count]) \
    map(delete: x[first:count])
  }
}

static void axpy_homp(void *P) {
  Vectors *V = P;
  int n = V->n;
  double *x = V->x, *y = V->y, a = 0.5;
#pragma omp target data device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
  for (int k = 0; k < Kernels; ++k) {
#pragma omp target teams distribute parallel for device(*)
    for (int i = 0; i < n; ++i)
      y[i] += a * x[i];
  }
}

static double checksum(void *P) {
  Vectors *V = P;
  double S = 0;
  for (int i = 0; i < V->n; ++i)
    S += V->y[i];
  return S;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s mdev|homp N REPETITIONS\n", argv[0]);
    return 2;
  }
  const char *Mode = argv[1];
  int n = atoi(argv[2]), reps = atoi(argv[3]);
  void (*Fn)(void *) = !strcmp(Mode, "mdev")   ? axpy_mdev
                       : !strcmp(Mode, "homp") ? axpy_homp
                                               : NULL;
  if (!Fn || n < 1 || reps < 1) {
    fprintf(stderr, "%s: bad arguments\n", argv[0]);
    return 2;
  }
  Vectors V = {n, malloc(sizeof(double) * n), malloc(sizeof(double) * n)};
  for (int i = 0; i < n; ++i) {
    V.x[i] = (i % 1000) * 0.001;
    V.y[i] = 1.0;
  }
  bench_run(Mode, n, reps, Fn, &V, checksum);
  free(V.x);
  free(V.y);
  return 0;
}
