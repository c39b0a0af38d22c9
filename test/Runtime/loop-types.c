// Loop variables of every integer width take their chunk in their own type:
// char, short, int and unsigned (from the chunk's 32-bit copies), long,
// long long and size_t (from its 64-bit values); up and down, in blocks and
// cyclic, near the limits of their types and, for unsigned, above INT_MAX.
// Each loop sums its variable's values, a function of them and the count;
// the sums must equal those of the same loop run sequentially.
// RUN: %hompcc -O2 %s -o %t && %t 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: %hompcc -O0 -DDEVS="*, host" %s -o %t.host && %t.host 2>&1 | FileCheck %s --implicit-check-not=warning
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t 2>&1 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS

#include <stddef.h>
#include <stdio.h>

#ifndef DEVS
#define DEVS *
#endif

typedef unsigned long long u64;

static int failures;

// The sums of the loop run sequentially, then the check.
#define EXPECT(name, header, value)                                            \
  do {                                                                         \
    u64 s = 0, q = 0, c = 0;                                                   \
    header ADD(s, q, c, value);                                                \
    if (s != S || q != Q || c != C) {                                          \
      printf("FAIL %s: %llu %llu %llu, expected %llu %llu %llu\n", name, S, Q, \
             C, s, q, c);                                                      \
      ++failures;                                                              \
    }                                                                          \
    S = Q = C = 0;                                                             \
  } while (0)
// Adds V to the sums S, Q and C.
#define ADD(S, Q, C, V)                                                        \
  (S += (u64)(V), Q += (u64)(V) % 1000 * ((u64)(V) % 997), ++C)

int main(void) {
  u64 S = 0, Q = 0, C = 0;
#pragma omp target device(DEVS)
#pragma omp parallel for reduction(+: S, Q, C) dist_iteration(BLOCK)
  for (char v = 'A'; v <= 'z'; v++)
    ADD(S, Q, C, v);
  EXPECT("char", for (char v = 'A'; v <= 'z'; v++), v);

#pragma omp target device(DEVS)
#pragma omp parallel for reduction(+: S, Q, C) dist_iteration(BLOCK)
  for (signed char v = 120; v > -120; v -= 3)
    ADD(S, Q, C, v);
  EXPECT("signed char down", for (signed char v = 120; v > -120; v -= 3), v);

#pragma omp target device(DEVS)
#pragma omp parallel for reduction(+: S, Q, C) dist_iteration(CYCLIC(2))
  for (unsigned char v = 250; v >= 5; v -= 5)
    ADD(S, Q, C, v);
  EXPECT("unsigned char cyclic down",
         for (unsigned char v = 250; v >= 5; v -= 5), v);

#pragma omp target device(DEVS)
#pragma omp parallel for reduction(+: S, Q, C) dist_iteration(CYCLIC(4))
  for (short v = -32760; v < 32000; v += 255)
    ADD(S, Q, C, v);
  EXPECT("short cyclic", for (short v = -32760; v < 32000; v += 255), v);

#pragma omp target device(DEVS)
#pragma omp parallel for reduction(+: S, Q, C) dist_iteration(BLOCK)
  for (unsigned short v = 65530; v != 40000; v--)
    ADD(S, Q, C, v);
  EXPECT("unsigned short !=", for (unsigned short v = 65530; v != 40000; v--),
         v);

#pragma omp target device(DEVS)
#pragma omp parallel for reduction(+: S, Q, C) dist_iteration(BLOCK)
  for (int v = 2147483647 - 300; v < 2147483647; v += 3)
    ADD(S, Q, C, v);
  EXPECT("int near INT_MAX",
         for (int v = 2147483647 - 300; v < 2147483647; v += 3), v);

#pragma omp target device(DEVS)
#pragma omp parallel for reduction(+: S, Q, C) dist_iteration(CYCLIC(3))
  for (int v = -2147483647 - 1 + 200; v > -2147483647 - 1; v -= 2)
    ADD(S, Q, C, v);
  EXPECT("int near INT_MIN cyclic down",
         for (int v = -2147483647 - 1 + 200; v > -2147483647 - 1; v -= 2), v);

#pragma omp target device(DEVS)
#pragma omp parallel for reduction(+: S, Q, C) dist_iteration(CYCLIC(3))
  for (unsigned v = 4294967290u; v > 4294967000u; v -= 7)
    ADD(S, Q, C, v);
  EXPECT("unsigned above INT_MAX cyclic down",
         for (unsigned v = 4294967290u; v > 4294967000u; v -= 7), v);

  unsigned w;
#pragma omp target device(DEVS)
#pragma omp parallel for reduction(+: S, Q, C) dist_iteration(BLOCK)
  for (w = 2147483500u; w <= 2147483800u; w += 3)
    ADD(S, Q, C, w);
  EXPECT("unsigned across INT_MAX, declared before",
         for (unsigned v = 2147483500u; v <= 2147483800u; v += 3), v);

#pragma omp target device(DEVS)
#pragma omp parallel for reduction(+: S, Q, C) dist_iteration(BLOCK)
  for (long v = 4000000000L; v < 4000000300L; v += 7)
    ADD(S, Q, C, v);
  EXPECT("long above 32 bits",
         for (long v = 4000000000L; v < 4000000300L; v += 7), v);

#pragma omp target device(DEVS)
#pragma omp parallel for reduction(+: S, Q, C) dist_iteration(CYCLIC(2))
  for (long long v = 9223372036854775000LL; v > 9223372036854774000LL; v -= 9)
    ADD(S, Q, C, v);
  EXPECT("long long near LLONG_MAX cyclic down",
         for (long long v = 9223372036854775000LL; v > 9223372036854774000LL;
              v -= 9), v);

#pragma omp target device(DEVS)
#pragma omp parallel for reduction(+: S, Q, C) dist_iteration(BLOCK)
  for (size_t v = (size_t)-1 - 10; v > (size_t)-1 - 300; v--)
    ADD(S, Q, C, v);
  EXPECT("size_t near SIZE_MAX down",
         for (size_t v = (size_t)-1 - 10; v > (size_t)-1 - 300; v--), v);

  unsigned long x;
#pragma omp target device(DEVS)
#pragma omp parallel for reduction(+: S, Q, C) dist_iteration(CYCLIC(5))
  for (x = 10; x < 1000; x += 10)
    ADD(S, Q, C, x);
  EXPECT("unsigned long cyclic, declared before",
         for (unsigned long v = 10; v < 1000; v += 10), v);

  // A collapsed nest of three widths, split on its unsigned loop.
#pragma omp target device(DEVS)
#pragma omp parallel for collapse(3) reduction(+: S, Q, C) \
    dist_iteration(*, BLOCK)
  for (short a = 0; a < 5; a++)
    for (unsigned b = 4294967000u; b < 4294967030u; b++)
      for (long d = -3; d <= 3; d++)
        ADD(S, Q, C, a * 1000003ULL + b * 1009ULL + (u64)d);
  EXPECT("collapse(3) short, unsigned, long",
         for (short a = 0; a < 5; a++)
         for (unsigned b = 4294967000u; b < 4294967030u; b++)
         for (long d = -3; d <= 3; d++),
         a * 1000003ULL + b * 1009ULL + (u64)d);

  puts(failures ? "FAIL" : "PASS");
  return failures != 0;
}
