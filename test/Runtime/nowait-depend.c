// nowait regions run as target tasks, done at the taskwait; depend orders
// them, also when the second runs on other devices (2 and 3).
// REQUIRES: devices-4
// RUN: %hompcc -O2 %s -o %t && env HOMP_INFO=1 %t 2>&1 | FileCheck %s -DDEVICES="%devices"

#include <stdio.h>

int main(void) {
  enum { n = 1000 };
  static double a[n], b[n];
  for (int i = 0; i < n; ++i)
    a[i] = i;
  // CHECK-DAG: homp: region {{.*}}nowait-depend.c:[[@LINE+1]]:1: 1000 iterations on [[DEVICES]]
#pragma omp target teams distribute parallel for device(*) nowait depend(out: a) \
    map(tofrom: a[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    a[i] += 1;
  // CHECK-DAG: homp: region {{.*}}nowait-depend.c:[[@LINE+1]]:1: 1000 iterations on 2 devices
#pragma omp target teams distribute parallel for device(2:2) nowait depend(in: a) \
    map(to: a[0:n] dist_data(BLOCK)) map(from: b[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    b[i] = 2 * a[i];
#pragma omp taskwait
  for (int i = 0; i < n; ++i)
    if (a[i] != i + 1 || b[i] != 2.0 * (i + 1))
      return puts("FAIL"), 1;
  // CHECK: PASS
  puts("PASS");
  return 0;
}
