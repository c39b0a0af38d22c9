// Every canonical loop shape homp distributes: <, <=, >, >=, != tests, the
// variable on either side, ++, --, +=, -=, 'i = i + s', steps above one,
// int, long and unsigned variables, declared in the loop or before it. Each
// loop writes a BLOCK-distributed array at its index; the result must equal
// the same loop run sequentially.
// RUN: %hompcc -O2 %s -o %t && %t 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O2 -DDEVS="*, host" %s -o %t.host && %t.host 2>&1 | FileCheck %s --implicit-check-not=warning
// CHECK-NOT: FAIL
// CHECK: PASS

#include <stdio.h>
#include <string.h>

#ifndef DEVS
#define DEVS *
#endif
#define N 103

static int failures;

#define CHECK(name)                                                            \
  do {                                                                         \
    for (int k = 0; k < N; ++k)                                                \
      if (y[k] != ref[k]) {                                                    \
        printf("FAIL %s: y[%d] = %ld, expected %ld\n", name, k, y[k], ref[k]); \
        ++failures;                                                            \
        break;                                                                 \
      }                                                                        \
    memset(y, 0, sizeof y);                                                    \
    memset(ref, 0, sizeof ref);                                                \
  } while (0)

int main(void) {
  long y[N] = {0}, ref[N] = {0};
  int n = N, lo = 3;
  long step = 4;
  unsigned un = N;

#pragma omp target device(DEVS) map(tofrom: y dist_data(BLOCK))
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    y[i] = 2 * i + 1;
  for (int i = 0; i < n; ++i)
    ref[i] = 2 * i + 1;
  CHECK("i < n, ++i");

#pragma omp target device(DEVS) map(tofrom: y[0:N] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = lo; i <= n - 1; i++)
    y[i] = i * i;
  for (int i = lo; i <= n - 1; i++)
    ref[i] = i * i;
  CHECK("i <= n - 1, i++");

#pragma omp target device(DEVS) map(tofrom: y[0:N] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = n - 1; i >= 0; --i)
    y[i] = 7 - i;
  for (int i = n - 1; i >= 0; --i)
    ref[i] = 7 - i;
  CHECK("i >= 0, --i");

#pragma omp target device(DEVS) map(tofrom: y[0:N] dist_data(BLOCK))
#pragma omp parallel for
  for (long i = n - 2; i > lo; i -= 3)
    y[i] = i;
  for (long i = n - 2; i > lo; i -= 3)
    ref[i] = i;
  CHECK("long i > lo, i -= 3");

  int i;
#pragma omp target device(DEVS) map(tofrom: y[0:N] dist_data(BLOCK))
#pragma omp parallel for
  for (i = 1; n > i; i = i + step)
    y[i] = 100 + i;
  for (i = 1; n > i; i = i + step)
    ref[i] = 100 + i;
  CHECK("n > i, i = i + step");

#pragma omp target device(DEVS) map(tofrom: y[0:N] dist_data(BLOCK))
#pragma omp parallel for
  for (int j = 2; j != n; j++)
    y[j] = -j;
  for (int j = 2; j != n; j++)
    ref[j] = -j;
  CHECK("j != n");

#pragma omp target device(DEVS) map(tofrom: y[0:N] dist_data(BLOCK))
#pragma omp parallel for
  for (unsigned u = 0; u < un; u += 2)
    y[u] = u / 2;
  for (unsigned u = 0; u < un; u += 2)
    ref[u] = u / 2;
  CHECK("unsigned u < un, u += 2");

#pragma omp target device(DEVS) map(tofrom: y[0:N] dist_data(BLOCK))
#pragma omp parallel for
  for (unsigned u = un - 1; u > 0; u--)
    y[u] = 3 * u;
  for (unsigned u = un - 1; u > 0; u--)
    ref[u] = 3 * u;
  CHECK("unsigned u > 0, u--");

#pragma omp target device(DEVS) map(tofrom: y[0:N] dist_data(BLOCK))
#pragma omp parallel for
  for (int i2 = 0; i2 < n; i2 = 5 + i2)
    y[i2] = 9;
  for (int i2 = 0; i2 < n; i2 = 5 + i2)
    ref[i2] = 9;
  CHECK("i2 = 5 + i2");

  // Zero-trip loops leave the array as it was.
#pragma omp target device(DEVS) map(tofrom: y[0:N] dist_data(BLOCK))
#pragma omp parallel for
  for (int i = n; i < lo; ++i)
    y[i] = 1;
  CHECK("zero trips");

  puts(failures ? "FAIL" : "PASS");
  return failures != 0;
}
