// Arrays reached through global and static pointers ('static double *x'
// mapped as 'x[0:n]'): clang passes such a section as a PTR_AND_OBJ entry
// whose base is the pointer's address, and homp once translated that
// address as if it were the array's, so that each device read garbage or
// crashed. Kernels (distributed and whole), data regions, target update, a
// standard kernel inside the data region, a nowait kernel and a section
// with an offset, and one the host runs, checked against sequential
// values.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env HOMP_DEVICES=1,0 %t | FileCheck %s
// RUN: env HOMP_DEVICES=0,host %t | FileCheck %s
// CHECK: kernels: PASS
// CHECK: data region: PASS
// CHECK: enter data: PASS
// CHECK: nowait: PASS
// CHECK: sections: PASS
// CHECK: on the host: PASS

#include <stdio.h>
#include <stdlib.h>

enum { N = 1001 };

double *x, *y; // global pointers
static double *z;

static int check(const char *What, const double *Got, const double *Want) {
  int Bad = 0;
  for (int i = 0; i < N; ++i)
    if (Got[i] != Want[i] && Bad++ < 3)
      printf("FAIL %s: [%d] = %g, expected %g\n", What, i, Got[i], Want[i]);
  printf("%s: %s\n", What, Bad ? "FAIL" : "PASS");
  return Bad;
}

static void reset(double *Want) {
  for (int i = 0; i < N; ++i) {
    x[i] = i % 17;
    y[i] = 0;
    z[i] = 2 * i;
    Want[i] = 0;
  }
}

int main(void) {
  int n = N, Bad = 0;
  x = malloc(N * sizeof(double));
  y = malloc(N * sizeof(double));
  z = malloc(N * sizeof(double));
  double *Want = malloc(N * sizeof(double));

  reset(Want);
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK) halo(1)) \
    map(to: z[0:n]) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 1; i < n - 1; ++i)
    y[i] = x[i - 1] + x[i + 1] + z[n - 1 - i];
  for (int i = 1; i < N - 1; ++i)
    Want[i] = x[i - 1] + x[i + 1] + z[N - 1 - i];
  Bad += check("kernels", y, Want);

  reset(Want);
#pragma omp target data device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
  {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; ++i)
      y[i] = 3 * x[i];
    // A standard kernel on one device, on the resident arrays.
#pragma omp target device(0)
    for (int i = 0; i < 5; ++i)
      y[i] += 1;
#pragma omp target update device(*) from(y[0:n])
    for (int i = 0; i < n; ++i)
      y[i] += 1;
#pragma omp target update device(*) to(y[0:n])
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; ++i)
      y[i] *= 2;
  }
  for (int i = 0; i < N; ++i)
    Want[i] = 2 * (3 * x[i] + (i < 5) + 1);
  Bad += check("data region", y, Want);

  reset(Want);
#pragma omp target enter data device(*) map(to: z[0:n] dist_data(BLOCK))
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] = z[i] + 1;
#pragma omp target exit data device(*) map(from: z[0:n])
  for (int i = 0; i < N; ++i)
    Want[i] = 2 * i + 1;
  Bad += check("enter data", y, Want);

  reset(Want);
  for (int Round = 0; Round < 3; ++Round) {
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK)) nowait
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; ++i)
      y[i] += x[i];
#pragma omp taskwait
  }
  for (int i = 0; i < N; ++i)
    Want[i] = 3 * (i % 17);
  Bad += check("nowait", y, Want);

  reset(Want);
  int lo = 3;
#pragma omp target device(*) map(to: x[lo:n - 2 * lo] dist_data(BLOCK)) \
    map(tofrom: y[lo:n - 2 * lo] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = lo; i < n - lo; ++i)
    y[i] = x[i] + 1;
  for (int i = 3; i < N - 3; ++i)
    Want[i] = x[i] + 1;
  Bad += check("sections", y, Want);

  // x split unlike the loop: the host runs the kernel (with a warning),
  // through its own entry, which takes the pointers' values.
  reset(Want);
#pragma omp target device(*) map(to: x[lo:n - lo] dist_data(BLOCK)) \
    map(tofrom: y[lo:n - 2 * lo] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = lo; i < n - lo; ++i)
    y[i] = x[i] + 2;
  for (int i = 3; i < N - 3; ++i)
    Want[i] = x[i] + 2;
  Bad += check("on the host", y, Want);
  free(Want);
  free(x);
  free(y);
  free(z);
  return Bad != 0;
}
