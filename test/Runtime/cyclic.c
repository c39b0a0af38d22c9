// CYCLIC, CYCLIC(n) and BLOCK(n) arrays with CYCLIC loops: each device owns
// every Parts-th block of n elements, runs the iterations whose element it
// owns (in strided launches: one per position in a block), and gets and
// sends back only its own elements. Loops over part of the array and
// downward loops too; on 1 to 4 devices and with the host.
// RUN: %hompcc -O2 -DDEVS="0:1" %s -o %t.1 && %t.1 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 -DDEVS="0:3" %s -o %t.3 && %t.3 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 -DDEVS="*" %s -o %t.4 && %t.4 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 -DDEVS="*, host" %s -o %t.h && %t.h 2>&1 | FileCheck %s --implicit-check-not=homp:
// RUN: %hompcc -O2 -DDEVS="*" -DINFO %s -o %t.info
// RUN: env HOMP_INFO=1 %t.info 2>&1 | FileCheck %s --check-prefixes=INFO,INFO-%ndev --allow-unused-prefixes -DDEVICES="%devices"
// CHECK: PASS

#include <stdio.h>

static int failures;

static void expect(const char *what, int n, const long *got, const long *want) {
  for (int i = 0; i < n; ++i)
    if (got[i] != want[i]) {
      printf("FAIL %s n=%d: [%d] = %ld, expected %ld\n", what, n, i, got[i],
             want[i]);
      ++failures;
      return;
    }
}

static void run(int n, int b) {
  long x[n + 1], y[n + 1], ref[n + 1];
  for (int i = 0; i < n; ++i)
    x[i] = y[i] = ref[i] = i * 3 - 7;

  // CYCLIC (blocks of 1) on data and loop.
#pragma omp target teams distribute parallel for device(DEVS) \
    map(tofrom: x[0:n] dist_data(CYCLIC)) dist_iteration(CYCLIC)
  for (int i = 0; i < n; ++i)
    x[i] = 2 * x[i] + i;
  for (int i = 0; i < n; ++i)
    ref[i] = 2 * ref[i] + i;
  expect("CYCLIC", n, x, ref);

  // CYCLIC(b) data, a CYCLIC(b) loop over part of the range, downward.
#pragma omp target teams distribute parallel for device(DEVS) \
    map(tofrom: x[0:n] dist_data(CYCLIC(b))) dist_schedule(target: CYCLIC(b))
  for (int i = n - 2; i >= 1; --i)
    x[i] -= 5;
  for (int i = n - 2; i >= 1; --i)
    ref[i] -= 5;
  expect("CYCLIC(b) down", n, x, ref);

  // BLOCK(b) (blocks of b dealt round-robin), another array aligned to it.
#pragma omp target teams distribute parallel for device(DEVS) \
    map(to: x[0:n] partition([BLOCK(b)])) \
    map(from: y[0:n] partition([ALIGN(x)])) dist_schedule(target: [ALIGN(x)])
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * 10;
  for (int i = 0; i < n; ++i)
    ref[i] = ref[i] * 10;
  expect("BLOCK(b) aligned", n, y, ref);
}

int main(void) {
#ifdef INFO
  run(16, 3);
#else
  static const int Sizes[] = {0, 1, 2, 5, 9, 16, 101, 1000};
  static const int Blocks[] = {1, 2, 3, 7};
  for (unsigned S = 0; S < sizeof Sizes / sizeof Sizes[0]; ++S)
    for (unsigned B = 0; B < sizeof Blocks / sizeof Blocks[0]; ++B)
      run(Sizes[S], Blocks[B]);
#endif
  fflush(stderr);
  puts(failures ? "FAIL" : "PASS");
  return failures != 0;
}

// CYCLIC on 4 devices: one launch of a strided loop each; 4 elements in
// and out each (32 bytes, plus the 120-byte chunk in).
// INFO: homp: region {{.*}}cyclic.c:34:1: 16 iterations on [[DEVICES]]
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    [0, 13)/4                             1          152           32
// INFO-4-NEXT: homp:   1        CPU    [1, 14)/4                             1          152           32
// INFO-4-NEXT: homp:   2        CPU    [2, 15)/4                             1          152           32
// INFO-4-NEXT: homp:   3        CPU    [3, 16)/4                             1          152           32
// CYCLIC(3) over 1..14, downward: device 0 owns 0-2 and 12-14 and runs
// 1-2 and 12-14 (two launches; its 6 elements in and out, a chunk per
// launch), device 1 owns 3-5 and 15 and runs 3-5.
// INFO: homp: region {{.*}}cyclic.c:43:1: 14 iterations on [[DEVICES]]
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    [1, 15)/2                             2          288           48
// INFO-4-NEXT: homp:   1        CPU    [3, 6)                                1          152           32
// INFO: PASS
