// 5-point and 9-point stencils on a 2-D BLOCK distribution over a [*][*]
// topology, 2x2 on 4 devices (SPEC.md sections 2 and 5): each device holds
// its block and a one-cell halo on all four sides; the 9-point stencil
// reads the corner cells, which the exchange fills from the diagonal
// neighbour (in a 2x2 grid). Results match sequential code exactly, also
// with the host as a device and, for the 5-point stencil, with
// 'halo_update' of one dimension at a time.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: %hompcc -O2 -DDEVS="0:3, host" -DTOPO="[*][2]" -DN=23 -DM=17 %s -o %t.h && %t.h 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: %hompcc -O2 -DTOPO="[*][1]" %s -o %t.41 && %t.41 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=INFO,INFO-%ndev --allow-unused-prefixes -DDEVICES="%devices"
// CHECK: 5-point: PASS
// CHECK: 9-point: PASS
// CHECK: dimension by dimension: PASS

// Device 0 of 4 holds rows [0, 10) and columns [0, 8) of the 20 x 16 grid:
// it receives a row of 8 cells, a column of 10 and the corner (19 doubles,
// 152 bytes), from its three neighbours: 12 copies in all.
// INFO: homp: halo update {{.*}}stencil-2d.c:{{[0-9]+}}:13 of 'a' (leftright):
// INFO-4-SAME: {{^}} 12
// INFO-SAME: {{^}}{{( [0-9]+)?}} copies on [[DEVICES]] in
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    via peer                              0          152          152

#include <stdio.h>
#include <string.h>

#ifndef DEVS
#define DEVS *
#endif
#ifndef TOPO
#define TOPO [*][*]
#endif
#ifndef N
#define N 20
#endif
#ifndef M
#define M 16
#endif

static double a[N][M], b[N][M], ref[N][M], refold[N][M];

static void init(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      a[i][j] = ref[i][j] = (i * 13 + j * 7) % 17;
}

static double point5(double (*x)[M], int i, int j) {
  return 0.5 * x[i][j] + 0.125 * (x[i - 1][j] + x[i + 1][j] + x[i][j - 1] +
                                  x[i][j + 1]);
}

static double point9(double (*x)[M], int i, int j) {
  return 0.2 * x[i][j] + 0.1 * (x[i - 1][j] + x[i + 1][j] + x[i][j - 1] +
                                x[i][j + 1]) +
         0.1 * (x[i - 1][j - 1] + x[i - 1][j + 1] + x[i + 1][j - 1] +
                x[i + 1][j + 1]);
}

static void check(const char *What) {
  fflush(stderr);
  int Failures = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      if (a[i][j] != ref[i][j] && Failures++ < 3)
        printf("FAIL %s: a[%d][%d] = %.17g, expected %.17g\n", What, i, j,
               a[i][j], ref[i][j]);
  printf("%s: %s\n", What, Failures ? "FAILED" : "PASS");
  fflush(stdout);
}

static void sequential(int Points, int Steps) {
  for (int s = 0; s < Steps; ++s) {
    memcpy(refold, ref, sizeof ref);
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < M - 1; ++j)
        ref[i][j] = Points == 5 ? point5(refold, i, j) : point9(refold, i, j);
  }
}

// b = stencil(a) on the interior, then a = b; 'a' needs the halo.
static void stencil(int Points, int Steps, int ByDimension) {
  init();
  sequential(Points, Steps);
#pragma omp target data device(DEVS) topology(TOPO) \
    map(tofrom: a[0:N][0:M] dist_data(BLOCK, BLOCK) halo(1, 1)) \
    map(alloc: b[0:N][0:M] dist_data(BLOCK, BLOCK))
  for (int s = 0; s < Steps; ++s) {
    if (ByDimension) {
#pragma omp halo_update leftright(a[*][])
#pragma omp halo_update left-right(a[][*])
    } else {
#pragma omp halo_exchange(a)
    }
#pragma omp target teams distribute parallel for collapse(2) device(DEVS) \
    topology(TOPO) dist_iteration(BLOCK, BLOCK)
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < M - 1; ++j)
        b[i][j] = Points == 5 ? 0.5 * a[i][j] + 0.125 * (a[i - 1][j] +
                                  a[i + 1][j] + a[i][j - 1] + a[i][j + 1])
                              : 0.2 * a[i][j] + 0.1 * (a[i - 1][j] +
                                  a[i + 1][j] + a[i][j - 1] + a[i][j + 1]) +
                                0.1 * (a[i - 1][j - 1] + a[i - 1][j + 1] +
                                  a[i + 1][j - 1] + a[i + 1][j + 1]);
#pragma omp target teams distribute parallel for collapse(2) device(DEVS) \
    topology(TOPO) dist_iteration(BLOCK, BLOCK)
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < M - 1; ++j)
        a[i][j] = b[i][j];
  }
}

int main(void) {
  stencil(5, 4, 0);
  check("5-point");
  stencil(9, 4, 0);
  check("9-point");
  // Rows, then columns: enough for the 5-point stencil. (A corner cell is
  // filled only by an update that selects both its dimensions.)
  stencil(5, 3, 1);
  check("dimension by dimension");
  return 0;
}
