// 'topology(ids)' after an item's distribution (SPEC section 2, PMAM'15
// Table 3): only the listed devices get the item, split among them as a
// line; owner computes gives the loop to them; a device running
// iterations without the item, or a list naming no device of the
// construct, is an error. Checked against sequential code. The items name
// devices 1, 2 and 3; the CHECK-4 lines hold with those 4 devices alone.
// REQUIRES: devices-4
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,CHECK-%ndev --allow-unused-prefixes -DDEVICES="%devices"
// RUN: %t 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HOMP_DEVICES=0,2,host %t 2>&1 | FileCheck %s --check-prefix=SOME
// RUN: not env HOMP_DEVICES=0,3 %t 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not env OMP_TARGET_OFFLOAD=MANDATORY %t 2>&1 | FileCheck %s --check-prefix=MANDATORY
#include <stdio.h>

enum { N = 1000 };
static double x[N], y[N], u[N + 2], v[N + 2];
static int failures;

static void expect(const char *what, const double *got, const double *want,
                   int n) {
  for (int i = 0; i < n; ++i)
    if (got[i] != want[i]) {
      printf("FAIL %s: [%d] = %g, want %g\n", what, i, got[i], want[i]);
      ++failures;
      return;
    }
}

int main(void) {
  double want[N];
  for (int i = 0; i < N; ++i)
    x[i] = i, y[i] = 2 * i, want[i] = y[i] + 3 * x[i];
  // Both arrays on devices 1 and 2: owner computes gives the others nothing.
  // Copied in once, to those two, and out once.
  // CHECK: homp: data region {{.*}}item-devices.c:[[@LINE+11]]:1 begins: 2 distributed arrays on [[DEVICES]]
  // CHECK-NEXT: device
  // CHECK-4-NEXT: homp:   0        CPU    -          0            0            0
  // CHECK-4-NEXT: homp:   1        CPU    -          0        12000            0
  // CHECK-4-NEXT: homp:   2        CPU    -          0        12000            0
  // CHECK-4-NEXT: homp:   3        CPU    -          0            0            0
  // CHECK-4-NEXT: homp: region {{.*}}: 1000 iterations on 2 devices
  // CHECK-4-NEXT: device
  // CHECK-4-NEXT: homp:   1        CPU    [0, 500)
  // CHECK-4-NEXT: homp:   2        CPU    [500, 1000)
  // NONE: homp: error: region {{.*}}item-devices.c:[[@LINE+1]]:1: 'x' is distributed over devices 1, 2 (its topology(...)), none of which runs this construct
#pragma omp target data device(*) map(to: x[0:N] dist_data(DUPLICATE) topology(1, 2)) \
    map(tofrom: y[0:N] dist_data(BLOCK) topology(1, 2))
  {
#pragma omp target teams distribute parallel for device(*) map(to: x[0:N]) map(tofrom: y[0:N]) dist_iteration(BLOCK)
    for (int i = 0; i < N; ++i)
      y[i] += 3 * x[i];
  }
  expect("data region", y, want, N);

  for (int i = 0; i < N; ++i)
    want[i] = y[i] * x[i];
  // One kernel: y's BLOCK over device 3 alone takes the loop there; x goes
  // there only.
  // CHECK: homp: region {{.*}}item-devices.c:[[@LINE+4]]:1: 1000 iterations on 1 device
  // CHECK-NEXT: device
  // CHECK-NEXT: homp:   3        CPU    [0, 1000)          1        16120         8000
  // SOME: homp: warning: region {{.*}}item-devices.c:[[@LINE+1]]:1: 'x' is distributed over device 3 (its topology(...)), which does not run this construct; running it on the host
#pragma omp target teams distribute parallel for device(*) map(to: x[0:N] dist_data(DUPLICATE) topology(3)) \
    map(tofrom: y[0:N] dist_data(BLOCK) topology(3))
  for (int i = 0; i < N; ++i)
    y[i] *= x[i];
  expect("kernel", y, want, N);

  // A duplicate the loop's devices do not all hold: the kernel runs on the
  // host instead.
  // CHECK: homp: warning: region {{.*}}item-devices.c:[[@LINE+6]]:1: device 0 runs iterations of this kernel but holds no part of 'x'; running it on the host
  // QUIET: homp: warning: region {{.*}}item-devices.c:[[@LINE+5]]:1: device 0 runs iterations of this kernel but holds no part of 'x'; running it on the host
  // MANDATORY: homp: error: region {{.*}}item-devices.c:[[@LINE+4]]:1: device 0 runs iterations of this kernel but holds no part of 'x' (OMP_TARGET_OFFLOAD=MANDATORY)
  // MANDATORY-NOT: PASS
  for (int i = 0; i < N; ++i)
    want[i] = y[i] - x[i];
#pragma omp target teams distribute parallel for device(*) map(to: x[0:N] dist_data(DUPLICATE) topology(1)) \
    map(tofrom: y[0:N] dist_data(BLOCK))
  for (int i = 0; i < N; ++i)
    y[i] -= x[i];
  expect("not held", y, want, N);

  // No listed device runs the construct.
  // CHECK: homp: warning: region {{.*}}item-devices.c:[[@LINE+3]]:1: 'y' is distributed over devices 2, 3 (its topology(...)), none of which runs this construct; running it on the host
  for (int i = 0; i < N; ++i)
    want[i] = y[i] + 1;
#pragma omp target teams distribute parallel for device(0, 1) map(tofrom: y[0:N] dist_data(BLOCK) topology(2, 3))
  for (int i = 0; i < N; ++i)
    y[i] += 1;
  expect("none listed", y, want, N);

  // A split array that some devices hold none of (one element over four)
  // does not stop them running iterations that do not use it.
  for (int i = 0; i < N; ++i)
    want[i] = y[i] + (i < 1 ? x[i] : 0);
  // CHECK: homp: region {{.*}}item-devices.c:[[@LINE+1]]:1: 1000 iterations on [[DEVICES]]
#pragma omp target teams distribute parallel for device(*) map(to: x[0:1] dist_data(BLOCK)) map(tofrom: y[0:N] dist_data(BLOCK))
  for (int i = 0; i < N; ++i)
    if (i < 1)
      y[i] += x[i];
  expect("guarded", y, want, N);

  // A stencil with halos over devices 0 and 2 only: they exchange halos
  // with each other.
  // CHECK: homp: halo update {{.*}}: 2 copies on [[DEVICES]] in
  // CHECK-NEXT: device
  // CHECK-NEXT: homp:   0        CPU    via {{peer|host}}  0            8            8
  // CHECK-NEXT: homp:   1        CPU    -          0            0            0
  // CHECK-NEXT: homp:   2        CPU    via {{peer|host}}  0            8            8
  for (int i = 0; i < N + 2; ++i)
    u[i] = i % 7, v[i] = 0;
  double r[N + 2], w[N + 2];
  for (int i = 0; i < N + 2; ++i)
    r[i] = u[i];
  for (int it = 0; it < 3; ++it) {
    for (int i = 1; i <= N; ++i)
      w[i] = r[i - 1] + r[i] + r[i + 1];
    for (int i = 1; i <= N; ++i)
      r[i] = w[i];
  }
#pragma omp target data device(*) map(tofrom: u[0:N + 2] dist_data(BLOCK) halo(1) topology(0, 2)) \
    map(alloc: v[0:N + 2] dist_data(ALIGN(u)) topology(0, 2))
  for (int it = 0; it < 3; ++it) {
#pragma omp target teams distribute parallel for device(*) map(to: u[0:N + 2]) map(alloc: v[0:N + 2]) dist_iteration(ALIGN(u))
    for (int i = 1; i <= N; ++i)
      v[i] = u[i - 1] + u[i] + u[i + 1];
#pragma omp target teams distribute parallel for device(*) map(tofrom: u[0:N + 2]) map(to: v[0:N + 2]) dist_iteration(ALIGN(u))
    for (int i = 1; i <= N; ++i)
      u[i] = v[i];
#pragma omp halo_exchange(u)
  }
  expect("halo", u, r, N + 2);
  // CHECK: PASS
  // QUIET: PASS
  // SOME: PASS
  if (!failures)
    printf("PASS\n");
  return failures != 0;
}
