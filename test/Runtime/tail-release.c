// A long region whose devices end at different times: once every device
// bound to some CPUs is done while another device still runs (from 10 ms
// into the region on), the one still running may run on every CPU of the
// process (HOMP_BIND), so idle CPUs can take a part of its work. Device 0's
// part runs until its thread may run on all the process's CPUs (at most 5
// s), the other devices' parts end at once. The first execution teaches
// homp that the region is long; the second is checked. On 1 CPU, with one
// device or with binding off, the thread may run on every CPU from the
// start. A GPU's image says -1 and is not checked.
// RUN: %hompcc -O2 %s -o %t && %t %ndev 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env HOMP_BIND=0 %t %ndev 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: taskset -c 0 %t %ndev 2>&1 | FileCheck %s --implicit-check-not=FAIL
// CHECK: tail: PASS

#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { MaxDevices = 64 };

// How many CPUs the calling thread may run on; -1 on a GPU.
static int cpus(void) {
#if defined(__NVPTX__) || defined(__AMDGPU__)
  return -1;
#else
  cpu_set_t Set;
  if (sched_getaffinity(0, sizeof Set, &Set))
    return 0;
  return CPU_COUNT(&Set);
#endif
}

static double seconds(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + 1e-9 * T.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  int N = atoi(argv[1]), n = N, P = cpus();
  if (N < 1 || N > MaxDevices || N > omp_get_num_devices()) {
    printf("FAIL: %d devices of %d\n", N, omp_get_num_devices());
    return 1;
  }
  int Count[MaxDevices];
  double Took[MaxDevices];
  for (int Run = 0; Run < 2; ++Run) {
    // One iteration per device: device 0 has iteration 0.
#pragma omp target device(*) map(tofrom: P) \
    map(from: Count[0:n] dist_data(BLOCK), Took[0:n] dist_data(BLOCK))
#pragma omp parallel for
    for (int i = 0; i < n; ++i) {
      double Start = seconds();
      Count[i] = cpus();
      while (i == 0 && Count[i] >= 0 && Count[i] < P &&
             seconds() - Start < 5) {
        for (volatile int Spin = 0; Spin < 10000; ++Spin)
          ;
        Count[i] = cpus();
      }
      Took[i] = seconds() - Start;
    }
  }
  if (Count[0] >= 0 && Count[0] != P) {
    printf("FAIL: device 0 may run on %d of %d CPUs after %.3f s\n", Count[0],
           P, Took[0]);
    return 1;
  }
  printf("tail: PASS\n");
  return 0;
}
