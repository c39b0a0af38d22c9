// A reduction variable of a type homp cannot combine across devices yet
// (_Float16; __int128 too, in test/Driver/Inputs/wide-sum.c: clang 19's
// NVPTX backend fails on it, so a GPU build could not carry it) runs the
// region on the host, with a warning naming the region, the variable and
// the operator at each execution (an error under
// OMP_TARGET_OFFLOAD=MANDATORY), and gives the sequential answer. The
// program links: its max calls libm's fmaxf, which hompcc links where needed.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: not env OMP_TARGET_OFFLOAD=MANDATORY %t 2>&1 | FileCheck %s --check-prefix=MANDATORY
// CHECK: homp: warning: region {{.*}}wide-reductions.c:[[# @LINE + 14]]:1: cannot reduce 'h' with 'max' across devices: unsupported type; running it on the host
// CHECK: float16: PASS
// MANDATORY: homp: error: region {{.*}}wide-reductions.c:[[# @LINE + 12]]:1: cannot reduce 'h' with 'max' across devices
// MANDATORY-NOT: PASS

#include <stdio.h>

enum { N = 1000 };
static double x[N];

int main(void) {
  for (int i = 0; i < N; i++)
    x[i] = i;
  _Float16 h = -1;
#pragma omp target teams distribute parallel for device(*) map(to: x[0:N] dist_data(BLOCK)) reduction(max: h)
  for (int i = 0; i < N; i++)
    h = (_Float16)(x[i] / 8) > h ? (_Float16)(x[i] / 8) : h;
  printf("float16: %s\n", h == (_Float16)(999.0 / 8) ? "PASS" : "FAIL");
  return 0;
}
