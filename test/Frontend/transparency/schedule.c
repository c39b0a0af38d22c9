// Transparency: loop schedules ('schedule(dynamic, 4)', 'static', 'static,
// chunk', 'guided', 'auto', 'runtime', 'monotonic'/'nonmonotonic' modifiers,
// 'dist_schedule(static, 4)') on host and target loops compile to the same
// IR with and without homp, and run the same. The results do not depend on
// which thread runs which iteration.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

#define N 100

static long check(const int *a) {
  // Sum of a[i] * (i + 1); with a[i] = i this is sum(i^2 + i) for i < 100 =
  // 328350 + 4950 = 333300.
  long s = 0;
  for (int i = 0; i < N; ++i)
    s += (long)a[i] * (i + 1);
  return s;
}

int main(void) {
  int a[N];

#define RESET                                                                  \
  for (int i = 0; i < N; ++i)                                                  \
    a[i] = -1;

  RESET
#pragma omp parallel for schedule(dynamic, 4)
  for (int i = 0; i < N; ++i)
    a[i] = i;
  // CHECK: dynamic4=333300
  printf("dynamic4=%ld\n", check(a));

  RESET
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; ++i)
    a[i] = i;
  // CHECK: static=333300
  printf("static=%ld\n", check(a));

  RESET
#pragma omp parallel for schedule(static, 7)
  for (int i = 0; i < N; ++i)
    a[i] = i;
  // CHECK: static7=333300
  printf("static7=%ld\n", check(a));

  RESET
#pragma omp parallel for schedule(guided)
  for (int i = 0; i < N; ++i)
    a[i] = i;
  // CHECK: guided=333300
  printf("guided=%ld\n", check(a));

  RESET
#pragma omp parallel for schedule(auto)
  for (int i = 0; i < N; ++i)
    a[i] = i;
  // CHECK: auto=333300
  printf("auto=%ld\n", check(a));

  RESET
#pragma omp parallel for schedule(runtime)
  for (int i = 0; i < N; ++i)
    a[i] = i;
  // CHECK: runtime=333300
  printf("runtime=%ld\n", check(a));

  RESET
#pragma omp parallel for schedule(monotonic : dynamic, 3)
  for (int i = 0; i < N; ++i)
    a[i] = i;
  // CHECK: monotonic=333300
  printf("monotonic=%ld\n", check(a));

  RESET
#pragma omp parallel for schedule(nonmonotonic : dynamic)
  for (int i = 0; i < N; ++i)
    a[i] = i;
  // CHECK: nonmonotonic=333300
  printf("nonmonotonic=%ld\n", check(a));

  // On the device: dynamic chunks in 'target parallel for', and
  // dist_schedule + schedule on the composite construct.
  RESET
#pragma omp target parallel for schedule(dynamic, 4) map(tofrom : a)
  for (int i = 0; i < N; ++i)
    a[i] = i;
  // CHECK: target_dynamic4=333300
  printf("target_dynamic4=%ld\n", check(a));

  RESET
#pragma omp target teams distribute parallel for dist_schedule(static, 4) schedule(dynamic, 4) map(tofrom : a)
  for (int i = 0; i < N; ++i)
    a[i] = i;
  // CHECK: target_dist=333300
  printf("target_dist=%ld\n", check(a));

  // A reduction under a dynamic schedule: 1 + ... + 100 = 5050.
  long r = 0;
#pragma omp target teams distribute parallel for schedule(dynamic, 4) reduction(+ : r)
  for (int i = 1; i <= N; ++i)
    r += i;
  // CHECK: target_reduction=5050
  printf("target_reduction=%ld\n", r);
  return 0;
}
