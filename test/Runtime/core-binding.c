// Each CPU offload device's proxy is bound to its share of the process's
// cores (HOMP_BIND, on by default): with D devices on P CPUs, the d-th
// device's thread may run on the P/D CPUs from position d*P/D (one CPU,
// the d-th modulo P, when D > P). A kernel records the affinity of the
// thread that runs each device's part; the device whose part the calling
// thread runs (unbound: it is the program's) keeps the process's CPUs. When
// the devices outnumber the CPUs (D >= P), the calling thread runs the parts
// of every device bound to one CPU (the one it is on: those d with the same
// d modulo P), one after the other, and each other CPU's proxy those of its
// devices.
// HOMP_BIND=0, and under 'taskset' the process's CPUs are the ones shared.
// A region that turns out long (here, when the machine is busy) lets a
// device's thread go once the devices of another CPU are all done (the
// user guide's "Running"): a device that began after that may run anywhere.
// The program is told how many devices 'device(*)' gives (HOMP_DEVICES may
// leave out some of omp_get_num_devices()); a GPU among them is not bound.
// A SCHED_DYNAMIC loop over CPU devices that outnumber the CPUs runs every
// chunk on a thread bound to one CPU, the calling thread's too, and leaves
// the calling thread its CPUs.
// RUN: %hompcc -O2 %s -o %t && %t %ndev 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: env HOMP_BIND=0 %t %ndev unbound 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: taskset -c 0 %t %ndev 2>&1 | FileCheck %s --implicit-check-not=FAIL
// CHECK: binding: PASS

#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MaxDevices = 64, MaxCpus = 1024 };

// The CPUs the calling thread may run on: how many, and the lowest in
// *First (the CPUs themselves in Cpus, if given). A GPU's image of this
// program parses it with the GPU's headers, which have no CPU affinity:
// on a GPU it says -1.
static int affinity(int *First, int *Cpus) {
  int Count = 0;
  *First = -1;
#if defined(__NVPTX__) || defined(__AMDGPU__)
  Count = -1;
#else
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

// Seconds from a monotonic clock; 0 on a GPU.
static double seconds(void) {
#if defined(__NVPTX__) || defined(__AMDGPU__)
  return 0;
#else
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + 1e-9 * T.tv_nsec;
#endif
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  int Unbound = argc > 2 && !strcmp(argv[2], "unbound");
  int Cpus[MaxCpus], Lowest;
  int P = affinity(&Lowest, Cpus);
  int N = atoi(argv[1]), n = N;
  if (N < 1 || N > MaxDevices || N > omp_get_num_devices()) {
    printf("FAIL: %d devices of %d\n", N, omp_get_num_devices());
    return 1;
  }
  int Count[MaxDevices], First[MaxDevices];
  double Began[MaxDevices], Ended[MaxDevices];
  for (int Run = 0; Run < 3; ++Run) {
    // One iteration per device, run by its team's first thread.
#pragma omp target device(*) map(from: Count[0:n] dist_data(BLOCK), \
    First[0:n] dist_data(BLOCK), Began[0:n] dist_data(BLOCK), \
    Ended[0:n] dist_data(BLOCK))
#pragma omp parallel for
    for (int i = 0; i < n; ++i) {
      Began[i] = seconds();
      Count[i] = affinity(&First[i], NULL);
      Ended[i] = seconds();
    }
    // D CPU offload devices share the CPUs; the d-th of them is the
    // construct's device Cpu[d].
    int Cpu[MaxDevices], D = 0;
    for (int i = 0; i < N; ++i)
      if (Count[i] >= 0)
        Cpu[D++] = i;
    int Each = D && P / D > 0 ? P / D : 1, Bound = 0, Bad = 0;
    // Late[s]: the s-th began after the devices of another CPU (CPU group
    // s mod G) were all done.
    int G = D >= P ? P : D, Late[MaxDevices] = {0}, Lates = 0;
    for (int s = 0; s < D; ++s) {
      for (int g = 0; g < G; ++g) {
        int Done = g != s % G;
        for (int t = g; t < D; t += G)
          Done &= Ended[Cpu[t]] < Began[Cpu[s]];
        Late[s] |= Done;
      }
      Lates += Late[s];
    }
    // The devices the calling thread may run: the last, or when the devices
    // outnumber the CPUs, those sharing the CPU it was on (the CPU of the
    // first device it ran, one with the process's CPUs).
    int Grouped = D >= P, Callers = 0, Mine = (D - 1) % (P ? P : 1);
    for (int s = 0; s < D; ++s)
      if (Grouped && Count[Cpu[s]] == P && !Late[s]) {
        Mine = s % P;
        break;
      }
    for (int s = 0; s < D; ++s)
      Callers += Grouped ? s % P == Mine : s == D - 1;
    for (int s = 0; s < D; ++s) {
      int d = Cpu[s];
      if (Count[d] == P && (Unbound || P < 2 || Each == P))
        continue;
      if (!Unbound && Count[d] == Each && First[d] == Cpus[(s * Each) % P]) {
        ++Bound;
        continue;
      }
      if (!Unbound && Count[d] == P &&
          (Grouped ? s % P == Mine : s == D - 1))
        continue; // the calling thread's
      if (!Unbound && Count[d] == P && Late[s])
        continue; // let go

      printf("FAIL: run %d, device %d may run on %d CPUs from %d (process: "
             "%d CPUs)\n",
             Run, d, Count[d], First[d], P);
      Bad = 1;
    }
    // Every CPU device but those the calling thread ran is bound.
    if (!Unbound && P >= 2 && Each < P && Bound < D - Callers - Lates) {
      printf("FAIL: run %d, %d of %d devices bound\n", Run, Bound, D);
      Bad = 1;
    }
    if (Bad)
      return 1;
  }
  // A loop whose devices take chunks from one queue: when the devices
  // outnumber the CPUs (a thread each), the calling thread is bound to its
  // device's CPU while it runs that device's chunks, as a proxy is, and
  // gets the process's CPUs back after the loop.
  enum { PerDevice = 32, MaxChunks = PerDevice * MaxDevices };
  int m = PerDevice * N, ChunkCount[MaxChunks], ChunkFirst[MaxChunks];
  for (int Run = 0; Run < 3; ++Run) {
#pragma omp target device(*) map(from: ChunkCount[0:m] dist_data(ALIGN(loop)), \
    ChunkFirst[0:m] dist_data(ALIGN(loop)))
#pragma omp parallel for dist_iteration(SCHED_DYNAMIC(1))
    loop:
    for (int i = 0; i < m; ++i) {
      double Until = seconds() + 20e-6;
      ChunkCount[i] = affinity(&ChunkFirst[i], NULL);
      while (seconds() < Until)
        ;
    }
    int Mine, After = affinity(&Mine, NULL);
    if (After != P) {
      printf("FAIL: dynamic run %d, the calling thread may run on %d CPUs "
             "after the loop (process: %d)\n", Run, After, P);
      return 1;
    }
    int CpuDevices = 0;
    for (int i = 0; i < N; ++i)
      CpuDevices += Count[i] >= 0;
    for (int i = 0; i < m; ++i)
      if (ChunkCount[i] >= 0 && !Unbound && P >= 2 && CpuDevices >= P &&
          CpuDevices == N && ChunkCount[i] != 1) {
        printf("FAIL: dynamic run %d, iteration %d ran on a thread that may "
               "run on %d CPUs from %d (process: %d CPUs)\n", Run, i,
               ChunkCount[i], ChunkFirst[i], P);
        return 1;
      }
  }
  printf("binding: PASS\n");
  return 0;
}
