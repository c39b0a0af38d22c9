// A data region made again and again, as a solver's time steps make it:
// homp keeps the freed storage of CPU offload devices for the next region
// of the same sizes. Each region starts from new values, so whatever a
// region leaves behind must never reach the next one's results: u matches a
// sequential Jacobi bit for bit after every region, with sizes that change
// (new storage), come back (storage used before) and with periodic halos
// past the array's ends (filled at each region's start).
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not=homp: --implicit-check-not=FAIL
// RUN: env HOMP_DEVICES=0,2 %t 2>&1 | FileCheck %s --implicit-check-not=FAIL
// CHECK: repeated regions: PASS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { M = 12, Steps = 3 };

static double init(int rep, int i, int j) { return (rep * 31 + i * 7 + j * 3) % 13; }

// Steps Jacobi-like sweeps with periodic rows: the reference.
static void sequential(int n, int rep, double (*u)[M]) {
  double(*old)[M] = malloc(sizeof(double) * n * M);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < M; ++j)
      u[i][j] = init(rep, i, j);
  for (int s = 0; s < Steps; ++s) {
    memcpy(old, u, sizeof(double) * n * M);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < M; ++j)
        u[i][j] = 0.25 * (old[(i + n - 1) % n][j] + old[(i + 1) % n][j]) +
                  0.5 * old[i][j];
  }
  free(old);
}

static int run(int n, int rep) {
  double(*u)[M] = malloc(sizeof(double) * n * M);
  double(*uold)[M] = malloc(sizeof(double) * n * M);
  double(*ref)[M] = malloc(sizeof(double) * n * M);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < M; ++j)
      u[i][j] = init(rep, i, j);
  // Garbage in uold: only its halos' exchange may fill what the sweep reads.
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < M; ++j)
      uold[i][j] = -1e300;
#pragma omp target data device(*) map(tofrom: u[0:n][0:M] dist_data(BLOCK, *)) \
    map(to: uold[0:n][0:M] dist_data(BLOCK, *) halo(1:periodic,))
  for (int s = 0; s < Steps; ++s) {
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < M; ++j)
        uold[i][j] = u[i][j];
#pragma omp halo_exchange(uold)
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < M; ++j)
        u[i][j] = 0.25 * (uold[i - 1][j] + uold[i + 1][j]) + 0.5 * uold[i][j];
  }
  sequential(n, rep, ref);
  int Bad = memcmp(u, ref, sizeof(double) * n * M) != 0;
  if (Bad)
    printf("region %d (%d rows): FAIL\n", rep, n);
  free(u);
  free(uold);
  free(ref);
  return Bad;
}

int main(void) {
  const int Rows[] = {40, 40, 23, 40, 64, 23, 40};
  int Bad = 0;
  for (int R = 0; R < (int)(sizeof(Rows) / sizeof(Rows[0])); ++R)
    Bad |= run(Rows[R], R);
  printf("repeated regions: %s\n", Bad ? "FAIL" : "PASS");
  return Bad;
}
