// 'target update to' of an array resident with periodic or reflecting
// edges fills the halo cells past the array's ends from the elements it
// updates, as it fills the halo cells inside the array: a kernel reading
// x[i - 1] at i = 0 after the update reads the updated value. Each
// device's copy is checked against a model of what it must hold: the old
// values, with the updated elements new.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: %hompcc -O2 -DDEVS="0:2" %s -o %t.2 && %t.2 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: %hompcc -O2 -DDEVS="2" %s -o %t.1 && %t.1 2>&1 | FileCheck %s --implicit-check-not=FAIL
// CHECK: periodic, whole: PASS
// CHECK: periodic, first 5: PASS
// CHECK: periodic, last 3: PASS
// CHECK: reflecting, whole: PASS
// CHECK: reflecting, first 5: PASS
// CHECK: reflecting, last 3: PASS

#include <stdio.h>

#ifndef DEVS
#define DEVS *
#endif
#define N 37

static double x[N], y[N], model[N];

static int wrap(int i) { return (i + N) % N; }
static int mirror(int i) { return i < 0 ? -i : i >= N ? 2 * N - 2 - i : i; }

/// Checks y[i] = x[e(i - 1)] + x[e(i + 1)] over the model of the devices'
/// copies.
static void check(const char *What, int (*Edge)(int)) {
  int failures = 0;
  for (int i = 0; i < N; i++) {
    double e = model[Edge(i - 1)] + model[Edge(i + 1)];
    if (y[i] != e && failures++ < 3)
      printf("FAIL %s: y[%d] = %g, expected %g\n", What, i, y[i], e);
  }
  printf("%s: %s\n", What, failures ? "FAILED" : "PASS");
}

/// Updates x[First, First + Count) on the devices with new values.
#define UPDATE(First, Count)                                                   \
  for (int i = First; i < First + Count; i++)                                  \
    x[i] = model[i] = x[i] + 1000;
#define RUN(What, Edge)                                                        \
  _Pragma("omp target teams distribute parallel for device(DEVS)")             \
  for (int i = 0; i < N; i++)                                                  \
    y[i] = x[i - 1] + x[i + 1];                                                \
  _Pragma("omp target update from(y[0:N]) device(DEVS)")                       \
  check(What, Edge);

static void periodic(void) {
  for (int i = 0; i < N; i++)
    x[i] = model[i] = i;
#pragma omp target data device(DEVS) \
    map(to: x[0:N] dist_data(BLOCK) halo(1:periodic)) \
    map(alloc: y[0:N] dist_data(BLOCK))
  {
    UPDATE(0, N)
#pragma omp target update to(x[0:N]) device(DEVS)
    RUN("periodic, whole", wrap)
    UPDATE(0, 5)
#pragma omp target update to(x[0:5]) device(DEVS)
    RUN("periodic, first 5", wrap)
    UPDATE(N - 3, 3)
#pragma omp target update to(x[N - 3:3]) device(DEVS)
    RUN("periodic, last 3", wrap)
  }
}

static void reflecting(void) {
  for (int i = 0; i < N; i++)
    x[i] = model[i] = 3 * i;
#pragma omp target data device(DEVS) \
    map(to: x[0:N] dist_data(BLOCK) halo(1:reflecting)) \
    map(alloc: y[0:N] dist_data(BLOCK))
  {
    UPDATE(0, N)
#pragma omp target update to(x[0:N]) device(DEVS)
    RUN("reflecting, whole", mirror)
    UPDATE(0, 5)
#pragma omp target update to(x[0:5]) device(DEVS)
    RUN("reflecting, first 5", mirror)
    UPDATE(N - 3, 3)
#pragma omp target update to(x[N - 3:3]) device(DEVS)
    RUN("reflecting, last 3", mirror)
  }
}

int main(void) {
  periodic();
  reflecting();
  return 0;
}
