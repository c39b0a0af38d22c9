// The construct written as three directives, 'target', 'teams' and
// 'distribute parallel for' (OpenMP's split form of 'target teams
// distribute parallel for'): distributed as the combined one is, with the
// teams directive's own clauses kept, a reduction and a 2-D collapse.
// The reduction is the combined construct's, which covers the teams (homp
// writes the two directives as one): on a GPU, whose teams run at once,
// the split form's teams raced on the shared sum (seen on an H200). A
// teams directive with a reduction of its own (which hung the CPU devices'
// kernels, libomp waiting at the teams' end for a thread of the proxy's
// parallel region) gives the same sum, as does 'target teams' with a
// reduction before the loop directive.
// Checked against sequential code.
// RUN: %hompcc -O2 %s -o %t && %t 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DDEVS="*, host" %s -o %t.host && %t.host 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=INFO -DDEVICES="%devices"
// INFO: homp: region {{.*}}teams-split.c:[[# @LINE + 21]]:1: 1001 iterations on [[DEVICES]]
// CHECK: axpy: PASS
// CHECK: sum: PASS
// CHECK: teams sum: PASS
// CHECK: target teams sum: PASS
// CHECK: braced sum: PASS
// CHECK: default(none) sum: PASS
// CHECK: collapse: PASS

#include <stdio.h>

#ifndef DEVS
#define DEVS *
#endif

enum { N = 1001, R = 13, C = 17 };
static double x[N], y[N], m[R][C];

int main(void) {
  for (int i = 0; i < N; i++)
    x[i] = i, y[i] = 1;
#pragma omp target device(DEVS) map(to: x[0:N] dist_data(BLOCK)) map(tofrom: y[0:N] dist_data(BLOCK))
#pragma omp teams num_teams(2) thread_limit(4)
#pragma omp distribute parallel for
  for (int i = 0; i < N; i++)
    y[i] += 2 * x[i];
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += y[i] != 1 + 2.0 * i;
  printf("axpy: %s\n", bad ? "FAIL" : "PASS");

  double s = 0.5;
#pragma omp target device(DEVS) map(to: x[0:N] dist_data(BLOCK))
#pragma omp teams
#pragma omp distribute parallel for reduction(+: s) dist_iteration(BLOCK)
  for (int i = 0; i < N; i++)
    s += x[i];
  printf("sum: %s\n", s == 0.5 + (N - 1) * N / 2.0 ? "PASS" : "FAIL");

  s = 0.5;
  double c = 0;
#pragma omp target device(DEVS) map(to: x[0:N] dist_data(BLOCK))
#pragma omp teams reduction(+: s, c)
#pragma omp distribute parallel for reduction(+: s, c) dist_iteration(BLOCK)
  for (int i = 0; i < N; i++)
    s += x[i], c += 1;
  printf("teams sum: %s\n",
         s == 0.5 + (N - 1) * N / 2.0 && c == N ? "PASS" : "FAIL");

  s = 0.5, c = 0;
#pragma omp target teams device(DEVS) map(to: x[0:N] dist_data(BLOCK)) reduction(+: s, c)
#pragma omp distribute parallel for reduction(+: s) dist_schedule(teams: static)
  for (int i = 0; i < N; i++)
    s += x[i], c += 1;
  printf("target teams sum: %s\n",
         s == 0.5 + (N - 1) * N / 2.0 && c == N ? "PASS" : "FAIL");

  s = 0.5;
  int n = N;
#pragma omp target teams device(DEVS) map(to: x[0:N] dist_data(BLOCK))
  {
#pragma omp distribute parallel for reduction(+: s) if(n > 10)
    for (int i = 0; i < N; i++)
      s += x[i];
  }
  printf("braced sum: %s\n", s == 0.5 + (N - 1) * N / 2.0 ? "PASS" : "FAIL");

  s = 0.5;
  double t = 2;
#pragma omp target device(DEVS) map(to: x[0:N] dist_data(BLOCK))
#pragma omp teams default(none) shared(x, s) firstprivate(t)
#pragma omp distribute parallel for reduction(+: s) firstprivate(t)
  for (int i = 0; i < N; i++)
    s += t * x[i];
  printf("default(none) sum: %s\n",
         s == 0.5 + (N - 1) * N ? "PASS" : "FAIL");

#pragma omp target device(DEVS) map(from: m[0:R][0:C] dist_data(BLOCK, *))
#pragma omp teams
#pragma omp distribute parallel for collapse(2)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      m[i][j] = i * 100 + j;
  bad = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      bad += m[i][j] != i * 100 + j;
  printf("collapse: %s\n", bad ? "FAIL" : "PASS");
  return 0;
}
