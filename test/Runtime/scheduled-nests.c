// A scheduler kind shares one loop of a collapse(2) nest out over all the
// devices: a nest that splits another loop as well (by its policy, or
// following an array split along it) would give each device a diagonal of
// blocks and leave most of the nest unrun. It is refused, naming both
// loops, and runs on the host (a data region's arrays would stop the
// program); with the other loop whole, the scheduler shares the nest.
// Results against sequential values. Needs 2 devices for the conflict.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t && %t 2>&1 | FileCheck %s --implicit-check-not=FAIL
// HOMP_INFO shows the iterations of a nest scheduled along its inner loop
// (in a sample and its rest, or in chunks) with the outer loop whole:
// RUN: env HOMP_DEVICES=0 HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=INFO
// INFO: schedule AUTO
// INFO-NEXT: homp: device type
// INFO-NEXT: homp: 0 CPU [0, 37) x [0, 53)
// INFO: schedule SCHED_DYNAMIC
// INFO-NEXT: homp: device type
// INFO-NEXT: homp: 0 CPU [0, 37) x [0, 53)
// INFO: schedule SCHED_GUIDED
// INFO-NEXT: homp: device type
// INFO-NEXT: homp: 0 CPU [0, 37) x [0, 53)
// CHECK: homp: warning: region {{.*}}scheduled-nests.c:[[# @LINE + 28]]:1: loop 0 of the nest is split as well as loop 1, which a scheduler shares out over all the devices: the other loops must run whole (FULL, or no policy over arrays not split along them); running it on the host
// CHECK: BLOCK, AUTO: PASS
// CHECK: homp: warning: region {{.*}}scheduled-nests.c:[[# @LINE + 34]]:1: loop 1 of the nest is split as well as loop 0, which a scheduler {{.*}}; running it on the host
// CHECK: columns, AUTO: PASS
// CHECK: homp: warning: region {{.*}}scheduled-nests.c:[[# @LINE + 40]]:1: loop 0 of the nest is split as well as loop 1, which a scheduler {{.*}}; running it on the host
// CHECK: rows, BLOCK, SCHED_DYNAMIC: PASS
// CHECK-NOT: warning
// CHECK: FULL, SCHED_GUIDED: PASS

#include <stdio.h>
#include <stdlib.h>

enum { N = 37, M = 53 };

static int check(double (*v)[M], const char *What) {
  int Bad = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      Bad += v[i][j] != i * 1000 + j;
  printf("%s: %s\n", What, Bad ? "FAIL" : "PASS");
  return Bad != 0;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0); // in order with homp's warnings
  double (*v)[M] = malloc(sizeof(double) * N * M);
  int Fails = 0;
  for (int i = 0; i < N * M; ++i) v[0][i] = -1;
#pragma omp target device(*) map(tofrom: v[0:N][0:M])
#pragma omp parallel for collapse(2) dist_iteration(BLOCK, AUTO)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      v[i][j] = i * 1000 + j;
  Fails += check(v, "BLOCK, AUTO");

  for (int i = 0; i < N * M; ++i) v[0][i] = -1;
#pragma omp target device(*) map(tofrom: v[0:N][0:M] dist_data(*, BLOCK))
#pragma omp parallel for collapse(2) dist_iteration(AUTO)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      v[i][j] = i * 1000 + j;
  Fails += check(v, "columns, AUTO");

  for (int i = 0; i < N * M; ++i) v[0][i] = -1;
#pragma omp target device(*) map(tofrom: v[0:N][0:M] dist_data(BLOCK, *))
#pragma omp parallel for collapse(2) dist_iteration(BLOCK, SCHED_DYNAMIC)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      v[i][j] = i * 1000 + j;
  Fails += check(v, "rows, BLOCK, SCHED_DYNAMIC");

  for (int i = 0; i < N * M; ++i) v[0][i] = -1;
#pragma omp target device(*) map(tofrom: v[0:N][0:M] dist_data(*, ALIGN(loop)))
#pragma omp parallel for collapse(2) dist_iteration(FULL, SCHED_GUIDED(3))
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      v[i][j] = i * 1000 + j;
  Fails += check(v, "FULL, SCHED_GUIDED");
  free(v);
  return Fails;
}
