// A long region whose devices end at different times: once every device
// bound to some CPUs is done while another device still runs (from 10 ms
// into the region on, or at once when its last execution took that long),
// the one still running may run on every CPU of the process (HOMP_BIND), so
// idle CPUs can take a part of its work; at its next job it is bound again.
// Device 0's part runs 20 ms (which keeps the region long for homp), and
// after the first execution also until its thread may run on all the
// process's CPUs (at most 5 s), while the other devices' parts end at once.
// Each execution after the first also checks that device 0 starts bound
// (again) when it starts before the devices of every other CPU are done
// (one that starts after a release may run anywhere). On 1 CPU, with one device or with
// binding off, the thread may run on every CPU from the start. A GPU's
// image says -1 and is not checked.
// RUN: %hompcc -O2 %s -o %t && %t %ndev 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env HOMP_BIND=0 %t %ndev unbound 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: taskset -c 0 %t %ndev 2>&1 | FileCheck %s --implicit-check-not=FAIL
// CHECK: tail: PASS

#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
  int Unbound = argc > 2 && !strcmp(argv[2], "unbound");
  if (N < 1 || N > MaxDevices || N > omp_get_num_devices()) {
    printf("FAIL: %d devices of %d\n", N, omp_get_num_devices());
    return 1;
  }
  int Count[MaxDevices], First[MaxDevices];
  double Took[MaxDevices], Began[MaxDevices], Ended[MaxDevices];
  for (int Run = 0; Run < 3; ++Run) {
    // One iteration per device: device 0 has iteration 0.
#pragma omp target device(*) map(to: P, Run) \
    map(from: Count[0:n] dist_data(BLOCK), First[0:n] dist_data(BLOCK), \
        Took[0:n] dist_data(BLOCK), Began[0:n] dist_data(BLOCK), \
        Ended[0:n] dist_data(BLOCK))
#pragma omp parallel for
    for (int i = 0; i < n; ++i) {
      double Start = Began[i] = seconds();
      First[i] = Count[i] = cpus();
      while (i == 0 && Count[i] >= 0 &&
             (seconds() - Start < 0.02 ||
              (Run > 0 && Count[i] < P && seconds() - Start < 5))) {
        for (volatile int Spin = 0; Spin < 10000; ++Spin)
          ;
        Count[i] = cpus();
      }
      Ended[i] = seconds();
      Took[i] = Ended[i] - Start;
    }
    if (Run > 0 && Count[0] >= 0 && Count[0] != P) {
      printf("FAIL: run %d, device 0 may run on %d of %d CPUs after %.3f s\n",
             Run, Count[0], P, Took[0]);
      return 1;
    }
    // Bound: each of 2 or more devices has fewer CPUs than all, unless the
    // devices of some other CPU (CPU i mod P of the i-th device when they
    // are at least as many as the CPUs, else each its own) were all done
    // when device 0 began.
    int Early = N >= 2;
    for (int g = 1; g < (N >= P ? P : N); ++g) {
      int Running = 0;
      for (int i = g; i < N; i += N >= P ? P : N)
        Running |= Ended[i] > Began[0];
      Early &= Running;
    }
    if (Run > 0 && Early && !Unbound && P >= 2 && First[0] >= 0 &&
        First[0] >= P) {
      printf("FAIL: run %d, device 0 starts on %d of %d CPUs\n", Run,
             First[0], P);
      for (int i = 0; i < N; ++i)
        printf("  %d: %d cpus, began %.6f ended %.6f\n", i, First[i],
               Began[i] - Began[0], Ended[i] - Began[0]);
      return 1;
    }
  }
  printf("tail: PASS\n");
  return 0;
}
