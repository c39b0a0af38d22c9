// Each CPU offload device's proxy is bound to its share of the process's
// cores (HOMP_BIND, on by default): with D devices on P CPUs, the d-th
// device's thread may run on the P/D CPUs from position d*P/D (one CPU,
// the d-th modulo P, when D > P). A kernel records the affinity of the
// thread that runs each device's part; the device whose part the calling
// thread runs (unbound: it is the program's) keeps the process's CPUs.
// HOMP_BIND=0, and under 'taskset' the process's CPUs are the ones shared.
// RUN: %hompcc -O2 %s -o %t && %t 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env HOMP_BIND=0 %t unbound 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: taskset -c 0 %t 2>&1 | FileCheck %s --implicit-check-not=FAIL
// CHECK: binding: PASS

#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

enum { MaxDevices = 64, MaxCpus = 1024 };

// The CPUs the calling thread may run on: how many, and the lowest in
// *First (the CPUs themselves in Cpus, if given). A GPU's image of this
// program parses it with the GPU's headers, which have no CPU affinity;
// its code never runs here.
static int affinity(int *First, int *Cpus) {
  int Count = 0;
  *First = -1;
#if !defined(__NVPTX__) && !defined(__AMDGPU__)
  cpu_set_t Set;
  sched_getaffinity(0, sizeof Set, &Set);
  for (int C = 0; C < CPU_SETSIZE && C < MaxCpus; ++C)
    if (CPU_ISSET(C, &Set)) {
      if (*First < 0)
        *First = C;
      if (Cpus)
        Cpus[Count] = C;
      ++Count;
    }
#endif
  return Count;
}

int main(int argc, char **argv) {
  int Unbound = argc > 1 && !strcmp(argv[1], "unbound");
  int Cpus[MaxCpus], Lowest;
  int P = affinity(&Lowest, Cpus);
  int D = omp_get_num_devices(), n = D;
  if (D < 1 || D > MaxDevices) {
    printf("FAIL: %d devices\n", D);
    return 1;
  }
  int Count[MaxDevices], First[MaxDevices];
  for (int Run = 0; Run < 3; ++Run) {
    // One iteration per device, run by its team's first thread.
#pragma omp target device(*) map(from: Count[0:n] dist_data(BLOCK), \
    First[0:n] dist_data(BLOCK))
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      Count[i] = affinity(&First[i], NULL);
    int Each = P / D > 0 ? P / D : 1, Bound = 0, Bad = 0;
    for (int d = 0; d < D; ++d) {
      if (Count[d] == P && (Unbound || P < 2 || Each == P))
        continue;
      if (!Unbound && Count[d] == Each && First[d] == Cpus[(d * Each) % P]) {
        ++Bound;
        continue;
      }
      if (!Unbound && Count[d] == P) // the calling thread's
        continue;
      printf("FAIL: run %d, device %d may run on %d CPUs from %d (process: "
             "%d CPUs)\n",
             Run, d, Count[d], First[d], P);
      Bad = 1;
    }
    // Every device but the one the calling thread ran is bound.
    if (!Unbound && P >= 2 && Each < P && Bound < D - 1) {
      printf("FAIL: run %d, %d of %d devices bound\n", Run, Bound, D);
      Bad = 1;
    }
    if (Bad)
      return 1;
  }
  printf("binding: PASS\n");
  return 0;
}
