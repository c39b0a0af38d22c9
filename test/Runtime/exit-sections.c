// 'target exit data map(from: x[2:4])' of an array made resident whole: at
// the last reference only the list item comes back, as OpenMP says; the
// host's other elements keep the values it gave them meanwhile (every
// device's whole part came back once). 1-D and 2-D rows, and a release
// that is not the last copies nothing.
// RUN: %hompcc -O2 %s -o %t && %t | FileCheck %s
// CHECK: 1-D: PASS
// CHECK: 2-D: PASS
// CHECK: not the last reference: PASS
// CHECK: not on the devices: PASS
// An exit of what is not on the devices (its enter ran on the host, whose
// topology did not fit, say) does nothing, as OpenMP says; it stopped the
// program.
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=INFO
// INFO: homp: region {{.*}}exit-sections.c:{{[0-9]+}}:1: 'z' is not on the devices: its 'target exit data' does nothing

#include <stdio.h>

enum { N = 8, M = 5 };
static double x[N], a[N][M];

int main(void) {
  for (int i = 0; i < N; ++i)
    x[i] = i + 1;
#pragma omp target enter data device(*) map(to: x[0:N] dist_data(BLOCK))
#pragma omp target device(*)
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    x[i] = -x[i];
  x[0] = x[7] = 1000;
#pragma omp target exit data device(*) map(from: x[2:4])
  int bad = 0;
  for (int i = 0; i < N; ++i)
    bad += x[i] != (i >= 2 && i < 6 ? -(i + 1) : i == 0 || i == 7 ? 1000 : i + 1);
  printf("1-D: %s\n", bad ? "FAIL" : "PASS");

  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      a[i][j] = i * 10 + j;
#pragma omp target enter data device(*) map(to: a[0:N][0:M] dist_data(BLOCK, *))
#pragma omp target device(*)
#pragma omp parallel for collapse(2)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      a[i][j] = -a[i][j];
#pragma omp target exit data device(*) map(from: a[3:3][0:M])
  bad = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      bad += a[i][j] != (i >= 3 && i < 6 ? -(i * 10 + j) : i * 10 + j);
  printf("2-D: %s\n", bad ? "FAIL" : "PASS");

  // Two references: the first exit copies nothing back.
  for (int i = 0; i < N; ++i)
    x[i] = i + 1;
#pragma omp target enter data device(*) map(to: x[0:N] dist_data(BLOCK))
#pragma omp target enter data device(*) map(to: x[0:N] dist_data(BLOCK))
#pragma omp target device(*)
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    x[i] = -x[i];
#pragma omp target exit data device(*) map(from: x[2:4])
  bad = 0;
  for (int i = 0; i < N; ++i)
    bad += x[i] != i + 1;
#pragma omp target exit data device(*) map(from: x[0:N])
  for (int i = 0; i < N; ++i)
    bad += x[i] != -(i + 1);
  printf("not the last reference: %s\n", bad ? "FAIL" : "PASS");

  static double z[N];
  for (int i = 0; i < N; ++i)
    z[i] = i;
#pragma omp target exit data device(*) map(from: z[0:N])
  bad = 0;
  for (int i = 0; i < N; ++i)
    bad += z[i] != i;
  printf("not on the devices: %s\n", bad ? "FAIL" : "PASS");
  return 0;
}
