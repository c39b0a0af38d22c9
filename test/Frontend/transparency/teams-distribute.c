// Transparency: 'teams', 'distribute', 'num_teams' and 'thread_limit', and
// 'dist_schedule', compile to the same IR with and without homp, and run the
// same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <omp.h>
#include <stdio.h>

#define N 100

int main(void) {
  int a[N];
  for (int i = 0; i < N; ++i)
    a[i] = 0;

  // target + teams + distribute as three nested directives: every
  // iteration runs exactly once, a[i] = i * i; sum of squares 0..99 =
  // 99 * 100 * 199 / 6 = 328350.
#pragma omp target map(tofrom : a)
#pragma omp teams num_teams(2) thread_limit(1)
#pragma omp distribute
  for (int i = 0; i < N; ++i)
    a[i] = i * i;
  long s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: nested=328350
  printf("nested=%ld\n", s);

  // target teams with num_teams/thread_limit: the number of teams is at most
  // the requested 2 and at least 1; the thread limit is 1. (Two teams of one
  // thread each also fit a two-core machine without runtime warnings.)
  int nteams = 0, limit = 0;
#pragma omp target teams num_teams(2) thread_limit(1) map(tofrom : nteams, limit)
  {
    if (omp_get_team_num() == 0) {
      nteams = omp_get_num_teams();
      limit = omp_get_thread_limit();
    }
  }
  // CHECK: teams_ok=1 limit_ok=1
  printf("teams_ok=%d limit_ok=%d\n", nteams >= 1 && nteams <= 2,
         limit == 1);

  // target teams distribute with dist_schedule: a[i] = 2 * i + 1, the sum of
  // the first 100 odd numbers is 100^2 = 10000.
#pragma omp target teams distribute dist_schedule(static, 8) num_teams(2) map(tofrom : a)
  for (int i = 0; i < N; ++i)
    a[i] = 2 * i + 1;
  s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: dist_schedule=10000
  printf("dist_schedule=%ld\n", s);

  // teams distribute inside a target region, with a reduction over teams:
  // 1 + 2 + ... + 100 = 5050.
  long t = 0;
#pragma omp target map(tofrom : t)
#pragma omp teams distribute reduction(+ : t) num_teams(2)
  for (int i = 1; i <= N; ++i)
    t += i;
  // CHECK: teams_reduction=5050
  printf("teams_reduction=%ld\n", t);
  return 0;
}
