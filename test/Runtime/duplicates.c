// An array that is not distributed but mapped back from several devices:
// what each device wrote is merged into the host's copy (two devices
// writing different values to one element is an error, not a silent race:
// duplicates-conflict.c).
// RUN: %hompcc -O2 %s -o %t
// RUN: %t merge 2>&1 | FileCheck %s --check-prefix=MERGE
// RUN: %t whole 2>&1 | FileCheck %s --check-prefix=WHOLE

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  enum { n = 64 };
  int y[n], flags[n];
  for (int i = 0; i < n; ++i) {
    y[i] = i;
    flags[i] = -1;
  }
  if (strcmp(argv[1], "merge") == 0) {
    // Each device marks the elements of flags its iterations own.
#pragma omp target teams distribute parallel for device(*) \
    map(to: y[0:n] dist_data(BLOCK)) map(tofrom: flags[0:n])
    for (int i = 0; i < n; ++i)
      flags[i] = y[i] * 10;
    for (int i = 0; i < n; ++i)
      if (flags[i] != 10 * i)
        return printf("FAIL flags[%d] = %d\n", i, flags[i]), 1;
    // MERGE: PASS
    puts("PASS");
    return 0;
  }
  // A whole fixed-size array, not a section: merged element by element,
  // so devices writing their own elements do not conflict.
#pragma omp target teams distribute parallel for device(*) \
    map(to: y[0:n] dist_data(BLOCK)) map(tofrom: flags)
  for (int i = 0; i < n; ++i)
    flags[i] = y[i] + 1;
  for (int i = 0; i < n; ++i)
    if (flags[i] != i + 1)
      return printf("FAIL flags[%d] = %d\n", i, flags[i]), 1;
  // WHOLE: PASS
  puts("PASS");
  return 0;
}
