// Transparency: user-defined reductions ('declare reduction' with an
// initializer clause, on a struct and on a scalar type, used on host
// parallel loops and on target constructs) compile to the same IR with and
// without homp, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

struct range {
  int lo, hi;
};

static void merge(struct range *out, const struct range *in) {
  if (in->lo < out->lo)
    out->lo = in->lo;
  if (in->hi > out->hi)
    out->hi = in->hi;
}

#pragma omp declare reduction(span : struct range : merge(&omp_out, &omp_in)) \
    initializer(omp_priv = (struct range){1000000, -1000000})

// A reduction on int with a different name: sum of squares is accumulated
// by the loop, the combiner adds partial results.
#pragma omp declare reduction(plus : int : omp_out += omp_in) initializer(omp_priv = 0)

// A combiner that calls a declare-target function on the device.
#pragma omp declare target
static int bitmix(int a, int b) { return a ^ b; }
#pragma omp end declare target
#pragma omp declare reduction(mix : int : omp_out = bitmix(omp_out, omp_in)) \
    initializer(omp_priv = 0)

#define N 30

int main(void) {
  int v[N];
  // v[i] = (11 * i) % 30 - 7: a permutation of -7..22 (11 is coprime to 30).
  for (int i = 0; i < N; ++i)
    v[i] = (11 * i) % N - 7;

  struct range r = {1000000, -1000000};
#pragma omp parallel for reduction(span : r)
  for (int i = 0; i < N; ++i) {
    struct range one = {v[i], v[i]};
    merge(&r, &one);
  }
  // CHECK: host span=[-7,22]
  printf("host span=[%d,%d]\n", r.lo, r.hi);

  struct range t = {1000000, -1000000};
#pragma omp target teams distribute parallel for map(to : v) reduction(span : t)
  for (int i = 0; i < N; ++i) {
    struct range one = {v[i], v[i]};
    merge(&t, &one);
  }
  // CHECK: target span=[-7,22]
  printf("target span=[%d,%d]\n", t.lo, t.hi);

  // Sum of i^2 for i < 30 = 29 * 30 * 59 / 6 = 8555.
  int sq = 0;
#pragma omp target parallel for reduction(plus : sq)
  for (int i = 0; i < N; ++i)
    sq += i * i;
  // CHECK: plus=8555
  printf("plus=%d\n", sq);

  // XOR of 0..29 = 1 (XOR of 0..n is 1 when n % 4 == 1).
  int x = 0;
#pragma omp target teams distribute parallel for reduction(mix : x)
  for (int i = 0; i < N; ++i)
    x = bitmix(x, i);
  // CHECK: mix=1
  printf("mix=%d\n", x);
  return 0;
}
