// Two disjoint sections of one array resident at once ('enter data
// y[0:h]', then 'y[h:n-h]'): a kernel without a map clause finds the one
// that holds the elements it uses, by their range, not by the array's
// address alone (which once gave it the first section, and an error), and
// a kernel that uses both runs on the host with both gathered there. Two
// host threads, each holding its half and running kernels over it, once
// failed 3 runs in 10. Checked against sequential values, in 20 rounds.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env HOMP_DEVICES=1,2 %t | FileCheck %s
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=INFO
// CHECK: one section each: PASS
// CHECK: across both: PASS
// CHECK: two threads: PASS
// INFO: homp: warning: region {{.*}}resident-sections.c:[[#]]:1: 'y' is resident in 2 sections made resident apart, and the loop uses elements [0, 1000), which no one of them holds; running it on the host, with the resident arrays it uses gathered there

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 1000, H = 400 };

static int check(const char *What, const double *y, double (*Want)(int)) {
  int Bad = 0;
  for (int i = 0; i < N; ++i)
    if (y[i] != Want(i) && Bad++ < 3)
      printf("FAIL %s: y[%d] = %g, expected %g\n", What, i, y[i], Want(i));
  printf("%s: %s\n", What, Bad ? "FAIL" : "PASS");
  return Bad;
}

static double oneEach(int i) { return i + (i >= H ? 1 : 2); }
static double acrossBoth(int i) { return oneEach(i) + i; }
static double twoThreads(int i) { return i + 20 * (i < H ? 1 : 2); }

int main(void) {
  int n = N, h = H, Bad = 0;
  double *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; ++i)
    y[i] = i;
#pragma omp target enter data device(*) map(to: y[0:h] dist_data(BLOCK))
#pragma omp target enter data device(*) map(to: y[h:n-h] dist_data(BLOCK))
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = h; i < n; ++i)
    y[i] += 1;
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < h; ++i)
    y[i] += 2;
#pragma omp target update device(*) from(y[0:h])
#pragma omp target update device(*) from(y[h:n-h])
  Bad += check("one section each", y, oneEach);
  // Over all of y: both sections at once.
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] = y[i] + i;
#pragma omp target exit data device(*) map(from: y[0:h])
#pragma omp target exit data device(*) map(from: y[h:n-h])
  Bad += check("across both", y, acrossBoth);
  for (int i = 0; i < n; ++i)
    y[i] = i;
  // Two threads, each its own half, resident at once.
#pragma omp parallel num_threads(2) reduction(+: Bad)
  {
    int Lo = omp_get_thread_num() == 0 ? 0 : h,
        Len = omp_get_thread_num() == 0 ? h : n - h;
    int Add = omp_get_thread_num() + 1;
#pragma omp target enter data device(*) map(to: y[Lo:Len] dist_data(BLOCK))
    for (int Round = 0; Round < 20; ++Round) {
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = Lo; i < Lo + Len; ++i)
        y[i] += Add;
    }
#pragma omp target exit data device(*) map(from: y[Lo:Len])
  }
  Bad += check("two threads", y, twoThreads);
  free(y);
  return Bad != 0;
}
