// Reductions on a distributed loop are combined across the devices (and the
// host): every built-in operator, on integer, unsigned, floating-point and
// boolean variables, with the variable's value before the region taken
// into account. Integer results are exact; the floating-point sums use
// integer-valued terms, so they are exact too.
// RUN: %hompcc -O2 %s -o %t && %t 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DDEVS="0:3, host" %s -o %t.host && %t.host 2>&1 | FileCheck %s --implicit-check-not=warning
// Inside a data region that keeps v on the devices:
// RUN: %hompcc -O2 -DIN_DATA_REGION %s -o %t.data && %t.data 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DIN_DATA_REGION -DDEVS="1:3, host" %s -o %t.datahost && %t.datahost 2>&1 | FileCheck %s --implicit-check-not=warning
// CHECK-NOT: FAIL
// CHECK: PASS

#include <stdbool.h>
#include <stdio.h>

#ifndef DEVS
#define DEVS *
#endif

static int failures;
#define EXPECT(name, got, want)                                                \
  do {                                                                         \
    if ((got) != (want)) {                                                     \
      printf("FAIL %s: %.17g, expected %.17g\n", name, (double)(got),          \
             (double)(want));                                                  \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

// The loop runs over v[0:n] on every device; OP and its start are the
// reduction's.
#define PRAGMA(x) _Pragma(#x)
#define REDUCE(T, OP, START, EXPR)                                             \
  ({                                                                           \
    T r = START;                                                               \
    PRAGMA(omp target teams distribute parallel for device(DEVS)               \
               map(to: v[0:n] dist_data(BLOCK)) reduction(OP: r))              \
    for (int i = 0; i < n; ++i)                                                \
      r = EXPR;                                                                \
    r;                                                                         \
  })

int main(void) {
  enum { n = 1000 };
  int v[n];
  for (int i = 0; i < n; ++i)
    v[i] = (i * 37) % 101 - 50; // -50 .. 50

  long sum = 3, prod_ref = 1, max = -1000, min = 1000;
  unsigned long band = ~0ul, bor = 0, bxor = 0;
  bool all = true, any = false;
  double dsum = 0.5;
  float fmax = -1e30f;
  for (int i = 0; i < n; ++i) {
    sum += v[i];
    if (i % 97 == 0)
      prod_ref *= -2;
    max = v[i] > max ? v[i] : max;
    min = v[i] < min ? v[i] : min;
    band &= ~(1ul << (i % 60)) | (unsigned long)(i != 59);
    bor |= 1ul << (i % 50);
    bxor ^= (unsigned long)(i * 2654435761u);
    all = all && v[i] > -51;
    any = any || v[i] == 50;
    dsum += v[i];
    fmax = (float)v[i] > fmax ? (float)v[i] : fmax;
  }

#ifdef IN_DATA_REGION
#pragma omp target data device(DEVS) map(to: v[0:n] dist_data(BLOCK))
#endif
  {
  EXPECT("+ long", REDUCE(long, +, 3, r + v[i]), sum);
  EXPECT("- long", REDUCE(long, -, 3, r + v[i]), sum);
  EXPECT("* long", REDUCE(long, *, 1, r * (i % 97 == 0 ? -2 : 1)), prod_ref);
  EXPECT("max long", REDUCE(long, max, -1000, v[i] > r ? v[i] : r), max);
  EXPECT("min int", REDUCE(int, min, 1000, v[i] < r ? v[i] : r), min);
  EXPECT("& unsigned long",
         REDUCE(unsigned long, &, ~0ul,
                r & (~(1ul << (i % 60)) | (unsigned long)(i != 59))),
         band);
  EXPECT("| unsigned long", REDUCE(unsigned long, |, 0, r | (1ul << (i % 50))),
         bor);
  EXPECT("^ unsigned long",
         REDUCE(unsigned long, ^, 0, r ^ (unsigned long)(i * 2654435761u)),
         bxor);
  EXPECT("&& bool", REDUCE(bool, &&, true, r && v[i] > -51), all);
  EXPECT("|| bool", REDUCE(bool, ||, false, r || v[i] == 50), any);
  EXPECT("&& false start", REDUCE(bool, &&, false, r && true), false);
  EXPECT("+ double", REDUCE(double, +, 0.5, r + v[i]), dsum);
  EXPECT("max float", REDUCE(float, max, -1e30f, v[i] > r ? v[i] : r), fmax);
  EXPECT("+ short", REDUCE(short, +, 0, r + (short)(i % 3)), 999);
  EXPECT("+ unsigned char", REDUCE(unsigned char, +, 250, r + (i < 10)), 4);

  // A reduction inside the region of a 'target' with a nested loop
  // directive: the variable is mapped back for the user.
  long total = 10;
#pragma omp target device(DEVS) map(to: v[0:n] dist_data(BLOCK))
#pragma omp parallel for reduction(+: total)
  for (int i = 0; i < n; ++i)
    total += v[i];
  EXPECT("+ nested", total, sum + 7);

  // The variable mapped tofrom as well, as OpenMP 4.5 codes write it: it
  // is the reduction's (it once took the region to the host, or stopped it
  // inside the data region).
  long mapped = 10;
#pragma omp target device(DEVS) map(to: v[0:n] dist_data(BLOCK)) map(tofrom: mapped)
#pragma omp parallel for reduction(+: mapped) dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    mapped += v[i];
  EXPECT("+ mapped tofrom", mapped, sum + 7);
  double dmapped = 0.5;
#pragma omp target teams distribute parallel for device(DEVS) map(to: v[0:n] dist_data(BLOCK)) map(dmapped) reduction(+: dmapped)
  for (int i = 0; i < n; ++i)
    dmapped += v[i];
  EXPECT("+ mapped, combined", dmapped, dsum);

  }
  puts(failures ? "FAIL" : "PASS");
  return failures != 0;
}
