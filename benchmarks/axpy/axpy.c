//===-- axpy.c - AXPY: sequential, one device, hand-written, homp ---------===//
//
// y += a * x in four versions, side by side:
//   seq     sequential host loop (the reference)
//   single  one offload device (PMAM'15 Figure 1, axpy_ompacc)
//   mdev    hand-written multi-device OpenMP: one host thread per device and
//           a manual BLOCK partition (PMAM'15 Figure 1, axpy_mdev_v1, with
//           its loop indexing the mapped section correctly)
//   homp    the same with homp's extensions (axpy_mdev_v2)
//
// usage: axpy MODE N REPETITIONS
// Times every call and prints "MODE N MEDIAN_SECONDS MEAN_SECONDS CHECKSUM":
// the median is the time of a typical call, the mean includes the calls the
// operating system delayed. The checksum lets the driver check that every
// version computed the same result.
//
//===----------------------------------------------------------------------===//

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REAL double

/// Seconds from a monotonic clock with nanosecond resolution (omp_get_wtime
/// has microseconds in libomp).
static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + 1e-9 * T.tv_nsec;
}

static int compareDoubles(const void *A, const void *B) {
  double X = *(const double *)A, Y = *(const double *)B;
  return X < Y ? -1 : X > Y;
}

static void axpy_seq(REAL *x, REAL *y, int n, REAL a) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

static void axpy_ompacc(REAL *x, REAL *y, int n, REAL a) {
#pragma omp target device(0) map(tofrom: y[0:n]) map(to: x[0:n], a, n)
#pragma omp parallel for shared(x, y, n, a)
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

static void axpy_mdev_v1(REAL *x, REAL *y, int n, REAL a) {
  int ndev = omp_get_num_devices();
#pragma omp parallel num_threads(ndev)
  {
    int devid = omp_get_thread_num();
    int remaint = n % ndev;
    int esize = n / ndev;
    int psize, starti;
    if (devid < remaint) {
      psize = esize + 1;
      starti = psize * devid;
    } else {
      psize = esize;
      starti = esize * devid + remaint;
    }
#pragma omp target device(devid) map(tofrom: y[starti:psize]) \
    map(to: x[starti:psize], a, psize)
#pragma omp parallel for shared(x, y, psize, a)
    for (int i = starti; i < starti + psize; ++i)
      y[i] += a * x[i];
  }
}

static void axpy_mdev_v2(REAL *x, REAL *y, int n, REAL a) {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK)) \
                             map(to: x[0:n] dist_data(BLOCK), a, n)
#pragma omp parallel for shared(x, y, n, a) dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s seq|single|mdev|homp N REPETITIONS\n", argv[0]);
    return 2;
  }
  const char *Mode = argv[1];
  int n = atoi(argv[2]), reps = atoi(argv[3]);
  void (*Fn)(REAL *, REAL *, int, REAL) =
      !strcmp(Mode, "seq")      ? axpy_seq
      : !strcmp(Mode, "single") ? axpy_ompacc
      : !strcmp(Mode, "mdev")   ? axpy_mdev_v1
      : !strcmp(Mode, "homp")   ? axpy_mdev_v2
                                : NULL;
  if (!Fn || n < 0 || reps < 1) {
    fprintf(stderr, "%s: bad arguments\n", argv[0]);
    return 2;
  }
  REAL *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
  for (int i = 0; i < n; ++i) {
    x[i] = (i % 1000) * 0.001;
    y[i] = 1.0;
  }
  double *Times = malloc((size_t)reps * sizeof *Times);
  // One untimed call: device initialisation and first-touch mappings.
  Fn(x, y, n, 0.5);
  double Total = 0;
  for (int r = 0; r < reps; ++r) {
    double Start = now();
    Fn(x, y, n, 0.5);
    Times[r] = now() - Start;
    Total += Times[r];
  }
  qsort(Times, reps, sizeof *Times, compareDoubles);
  double Checksum = 0;
  for (int i = 0; i < n; ++i)
    Checksum += y[i];
  printf("%s %d %.9f %.9f %.6e\n", Mode, n, Times[reps / 2], Total / reps,
         Checksum);
  free(Times);
  free(x);
  free(y);
  return 0;
}
