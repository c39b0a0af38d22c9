// A 'nowait' kernel that runs on the host instead of its devices (here its
// reads go past its arrays' parts, and OMP_TARGET_OFFLOAD=DISABLED runs
// every one on the host) runs when its task does, perhaps after the block
// around the construct, which holds the loop's bounds (homp's chunk
// variable), has ended: homp runs the host version with its own copy of
// them (clang's fallback read the ended block's, and the loop ran over
// garbage bounds). Checked against sequential values, in 20 rounds.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>/dev/null | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t | FileCheck %s
// CHECK: PASS

#include <stdio.h>

enum { N = 37 };
static long x[N], y[N];

static void scribble(void) {
  volatile long Junk[512];
  for (int i = 0; i < 512; ++i)
    Junk[i] = -1000000 - i;
}

int main(void) {
  int n = N, Bad = 0;
  for (int Round = 0; Round < 20; ++Round) {
    for (int i = 0; i < n; ++i)
      x[i] = i, y[i] = 0;
#pragma omp parallel
#pragma omp single
    {
      {
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK)) \
    map(to: x[0:n] dist_data(BLOCK)) nowait depend(inout: y[0])
#pragma omp parallel for dist_iteration(BLOCK)
        for (int i = 1; i < n - 1; i += 1)
          y[i] += x[i + 1] + Round;
      }
      scribble();
#pragma omp taskwait
    }
    for (int i = 1; i < n - 1; ++i)
      Bad += y[i] != i + 1 + Round;
    Bad += y[0] != 0 || y[n - 1] != 0;
  }
  puts(Bad ? "FAIL" : "PASS");
  return Bad != 0;
}
