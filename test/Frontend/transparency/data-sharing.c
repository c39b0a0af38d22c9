// Transparency: data-sharing and mapping clauses on target constructs
// ('defaultmap' in several forms, 'firstprivate', 'private', 'is_device_ptr'
// with omp_target_alloc, 'use_device_ptr', 'use_device_addr',
// 'has_device_addr', 'map' with 'always' and struct members) compile to
// the same IR with and without homp, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <omp.h>
#include <stdio.h>

#define N 32

struct point {
  int x, y;
};

int main(void) {
  int dev = omp_get_default_device();

  // firstprivate: the device works on a copy initialised from the host;
  // the host value is unchanged. k = 4 + 5 = 9 on the device.
  int k = 4, out = 0;
#pragma omp target firstprivate(k) map(from : out)
  {
    k += 5;
    out = k;
  }
  // CHECK: firstprivate out=9 host=4
  printf("firstprivate out=%d host=%d\n", out, k);

  // private: uninitialised on the device, set before use.
  int p = 100;
#pragma omp target private(p) map(from : out)
  {
    p = 3;
    out = p * p;
  }
  // CHECK: private out=9 host=100
  printf("private out=%d host=%d\n", out, p);

  // defaultmap(tofrom: scalar) turns the implicit firstprivate of a scalar
  // into a tofrom mapping, so the device's write comes back: 7 * 6 = 42.
  int sc = 7;
#pragma omp target defaultmap(tofrom : scalar)
  sc *= 6;
  // CHECK: defaultmap_scalar=42
  printf("defaultmap_scalar=%d\n", sc);

  // defaultmap(firstprivate: scalar) keeps the host copy: 7.
  int sc2 = 7;
#pragma omp target defaultmap(firstprivate : scalar) map(from : out)
  {
    sc2 *= 6;
    out = sc2;
  }
  // CHECK: defaultmap_firstprivate out=42 host=7
  printf("defaultmap_firstprivate out=%d host=%d\n", out, sc2);

  // defaultmap(tofrom: aggregate) with a struct: (1 + 10, 2 + 20).
  struct point pt = {1, 2};
#pragma omp target defaultmap(tofrom : aggregate)
  {
    pt.x += 10;
    pt.y += 20;
  }
  // CHECK: defaultmap_aggregate=11,22
  printf("defaultmap_aggregate=%d,%d\n", pt.x, pt.y);

  // defaultmap(none) with every variable listed: 42 + 1 = 43.
#pragma omp target defaultmap(none) map(tofrom : sc)
  sc += 1;
  // CHECK: defaultmap_none=43
  printf("defaultmap_none=%d\n", sc);

  // Struct members mapped individually: (11 * 2, 22 * 3) = (22, 66).
#pragma omp target map(tofrom : pt.x, pt.y)
  {
    pt.x *= 2;
    pt.y *= 3;
  }
  // CHECK: members=22,66
  printf("members=%d,%d\n", pt.x, pt.y);

  // is_device_ptr with memory from omp_target_alloc: the device fills
  // d[i] = i + 1, omp_target_memcpy brings it back: 32 * 33 / 2 = 528.
  int *d = (int *)omp_target_alloc(N * sizeof(int), dev);
#pragma omp target is_device_ptr(d)
  for (int i = 0; i < N; ++i)
    d[i] = i + 1;
  int h[N];
  omp_target_memcpy(h, d, N * sizeof(int), 0, 0, omp_get_initial_device(),
                    dev);
  long s = 0;
  for (int i = 0; i < N; ++i)
    s += h[i];
  // CHECK: is_device_ptr=528
  printf("is_device_ptr=%ld\n", s);

  // use_device_ptr: the device address of a mapped array, passed to a
  // region through is_device_ptr: h[i] = 2 * (i + 1): 1056.
#pragma omp target data map(tofrom : h[0:N])
  {
    int *hp = h;
#pragma omp target data use_device_ptr(hp)
    {
#pragma omp target is_device_ptr(hp)
      for (int i = 0; i < N; ++i)
        hp[i] *= 2;
    }
  }
  s = 0;
  for (int i = 0; i < N; ++i)
    s += h[i];
  // CHECK: use_device_ptr=1056
  printf("use_device_ptr=%ld\n", s);

  // use_device_addr and has_device_addr: h[i] += 1: 1056 + 32 = 1088.
#pragma omp target data map(tofrom : h) use_device_addr(h)
  {
#pragma omp target has_device_addr(h)
    for (int i = 0; i < N; ++i)
      h[i] += 1;
  }
  s = 0;
  for (int i = 0; i < N; ++i)
    s += h[i];
  // CHECK: use_device_addr=1088
  printf("use_device_addr=%ld\n", s);
  omp_target_free(d, dev);

  // map(always, to:) refreshes a present variable: the device sees 50.
  int v = 1;
#pragma omp target data map(to : v)
  {
    v = 50;
#pragma omp target map(always, to : v) map(from : out)
    out = v;
  }
  // CHECK: always=50
  printf("always=%d\n", out);
  return 0;
}
