//===-- bench.h - Timing for homp's benchmark programs ----------*- C -*-===//
//
// Each benchmark program runs one version of a kernel REPETITIONS times
// after one untimed call, and prints one line:
//   MODE N MEDIAN_SECONDS MEAN_SECONDS CHECKSUM
// The median is the time of a typical call, the mean includes the calls the
// operating system delayed; the checksum lets benchmarks/run.py check that
// every version computed the same result.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_BENCH_H
#define HOMP_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/// Seconds from a monotonic clock with nanosecond resolution
/// (omp_get_wtime has microseconds in libomp).
static double bench_now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + 1e-9 * T.tv_nsec;
}

/// A program whose call includes set-up it does not want timed (copies in
/// and out around the part it measures) sets this to the seconds of the
/// measured part; bench_run then takes it instead of the whole call.
static double bench_inner = -1;

static int bench_compare(const void *A, const void *B) {
  double X = *(const double *)A, Y = *(const double *)B;
  return X < Y ? -1 : X > Y;
}

/// Calls Fn(Ctx) once untimed, then Reps times timed, and prints the line.
static void bench_run(const char *Mode, long N, int Reps, void (*Fn)(void *),
                      void *Ctx, double (*Checksum)(void *)) {
  double *Times = malloc((size_t)Reps * sizeof *Times), Total = 0;
  Fn(Ctx); // device initialisation, first-touch mappings
  for (int R = 0; R < Reps; ++R) {
    bench_inner = -1;
    double Start = bench_now();
    Fn(Ctx);
    Times[R] = bench_inner >= 0 ? bench_inner : bench_now() - Start;
    Total += Times[R];
  }
  qsort(Times, Reps, sizeof *Times, bench_compare);
  printf("%s %ld %.9f %.9f %.6e\n", Mode, N, Times[Reps / 2], Total / Reps,
         Checksum(Ctx));
  free(Times);
}

#endif // HOMP_BENCH_H
