// Transparency: 'declare mapper' (a default mapper and a named one, used
// implicitly, explicitly with 'mapper(...)', and on 'target data')
// compiles to the same IR with and without homp, and runs the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics
//
// Each struct is mapped by a single construct: with clang 19's runtime a
// struct mapped through a mapper that names the struct itself stays present
// after the construct, so a second mapping would see stale device data.

#include <stdio.h>
#include <stdlib.h>

#define LEN 20

struct vec {
  int len;
  int *data;
};

// The default mapper maps the pointed-to data with the struct.
#pragma omp declare mapper(struct vec v) map(v, v.data[0:v.len])
// A named mapper that only copies the data to the device.
#pragma omp declare mapper(input : struct vec v) map(to : v, v.data[0:v.len])

static struct vec make(void) {
  struct vec v;
  v.len = LEN;
  v.data = (int *)malloc(LEN * sizeof(int));
  for (int i = 0; i < LEN; ++i)
    v.data[i] = i;
  return v;
}

static long sum(struct vec v) {
  long s = 0;
  for (int i = 0; i < v.len; ++i)
    s += v.data[i];
  return s;
}

int main(void) {
  struct vec a = make(), b = make(), c = make(), d = make();

  // Default mapper, map(tofrom : a): data[i] = 2 i: 2 * 190 = 380.
#pragma omp target map(tofrom : a)
  for (int i = 0; i < a.len; ++i)
    a.data[i] *= 2;
  // CHECK: default=380
  printf("default=%ld\n", sum(a));

  // Named mapper for input, the result through a scalar: sum of i + 1 =
  // 190 + 20 = 210 computed on the device; the host data is unchanged (190).
  long s = 0;
#pragma omp target map(mapper(input), to : b) map(tofrom : s)
  for (int i = 0; i < b.len; ++i)
    s += b.data[i] + 1;
  // CHECK: named=210 host=190
  printf("named=%ld host=%ld\n", s, sum(b));

  // The default mapper on a target data region; the nested region reaches
  // the data mapped by the mapper through a plain pointer (present, so not
  // copied): data[i] = i + 3: 190 + 60 = 250, copied back when the data
  // region ends.
  int *cd = c.data;
#pragma omp target data map(tofrom : c)
  {
#pragma omp target map(tofrom : cd[0:LEN])
    for (int i = 0; i < LEN; ++i)
      cd[i] += 3;
  }
  // CHECK: data_region=250
  printf("data_region=%ld\n", sum(c));

  // Explicitly 'mapper(default)': data[i] = i - 1: 190 - 20 = 170.
#pragma omp target map(mapper(default), tofrom : d)
  for (int i = 0; i < d.len; ++i)
    d.data[i] -= 1;
  // CHECK: mapper_default=170
  printf("mapper_default=%ld\n", sum(d));
  free(a.data);
  free(b.data);
  free(c.data);
  free(d.data);
  return 0;
}
