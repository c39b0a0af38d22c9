// Memorizing dynamic (SPEC.md section 3, the hybrid OpenMP+HIP runtime's
// scheduler): a labelled loop with a dynamic or profile kind that a data
// region's arrays are aligned to hands its chunks out as the devices become
// free at its first execution, and each chunk's elements go with it, device
// to device; later executions find them where they ran. Zones of uneven
// cost, 6 steps, each reading its neighbours' edges through a 'halo(*)'
// array exchanged after the step (NPB-MZ's shape), against sequential code;
// then a second kernel aligned to the label, a 'target update' and the
// region's end read the arrays by their new owners.
//
// RUN: %hompcc -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env HOMP_DEVICES=0,1 %t | FileCheck %s
// RUN: env HOMP_EMULATE=0:4 %t | FileCheck %s
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env HOMP_MACHINE=%S/Inputs/machine-memsize-20k.ini %t | FileCheck %s
// RUN: env HOMP_MACHINE=%S/Inputs/machine-memsize-20k.ini HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: env HOMP_MACHINE=%S/Inputs/machine-fast-host.ini HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,KNOWN
// RUN: env HOMP_SCHEDULE=BLOCK HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,KNOWN
// CHECK: dynamic: PASS
// CHECK: guided: PASS
// CHECK: profile: PASS
// CHECK: with the host: PASS
// CHECK: finite halo: PASS
// CHECK: auto: PASS
// CHECK: auto, finite halo: PASS
// CHECK: other array: PASS
// CHECK: own split: PASS
// CHECK: fewer chunks than devices: PASS
//
// Where device 0 cannot hold u (39 kB) whole, the loop keeps its first split.
// SMALL: the SCHED_DYNAMIC loop 'zones' keeps the split its data region gave it (not memorizing dynamic: device 0 cannot hold the arrays that would follow its chunks whole)
//
// AUTO memorizes where it would sample: no machine file gives the devices'
// speeds, no HOMP_SCHEDULE replaces it, and the arrays can follow (not with
// a finite halo along the loop).
// KNOWN-NOT: AUTO's pick
//
// The first execution follows the chunks, the others keep them; a finite
// halo along the loop keeps the first split, as does a split array that
// does not follow the chunks.
// INFO: homp: data region {{.*}}memorizing-dynamic.c:[[#DYN:]]:3 begins: 3 distributed arrays on {{[0-9]+}} devices; loop 'zones' in 41 chunks of 5 (memorizing dynamic) in
// INFO: homp: region {{.*}}memorizing-dynamic.c:[[#DYN]]:3: 203 iterations on {{[0-9]+}} devices; schedule SCHED_DYNAMIC, chunks of 5; memorizing dynamic, as its first execution follows its chunks: 41 chunks of 5 taken as the devices became free, {{[0-9]+}} moved to another device ({{[0-9]+}} bytes); now device 0: {{(no )?}}chunks
// INFO: homp: region {{.*}}memorizing-dynamic.c:[[#DYN]]:3: 203 iterations on {{[0-9]+}} device{{s?}}; the SCHED_DYNAMIC loop 'zones' runs its chunks where they ran before (memorizing dynamic): device 0: {{(no )?}}chunks
// INFO: homp: region {{.*}}memorizing-dynamic.c:[[#DYN + 2]]:3: 203 iterations on {{[0-9]+}} devices; schedule SCHED_GUIDED, chunks of 3; memorizing dynamic, as its first execution follows its chunks: 68 chunks of 3
// INFO: homp: region {{.*}}memorizing-dynamic.c:[[#DYN + 4]]:3: 203 iterations on {{[0-9]+}} devices; schedule SCHED_PROFILE_AUTO, sample of 20; memorizing dynamic, as its first execution follows its chunks: 51 chunks of 4
// INFO: homp: region {{.*}}memorizing-dynamic.c:[[#DYN + 6]]:3: 203 iterations on {{[0-9]+}} devices; schedule SCHED_DYNAMIC, chunks of 5; memorizing dynamic, as its first execution follows its chunks: 41 chunks of 5 {{.*}} device host: {{(no )?}}chunks
// INFO: homp: region {{.*}}memorizing-dynamic.c:[[#DYN + 8]]:3: 203 iterations on {{[0-9]+}} device{{s?}}; the SCHED_GUIDED loop 'zones' keeps the split its data region gave it (not memorizing dynamic: 'fa' has a halo along the loop's dimension (only 'halo(*)' moves with the chunks))
// INFO: homp: data region {{.*}}memorizing-dynamic.c:[[#DYN + 10]]:3 begins: 3 distributed arrays on {{[0-9]+}} devices; loop 'zones' in 51 chunks of 4 (memorizing dynamic, AUTO's pick: no machine file gives the devices' speeds) in
// INFO: homp: region {{.*}}memorizing-dynamic.c:[[#DYN + 10]]:3: 203 iterations on {{[0-9]+}} devices; schedule SCHED_DYNAMIC, chunks of 4 (AUTO over resident data, memorizing); memorizing dynamic, as its first execution follows its chunks: 51 chunks of 4
// INFO: homp: region {{.*}}memorizing-dynamic.c:[[#DYN + 10]]:3: 203 iterations on {{[0-9]+}} device{{s?}}; the AUTO loop 'zones' runs its chunks where they ran before (memorizing dynamic): device 0: {{(no )?}}chunks
// INFO: homp: data region {{.*}}memorizing-dynamic.c:[[#DYN + 12]]:3 begins: 3 distributed arrays on {{[0-9]+}} devices in
// INFO-NOT: memorizing dynamic
// INFO: homp: region {{.*}}memorizing-dynamic.c:[[#DYN + 12]]:3: 203 iterations on {{[0-9]+}} device{{s?}}; the AUTO loop 'zones'
// INFO: homp: region {{.*}}memorizing-dynamic.c:[[#OTHER:]]:1: 203 iterations on {{[0-9]+}} device{{s?}}; the SCHED_DYNAMIC loop 'zones' keeps the split its data region gave it (it cannot follow them: 'w' (distributed by the data region at {{.*}}) does not follow its chunks): device 0: {{(no )?}}chunks
// INFO: homp: region {{.*}}memorizing-dynamic.c:[[#OTHER]]:1: 203 iterations on {{[0-9]+}} device{{s?}}; the SCHED_DYNAMIC loop 'zones' keeps the split its data region gave it (it cannot follow them
// INFO: homp: region {{.*}}memorizing-dynamic.c:{{[0-9]+}}:1: 202 iterations on {{[0-9]+}} device{{s?}}; the SCHED_DYNAMIC loop 'zones' keeps the split its data region gave it (it cannot follow them: 'w2' is split by the kernel itself, not with its chunks): device 0: {{(no )?}}chunks

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Z = 203, M = 24, Steps = 6 };

// Zone z costs about (z % 17 + 1) units; it reads its neighbours' edges
// (fin[z - 1], fin[z + 1]), smooths its row, writes its own edge (fout).
#define ZONE(u, fin, fout, z)                                                  \
  do {                                                                         \
    double left = (z) > 0 ? fin[(z) - 1] : 0,                                  \
           right = (z) < Z - 1 ? fin[(z) + 1] : 0;                             \
    for (int r = 0; r <= (z) % 17; ++r) {                                      \
      u[z][0] = 0.5 * u[z][0] + 0.25 * left + 0.25 * u[z][1];                  \
      for (int j = 1; j < M - 1; ++j)                                          \
        u[z][j] = 0.5 * u[z][j] + 0.25 * u[z][j - 1] + 0.25 * u[z][j + 1];     \
      u[z][M - 1] = 0.5 * u[z][M - 1] + 0.25 * u[z][M - 2] + 0.25 * right;     \
    }                                                                          \
    fout[z] = u[z][0] + u[z][M - 1];                                           \
  } while (0)

static double u0[Z][M], u[Z][M], ref[Z][M], fa[Z], fb[Z], refa[Z], refb[Z];

static void start(double (*v)[M], double *a, double *b) {
  for (int z = 0; z < Z; ++z) {
    for (int j = 0; j < M; ++j)
      v[z][j] = u0[z][j];
    a[z] = v[z][0] + v[z][M - 1];
    b[z] = 0;
  }
}

// The steps from zone First on; the second kernel only when First is 0.
static void sequential_from(int first) {
  start(ref, refa, refb);
  for (int s = 0; s < Steps; ++s) {
    double *fin = s % 2 ? refb : refa, *fout = s % 2 ? refa : refb;
    for (int z = first; z < Z; ++z)
      ZONE(ref, fin, fout, z);
  }
  if (first)
    return;
  // The second kernel: each row's sum into column 0.
  for (int z = 0; z < Z; ++z) {
    double t = 0;
    for (int j = 0; j < M; ++j)
      t += ref[z][j];
    ref[z][0] = t;
  }
}

// Each step's reduction over the zones: every zone visited once a step.
static long visits;

static int same(const char *what, int reduced) {
  long bad = visits != (reduced ? (long)Steps * Z * (Z + 1) / 2 : 0);
  for (int z = 0; z < Z; ++z)
    for (int j = 0; j < M; ++j)
      bad += u[z][j] != ref[z][j];
  const double *last = Steps % 2 ? fb : fa, *rlast = Steps % 2 ? refb : refa;
  for (int z = 0; z < Z; ++z)
    bad += last[z] != rlast[z];
  printf("%s: %s\n", what, bad ? "FAIL" : "PASS");
  return bad != 0;
}

#define DO_PRAGMA(x) _Pragma(#x)
#define PRAGMA(...) DO_PRAGMA(__VA_ARGS__)
#define ALL *
#define ALL_AND_HOST *, host

// The steps over resident data, KIND the labelled loop's schedule and
// DEVICES its devices. Halfway, 'target update from' reads u by its owners.
#define STEPS(KIND, DEVICES, HALO)                                             \
  do {                                                                         \
    start(u, fa, fb);                                                          \
    visits = 0;                                                                \
    PRAGMA(omp target data device(DEVICES) map(tofrom: u[0:Z][0:M] dist_data(ALIGN(zones), *)) map(tofrom: fa[0:Z] dist_data(ALIGN(zones)) halo(HALO)) map(tofrom: fb[0:Z] dist_data(ALIGN(zones)) halo(HALO))) \
    {                                                                          \
      for (int s = 0; s < Steps; ++s) {                                        \
        double *fin = s % 2 ? fb : fa, *fout = s % 2 ? fa : fb;                \
        PRAGMA(omp target device(DEVICES))                              \
        PRAGMA(omp parallel for dist_schedule(target: KIND)                   \
                   reduction(+: visits))                                       \
      zones:                                                                   \
        for (int z = 0; z < Z; ++z) {                                          \
          ZONE(u, fin, fout, z);                                               \
          visits += z + 1;                                                     \
        }                                                                      \
        _Pragma("omp halo_exchange(fout)")                                     \
        if (s == Steps / 2) {                                                  \
          PRAGMA(omp target update device(DEVICES) from(u[0:Z][0:M]))          \
        }                                                                      \
      }                                                                        \
      PRAGMA(omp target device(DEVICES))                                \
      _Pragma("omp parallel for dist_iteration(ALIGN(zones))")                 \
      for (int z = 0; z < Z; ++z) {                                            \
        double t = 0;                                                          \
        for (int j = 0; j < M; ++j)                                            \
          t += u[z][j];                                                        \
        u[z][0] = t;                                                           \
      }                                                                        \
    }                                                                          \
  } while (0)

int main(void) {
  for (int z = 0; z < Z; ++z)
    for (int j = 0; j < M; ++j)
      u0[z][j] = sin(0.1 * z + 0.37 * j);
  sequential_from(0);
  int bad = 0;
  STEPS(SCHED_DYNAMIC(5), ALL, *);
  bad |= same("dynamic", 1);
  STEPS(SCHED_GUIDED(3), ALL, *);
  bad |= same("guided", 1);
  STEPS(SCHED_PROFILE_AUTO, ALL, *);
  bad |= same("profile", 1);
  STEPS(SCHED_DYNAMIC(5), ALL_AND_HOST, *);
  bad |= same("with the host", 1);
  STEPS(SCHED_GUIDED(3), ALL, 1);
  bad |= same("finite halo", 1);
  STEPS(AUTO, ALL, *);
  bad |= same("auto", 1);
  STEPS(AUTO, ALL, 1);
  bad |= same("auto, finite halo", 1);

  // A split array that does not follow the chunks (its own BLOCK, read
  // through its halo): the loop keeps the first split.
  static double w[Z];
  for (int z = 0; z < Z; ++z)
    w[z] = z;
  start(u, fa, fb);
  visits = 0;
#pragma omp target data device(*) map(tofrom: u[0:Z][0:M] dist_data(ALIGN(zones), *)) \
    map(tofrom: fa[0:Z] dist_data(ALIGN(zones)) halo(*)) \
    map(tofrom: fb[0:Z] dist_data(ALIGN(zones)) halo(*)) map(to: w[0:Z] dist_data(BLOCK) halo(*))
  {
    for (int s = 0; s < Steps; ++s) {
      double *fin = s % 2 ? fb : fa, *fout = s % 2 ? fa : fb;
#pragma omp target device(*) map(to: w[0:Z])
#pragma omp parallel for dist_schedule(target: SCHED_DYNAMIC(5))
    zones:
      for (int z = 0; z < Z; ++z) {
        u[z][1] += 0 * w[z];
        ZONE(u, fin, fout, z);
      }
#pragma omp halo_exchange(fout)
    }
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(ALIGN(zones))
    for (int z = 0; z < Z; ++z) {
      double t = 0;
      for (int j = 0; j < M; ++j)
        t += u[z][j];
      u[z][0] = t;
    }
  }
  bad |= same("other array", 0);

  // An array the kernel splits itself (its own BLOCK) stays where its
  // split puts it: the loop keeps the data region's split.
  static double w2[Z];
  for (int z = 0; z < Z; ++z)
    w2[z] = 0;
  start(u, fa, fb);
  visits = 0;
#pragma omp target data device(*) map(tofrom: u[0:Z][0:M] dist_data(ALIGN(zones), *)) \
    map(tofrom: fa[0:Z] dist_data(ALIGN(zones)) halo(*)) \
    map(tofrom: fb[0:Z] dist_data(ALIGN(zones)) halo(*))
  {
    for (int s = 0; s < Steps; ++s) {
      double *fin = s % 2 ? fb : fa, *fout = s % 2 ? fa : fb;
#pragma omp target device(*) map(to: w2[0:Z] dist_data(BLOCK) halo(*))
#pragma omp parallel for dist_schedule(target: SCHED_DYNAMIC(5))
    zones:
      for (int z = 1; z < Z; ++z) {
        u[z][1] += w2[z - 1];
        ZONE(u, fin, fout, z);
      }
#pragma omp halo_exchange(fout)
    }
  }
  // (Zone 0 does not run: the reference is the same loop from 1.)
  sequential_from(1);
  bad |= same("own split", 0);

  // Fewer chunks than devices (the runtime fuzzer's case): a device that
  // owns none holds none of a 'halo(*)' array, so it takes none; and an
  // asynchronous kernel before writes what the first execution moves.
  {
    enum { N = 5 };
    static long a[N], b[N], want[N];
    for (int i = 0; i < N; ++i)
      a[i] = 3 * i - 7, b[i] = 0;
    for (int i = 0; i < N; ++i)
      want[i] = b[i];
    want[2] = a[4] + 2;
    for (int r = 0; r < 4; ++r)
      for (int i = 1; i < N - 1; ++i)
        want[i] = a[i - 1] + a[(i + N / 2) % N] + want[i] % 5;
#pragma omp target data device(0:4) map(tofrom: a[0:N] dist_data(ALIGN(few)) halo(*)) \
    map(tofrom: b[0:N] dist_data(ALIGN(few)) halo(*))
    {
#pragma omp target device(0:4)
#pragma omp parallel for
      for (int i = 2; i < N - 2; ++i)
        b[i] = a[i + 2] + 2;
      for (int r = 0; r < 4; ++r) {
#pragma omp target device(0:4)
#pragma omp parallel for dist_schedule(target: SCHED_DYNAMIC(1))
      few:
        for (int i = 1; i < N - 1; ++i)
          b[i] = a[i - 1] + a[(i + N / 2) % N] + b[i] % 5;
      }
    }
    long wrong = 0;
    for (int i = 0; i < N; ++i)
      wrong += b[i] != want[i];
    printf("fewer chunks than devices: %s\n", wrong ? "FAIL" : "PASS");
    bad |= wrong != 0;
  }
  return bad;
}
