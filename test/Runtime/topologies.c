// Topologies: a named one reused by name by a later kernel, '[*]' chosen
// by the runtime in one, two and three dimensions, and the run-time errors
// of a topology that does not arrange the devices there are. The grids of
// 4 take devices 0 to 3, and the checks of HOMP_DEVICES=0,1,2 (which
// replaces lit's homp_devices) need 3 of them.
// REQUIRES: devices-4
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,CHECK-%ndev --allow-unused-prefixes -DDEVICES="%devices"
// RUN: env HOMP_INFO=1 HOMP_DEVICES=0,1,2 %t 2>&1 | FileCheck %s --check-prefix=THREE
// RUN: not env OMP_TARGET_OFFLOAD=MANDATORY HOMP_DEVICES=0,1,2 %t 2>&1 | FileCheck %s --check-prefix=MANDATORY

#include <stdio.h>

enum { N = 8, M = 6 };
static long a[N][M];
static int failures;

static void check(const char *what, long f) {
  fflush(stderr);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      if (a[i][j] != (i * M + j) * f)
        printf("FAIL %s: a[%d][%d] = %ld\n", what, i, j, a[i][j]), ++failures,
            i = N, j = M;
}

int main(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      a[i][j] = i * M + j;
  // A named 2-D topology: on 4 devices 2x2 rectangles; on 3 an error (the
  // region then runs on the host), which MANDATORY makes fatal.
  // CHECK: homp: region {{.*}}: 48 iterations on 4 devices (topology 2x2)
  // THREE: homp: warning: region {{.*}}topologies.c:[[@LINE+2]]:1: topology [2][2] does not arrange 3 devices; running it on the host
  // MANDATORY: homp: error: region {{.*}}topologies.c:[[@LINE+1]]:1: topology [2][2] does not arrange 3 devices (OMP_TARGET_OFFLOAD=MANDATORY)
#pragma omp target teams distribute parallel for collapse(2) device(:4) \
    topology(grid[2][2]) map(tofrom: a dist_data(BLOCK, BLOCK)) \
    dist_iteration(BLOCK, BLOCK)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      a[i][j] *= 2;
  check("grid", 2);
  // The same topology by name.
  // CHECK: homp: region {{.*}}: 48 iterations on 4 devices (topology 2x2)
  // CHECK-NEXT: device
  // CHECK-NEXT: homp:   0        CPU    [0, 4) x [0, 3)
  // CHECK-NEXT: homp:   1        CPU    [0, 4) x [3, 6)
#pragma omp target teams distribute parallel for collapse(2) device(:4) \
    topology(grid) map(tofrom: a dist_data(BLOCK, BLOCK)) \
    dist_iteration(BLOCK, BLOCK)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      a[i][j] *= 3;
  check("grid again", 6);
  // '[*][*]' arranges whatever devices there are: 2x2 for 4, 1x3 for 3.
  // CHECK: homp: region {{.*}}: 48 iterations on [[DEVICES]]
  // CHECK-4-SAME: {{^}} (topology 2x2)
  // THREE: homp: region {{.*}}: 48 iterations on 3 devices (topology 1x3)
  // THREE-NEXT: device
  // THREE-NEXT: homp:   0        CPU    [0, 8) x [0, 2)
#pragma omp target teams distribute parallel for collapse(2) device(*) \
    topology([*][*]) map(tofrom: a dist_data(BLOCK, BLOCK)) \
    dist_iteration(BLOCK, BLOCK)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      a[i][j] *= 5;
  check("[*][*]", 30);
  // A 3-D topology of 4 devices, [2][2][*]: 2x2x1; the two split
  // dimensions of the array and of the nest use the first two.
  // CHECK: homp: region {{.*}}: 48 iterations on 4 devices (topology 2x2x1)
#pragma omp target teams distribute parallel for collapse(2) device(0:4) \
    topology([2][2][*]) map(tofrom: a dist_data(BLOCK, BLOCK)) \
    dist_iteration(BLOCK, BLOCK)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      a[i][j] *= 7;
  check("[2][2][*]", 210);
  // [2][*][*] is 2x1x2 (free dimensions as balanced as can be, smaller
  // first): a nest of two split loops would leave the third dimension's
  // devices running the same iterations, which is refused.
  // CHECK: homp: warning: region {{.*}}topologies.c:[[@LINE+1]]:1: devices 0 and 1 would both run some iterations: the loop nest splits fewer loops than the devices' topology (2x1x2) has dimensions; running it on the host
#pragma omp target teams distribute parallel for collapse(2) device(0:4) \
    topology([2][*][*]) map(tofrom: a dist_data(BLOCK, BLOCK)) \
    dist_iteration(BLOCK, BLOCK)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      a[i][j] *= 11;
  check("[2][*][*]", 2310);
  fflush(stderr);
  puts(failures ? "FAIL" : "PASS");
  // CHECK: PASS
  // THREE: PASS
  return failures != 0;
}
