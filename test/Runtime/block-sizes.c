// Block sizes known at run time only: a good one distributes as asked; one
// of 0 or below (a computed 'n / p' that came out 0, say) stops the program
// with an error naming the region and what it sizes, as a literal one is a
// compile-time error. It once ran as CYCLIC(1), silently.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 3 3 | FileCheck %s --check-prefix=GOOD
// RUN: %t 2 5 | FileCheck %s --check-prefix=GOOD
// GOOD: PASS
// RUN: not %t 0 3 2>&1 | FileCheck %s --check-prefix=ARRAY
// ARRAY: homp: error: region {{.*}}block-sizes.c:[[# @LINE + 23]]:1: the block size of dimension 0 of 'p' is 0 when the region runs; it must be positive
// ARRAY-NOT: PASS
// RUN: not %t 3 -2 2>&1 | FileCheck %s --check-prefix=LOOP
// LOOP: homp: error: region {{.*}}block-sizes.c:[[# @LINE + 20]]:1: the block size of loop 0's distribution is -2 when the region runs; it must be positive
// LOOP-NOT: PASS
// A negative section length is an error too, where it was an empty section.
// RUN: not %t 3 3 -4 2>&1 | FileCheck %s --check-prefix=LENGTH
// LENGTH: homp: error: region {{.*}}block-sizes.c:{{[0-9]+}}:1: the length of 'p' is -4 when the region runs; it must not be negative
// HOMP_DEVICES admitting none of a data region's devices says so.
// RUN: env HOMP_DEVICES=host %t 3 3 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: homp: warning: region {{.*}}: none of the devices of its 'device' clause exists (or HOMP_DEVICES admits none of them); running it on the host

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4)
    return 2;
  int b = atoi(argv[1]), c = atoi(argv[2]), n = 49;
  int len = argc == 4 ? atoi(argv[3]) : n;
  long *p = malloc(sizeof(long) * n);
  for (int i = 0; i < n; i++)
    p[i] = i;
#pragma omp target device(*) map(tofrom: p[0:len] dist_data(CYCLIC(b)))
#pragma omp parallel for dist_iteration(CYCLIC(c))
  for (int i = 0; i < n; i++)
    p[i] = p[i] * 3 + 1;
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += p[i] != i * 3 + 1;
  puts(bad ? "FAIL" : "PASS");
  free(p);
  return bad != 0;
}
