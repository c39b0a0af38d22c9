// Reduction variables of types homp cannot combine across devices yet
// (__int128, _Float16) run the region on the host, with a warning naming
// the region, the variable and the operator at each execution (an error
// under OMP_TARGET_OFFLOAD=MANDATORY), and give the sequential answer. The
// program links: hompcc brings libatomic, which a reduction of 16 bytes
// calls, where one is needed.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: not env OMP_TARGET_OFFLOAD=MANDATORY %t 2>&1 | FileCheck %s --check-prefix=MANDATORY
// CHECK: homp: warning: region {{.*}}wide-reductions.c:[[# @LINE + 18]]:1: cannot reduce 's' with '+' across devices: unsupported type; running it on the host
// CHECK: int128: PASS
// CHECK: homp: warning: region {{.*}}wide-reductions.c:[[# @LINE + 23]]:1: cannot reduce 'h' with 'max' across devices: unsupported type; running it on the host
// CHECK: float16: PASS
// MANDATORY: homp: error: region {{.*}}wide-reductions.c:[[# @LINE + 14]]:1: cannot reduce 's' with '+' across devices
// MANDATORY-NOT: PASS

#include <stdio.h>

enum { N = 1000 };
static double x[N];

int main(void) {
  for (int i = 0; i < N; i++)
    x[i] = i;
  __int128 s = (__int128)1 << 80, Want = s;
  for (int i = 0; i < N; i++)
    Want += (__int128)x[i] << 64;
#pragma omp target teams distribute parallel for device(*) map(to: x[0:N] dist_data(BLOCK)) reduction(+: s)
  for (int i = 0; i < N; i++)
    s += (__int128)x[i] << 64;
  printf("int128: %s\n", s == Want ? "PASS" : "FAIL");
  fflush(stdout);

  _Float16 h = -1;
#pragma omp target teams distribute parallel for device(*) map(to: x[0:N] dist_data(BLOCK)) reduction(max: h)
  for (int i = 0; i < N; i++)
    h = (_Float16)(x[i] / 8) > h ? (_Float16)(x[i] / 8) : h;
  printf("float16: %s\n", h == (_Float16)(999.0 / 8) ? "PASS" : "FAIL");
  return 0;
}
