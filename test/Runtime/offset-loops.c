// A 9-point stencil written with inner loops over the offsets
// ('u[i + a][j + b]' for a, b in -1..1), on 2x2 blocks with a halo of one:
// the plugin reads the offsets from the inner loops' bounds, so libhomp
// checks them against the halos. With no halo in dimension 1, u is only
// read: each device's copy of its part brings the elements it reads
// around it (an implicit read halo of the offsets' widths), which
// HOMP_INFO names, and nothing is refused, under MANDATORY either.
// Checked against sequential code. Dimension 1 is split when there are 2
// devices or more (on one, the topology is 1x1); offset-loops-two.test
// runs it on devices 0 and 2.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not=homp
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t 2>&1 | FileCheck %s --implicit-check-not=homp
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=INFO

#include <stdio.h>

enum { N = 37, M = 29 };
static double u[N][M], v[N][M], w[N][M], r[N][M];
static int failures;

static void check(const char *what, double (*got)[M]) {
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < M - 1; ++j)
      if (got[i][j] != r[i][j]) {
        printf("FAIL %s: [%d][%d] = %g, want %g\n", what, i, j, got[i][j],
               r[i][j]);
        ++failures;
        return;
      }
}

int main(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      u[i][j] = (i * 7 + j * 3) % 11;
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < M - 1; ++j)
      for (int a = -1; a <= 1; ++a)
        for (int b = -1; b <= 1; ++b)
          r[i][j] += (a == 0 && b == 0 ? 4 : 1) * u[i + a][j + b];

  // CHECK-NOT: homp: warning
  // CHECK-NOT: homp cannot check
#pragma omp target data device(*) topology([*][*]) \
    map(to: u[0:N][0:M] dist_data(BLOCK, BLOCK) halo(1, 1)) \
    map(tofrom: v[0:N][0:M] dist_data(BLOCK, BLOCK))
#pragma omp target teams distribute parallel for collapse(2) device(*) \
    topology([*][*]) map(to: u[0:N][0:M]) map(tofrom: v[0:N][0:M]) \
    dist_iteration(BLOCK, BLOCK)
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < M - 1; ++j) {
      double s = 0;
      for (int a = -1; a <= 1; ++a)
        for (int b = -1; b < 2; b++)
          s += (a == 0 && b == 0 ? 4 : 1) * u[i + a][j + b];
      v[i][j] = s;
    }
  check("halo", v);

  // INFO: homp: region {{.*}}offset-loops.c:[[@LINE+1]]:1: {{.*}}; each device also gets the elements of 'u' it reads around its part (a read halo of {{(1:1, )?}}1:1) in
#pragma omp target teams distribute parallel for collapse(2) device(*) \
    topology([*][*]) map(to: u[0:N][0:M] dist_data(BLOCK, BLOCK) halo(1, 0)) \
    map(tofrom: w[0:N][0:M] dist_data(BLOCK, BLOCK)) dist_iteration(BLOCK, BLOCK)
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < M - 1; ++j) {
      double s = 0;
      for (int a = -1; a <= 1; ++a)
        for (int b = -1; b < 2; b++)
          s += (a == 0 && b == 0 ? 4 : 1) * u[i + a][j + b];
      w[i][j] = s;
    }
  check("narrow halo, read around the parts", w);
  // CHECK: PASS
  // INFO: PASS
  if (!failures)
    printf("PASS\n");
  return failures != 0;
}
