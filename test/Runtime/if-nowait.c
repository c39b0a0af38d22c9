// if(target: ...) false runs the region on the host (HOMP_INFO says so);
// nowait regions run as target tasks, done at the taskwait (nowait-depend.c
// orders two of them on different devices with depend).
// RUN: %hompcc -O2 %s -o %t && env HOMP_INFO=1 %t 2>&1 | FileCheck %s -DDEVICES="%devices"

#include <stdio.h>

int main(void) {
  enum { n = 1000 };
  static double a[n];
  int off = 0;
#pragma omp target teams distribute parallel for device(*) if(target: off) \
    map(tofrom: a[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    a[i] = i;
  // CHECK: homp: region {{.*}}if-nowait.c:12:1: its 'if' clause is false: it runs on the host
  // CHECK-NOT: homp: region {{.*}}if-nowait.c:12:1

  // CHECK: homp: region {{.*}}if-nowait.c:[[@LINE+1]]:1: 1000 iterations on [[DEVICES]]
#pragma omp target teams distribute parallel for device(*) nowait \
    map(tofrom: a[0:n] dist_data(BLOCK))
  for (int i = 0; i < n; ++i)
    a[i] += 1;
#pragma omp taskwait
  for (int i = 0; i < n; ++i)
    if (a[i] != i + 1)
      return puts("FAIL"), 1;
  // CHECK: PASS
  puts("PASS");
  return 0;
}
