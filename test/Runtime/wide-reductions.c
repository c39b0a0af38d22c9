// Reduction variables of the wide and narrow types homp combines across
// devices: __int128 and unsigned __int128 (sums past 64 bits, max, min,
// bitwise operators) and _Float16 (max, and a sum exact in half precision),
// checked against sequential code. Their devices' partial results are
// combined by libhomp like any other scalar's. The data are integers:
// converting a double to __int128 calls a library function that clang 19
// has no NVPTX version of ("error in backend: Undefined external symbol",
// without homp too), and the GPU bundle builds this test for sm_90.
// A type homp does not combine yet (_BitInt(24)) runs the region on the
// host, with a warning naming the region, the variable and the operator at
// each execution (an error under OMP_TARGET_OFFLOAD=MANDATORY), and gives
// the sequential answer. The program links: OpenMP's own code for 16-byte
// reductions calls libatomic, and _Float16's max libm's fmaxf, which hompcc
// links where needed.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=INFO -DDEVICES="%devices"
// RUN: not env OMP_TARGET_OFFLOAD=MANDATORY %t 2>&1 | FileCheck %s --check-prefix=MANDATORY
// CHECK-NOT: cannot reduce '{{(s|smax|smin|sx|u|umax|uor|h|hs)}}'
// CHECK: homp: warning: region {{.*}}wide-reductions.c:[[# @LINE + 54]]:1: cannot reduce 'b' with '+' across devices: unsupported type; running it on the host
// CHECK: int128: PASS
// CHECK: uint128: PASS
// CHECK: float16: PASS
// CHECK: bitint: PASS
// INFO: homp: region {{.*}}wide-reductions.c:[[# @LINE + 22]]:1: 1000 iterations on [[DEVICES]]
// INFO: homp: region {{.*}}wide-reductions.c:[[# @LINE + 31]]:1: 1000 iterations on [[DEVICES]]
// INFO: homp: region {{.*}}wide-reductions.c:[[# @LINE + 39]]:1: 1000 iterations on [[DEVICES]]
// MANDATORY-NOT: cannot reduce '{{(s|smax|smin|sx|u|umax|uor|h|hs)}}'
// MANDATORY: homp: error: region {{.*}}wide-reductions.c:[[# @LINE + 45]]:1: cannot reduce 'b' with '+' across devices
// MANDATORY-NOT: PASS

#include <stdio.h>

enum { N = 1000 };
static long x[N];

int main(void) {
  for (int i = 0; i < N; i++)
    x[i] = (i * 7919) % 1009 - 500;

  // Each term is past 64 bits: the sum carries into the high half. (The
  // shifts are unsigned: a negative value's left shift is undefined.)
  __int128 s = 1, smax = 0, smin = 0;
  long long sx = 0;
  smax -= (__int128)1 << 120;
  smin += (__int128)1 << 120;
#pragma omp target teams distribute parallel for device(*) map(to: x[0:N] dist_data(BLOCK)) reduction(+: s) reduction(max: smax) reduction(min: smin) reduction(^: sx)
  for (int i = 0; i < N; i++) {
    __int128 v = (__int128)((unsigned __int128)x[i] << 70) + i;
    s += v;
    smax = v > smax ? v : smax;
    smin = v < smin ? v : smin;
    sx ^= x[i] + i;
  }

  unsigned __int128 u = 0, umax = 0, uor = 0;
#pragma omp target teams distribute parallel for device(*) map(to: x[0:N] dist_data(BLOCK)) reduction(+: u) reduction(max: umax) reduction(|: uor)
  for (int i = 0; i < N; i++) {
    unsigned __int128 v = ((unsigned __int128)(x[i] + 500) << 64) | (unsigned)i;
    u += v << 50;
    umax = v > umax ? v : umax;
    uor |= (unsigned __int128)1 << (i % 128);
  }

  _Float16 h = -1, hs = 0.5f16;
#pragma omp target teams distribute parallel for device(*) map(to: x[0:N] dist_data(BLOCK)) reduction(max: h) reduction(+: hs)
  for (int i = 0; i < N; i++) {
    _Float16 v = (_Float16)(x[i] / 4) * 0.25f16;
    h = v > h ? v : h;
    hs += (_Float16)(i % 4) * 0.25f16; // every partial sum exact
  }

  _BitInt(24) b = 3;
#pragma omp target teams distribute parallel for device(*) map(to: x[0:N] dist_data(BLOCK)) reduction(+: b)
  for (int i = 0; i < N; i++)
    b += (_BitInt(24))x[i];

  // Sequential references.
  __int128 rs = 1, rmax = -((__int128)1 << 120), rmin = (__int128)1 << 120;
  long long rx = 0;
  unsigned __int128 ru = 0, rumax = 0, ruor = 0;
  _Float16 rh = -1, rhs = 0.5f16;
  _BitInt(24) rb = 3;
  for (int i = 0; i < N; i++) {
    __int128 v = (__int128)((unsigned __int128)x[i] << 70) + i;
    rs += v;
    rmax = v > rmax ? v : rmax;
    rmin = v < rmin ? v : rmin;
    rx ^= x[i] + i;
    unsigned __int128 w = ((unsigned __int128)(x[i] + 500) << 64) | (unsigned)i;
    ru += w << 50;
    rumax = w > rumax ? w : rumax;
    ruor |= (unsigned __int128)1 << (i % 128);
    _Float16 f = (_Float16)(x[i] / 4) * 0.25f16;
    rh = f > rh ? f : rh;
    rhs += (_Float16)(i % 4) * 0.25f16;
    rb += (_BitInt(24))x[i];
  }
  int wide = (s >> 64) != 0 && (s >> 64) != -1; // past 64 bits indeed
  printf("int128: %s\n", wide && s == rs && smax == rmax && smin == rmin && sx == rx
                             ? "PASS" : "FAIL");
  printf("uint128: %s\n", (u >> 64) != 0 && u == ru && umax == rumax && uor == ruor
                              ? "PASS" : "FAIL");
  printf("float16: %s\n", h == rh && hs == rhs && (float)hs == 375.5f ? "PASS" : "FAIL");
  printf("bitint: %s\n", b == rb ? "PASS" : "FAIL");
  return 0;
}
