// 'nowait' data constructs and kernels ordered by 'depend': each is
// planned when its task runs, after the tasks it depends on, not when it
// is encountered. A kernel after 'target enter data ... nowait' once
// stopped ("the homp plugin did not know it as an array"), and a kernel
// that maps 'y' after 'target exit data map(from: y) nowait' once took the
// still-resident 'y' when it was encountered, so the exit copied nothing
// back and all of 'y' was lost. Checked against sequential values, in
// every order the tasks may run, in 20 rounds (threads, tasks, devices).
// RUN: %hompcc -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env HOMP_INFO=1 %t 2>/dev/null | FileCheck %s
// CHECK: enter, kernel, exit: PASS

#include <stdio.h>
#include <stdlib.h>

enum { N = 1000 };

int main(void) {
  int n = N, Bad = 0;
  double *y = malloc(n * sizeof *y);
  for (int Round = 0; Round < 20; ++Round) {
    for (int i = 0; i < n; ++i)
      y[i] = i;
#pragma omp parallel
#pragma omp single
    {
#pragma omp target enter data device(*) map(to: y[0:n] dist_data(BLOCK)) \
    nowait depend(out: y[0])
#pragma omp target device(*) nowait depend(inout: y[0])
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; ++i)
        y[i] += 1;
#pragma omp target exit data device(*) map(from: y[0:n]) nowait \
    depend(inout: y[0])
#pragma omp taskwait
    }
    for (int i = 0; i < n; ++i)
      Bad += y[i] != i + 1;
    // The exit's task copies y back, then a kernel maps y afresh.
    for (int i = 0; i < n; ++i)
      y[i] = i;
#pragma omp target enter data device(*) map(to: y[0:n] dist_data(BLOCK))
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; ++i)
      y[i] += 1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp target exit data device(*) map(from: y[0:n]) nowait \
    depend(out: y[0])
#pragma omp target device(*) nowait depend(inout: y[0]) \
    map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; ++i)
        y[i] *= 2;
#pragma omp taskwait
    }
    for (int i = 0; i < n; ++i)
      Bad += y[i] != 2 * (i + 1);
  }
  printf("enter, kernel, exit: %s\n", Bad ? "FAIL" : "PASS");
  free(y);
  return Bad != 0;
}
