// A topology of an item's own after its distribution (SPEC section 2,
// PMAM'15 Table 3): one data region over a line of devices holds a 2-D
// array in 2x2 blocks and a 1-D array in rows; kernels over each use them
// where they are (owner computes), copying nothing. The named topology
// the item declares is reused by a later kernel. Checked against
// sequential code. The 2x2 blocks need 4 devices: the constructs take
// devices 0 to 3 (more would not make a 2x2 grid).
// REQUIRES: devices-4
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s
// RUN: %t | FileCheck %s --check-prefix=PASS
// RUN: env HOMP_DEVICES=3,1,2,0 %t | FileCheck %s --check-prefix=PASS
// RUN: not env HOMP_DEVICES=0,1,2 %t 2>&1 | FileCheck %s --check-prefix=THREE

#include <stdio.h>

enum { N = 9, M = 7 };
static double a[N][M], r[N];
static int failures;

int main(void) {
  double wa[N][M], wr[N];
  for (int i = 0; i < N; ++i) {
    r[i] = wr[i] = i;
    for (int j = 0; j < M; ++j)
      a[i][j] = wa[i][j] = i * M + j;
  }
  for (int i = 0; i < N; ++i) {
    wr[i] = 2 * wr[i] + 1;
    for (int j = 0; j < M; ++j)
      wa[i][j] = 3 * wa[i][j] + 2 * wa[i][j];
  }
  // Each device gets its rectangle of a and its rows of r, once.
  // CHECK: homp: data region {{.*}}item-topologies.c:[[@LINE+9]]:1 begins: 2 distributed arrays on 4 devices
  // CHECK-NEXT: homp:   device
  // (5x4, 5x3, 4x4 and 4x3 elements of a, 3, 2, 2 and 2 of r)
  // CHECK-NEXT: homp:   0        CPU    - 0 184 0
  // CHECK-NEXT: homp:   1        CPU    - 0 136 0
  // CHECK-NEXT: homp:   2        CPU    - 0 144 0
  // CHECK-NEXT: homp:   3        CPU    - 0 112 0
  // THREE: homp: error: region {{.*}}item-topologies.c:[[@LINE+2]]:1: the topology of 'a': topology [2][2] does not arrange 3 devices
  // THREE-NOT: PASS
#pragma omp target data device(:4) map(tofrom: a[0:N][0:M] dist_data(BLOCK, BLOCK) topology(quad[2][2])) \
    map(tofrom: r[0:N] dist_data(BLOCK))
  {
    // CHECK: homp: region {{.*}}: 63 iterations on 4 devices (topology 2x2)
    // CHECK-NEXT: homp:   device
    // CHECK-NEXT: homp:   0        CPU    [0, 5) x [0, 4) 1 120 0
    // CHECK-NEXT: homp:   1        CPU    [0, 5) x [4, 7) 1
    // CHECK-NEXT: homp:   2        CPU    [5, 9) x [0, 4) 1
    // CHECK-NEXT: homp:   3        CPU    [5, 9) x [4, 7) 1
#pragma omp target teams distribute parallel for collapse(2) device(:4) topology(quad) \
    map(tofrom: a[0:N][0:M]) dist_iteration(BLOCK, BLOCK)
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < M; ++j)
        a[i][j] *= 3;
    // CHECK: homp: region {{.*}}: 9 iterations on 4 devices
    // CHECK-NEXT: homp:   device
    // CHECK-NEXT: homp:   0        CPU    [0, 3) 1
#pragma omp target teams distribute parallel for device(:4) map(tofrom: r[0:N]) dist_iteration(BLOCK)
    for (int i = 0; i < N; ++i)
      r[i] = 2 * r[i] + 1;
    // Again, still resident: only the chunk (120 bytes) is copied.
    // CHECK: homp: region {{.*}}: 63 iterations on 4 devices (topology 2x2)
    // CHECK-NEXT: homp:   device
    // CHECK-NEXT: homp:   0        CPU    [0, 5) x [0, 4) 1 120 0
#pragma omp target teams distribute parallel for device(:4) map(tofrom: a[0:N][0:M]) \
    collapse(2) topology(quad) dist_iteration(BLOCK, BLOCK)
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < M; ++j)
        a[i][j] += 2 * (a[i][j] / 3);
  }
  for (int i = 0; i < N; ++i) {
    if (r[i] != wr[i])
      printf("FAIL r[%d] = %g, want %g\n", i, r[i], wr[i]), ++failures;
    for (int j = 0; j < M; ++j)
      if (a[i][j] != wa[i][j])
        printf("FAIL a[%d][%d] = %g, want %g\n", i, j, a[i][j], wa[i][j]),
            ++failures;
  }
  // CHECK: data region {{.*}} ends: 2 distributed arrays
  // CHECK-NEXT: homp:   device
  // CHECK-NEXT: homp:   0        CPU    - 0 0 184
  // CHECK-NEXT: homp:   1        CPU    - 0 0 136
  // CHECK: PASS
  // PASS: PASS
  if (!failures)
    printf("PASS\n");
  return failures != 0;
}
