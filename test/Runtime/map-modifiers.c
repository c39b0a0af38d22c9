// The 'always' and 'present' map type modifiers on distributed items
// (OpenMP 5.1): 'always' copies each device's part even when a data region
// already holds the array: a kernel's map(always, to: ...) after the host
// changed the array, and a nested data region's map(always, from: ...)
// that copies the devices' values out while the outer region goes on.
// 'present' is an error when no data region holds the array, and changes
// nothing when one does. Against sequential values.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t always 2>&1 | FileCheck %s --check-prefix=ALWAYS --implicit-check-not=FAIL
// RUN: env HOMP_INFO=1 %t always 2>&1 | FileCheck %s --check-prefix=ALWAYS --implicit-check-not=FAIL
// RUN: %t present 2>&1 | FileCheck %s --check-prefix=PRESENT --implicit-check-not=FAIL
// RUN: not %t absent 2>&1 | FileCheck %s --check-prefix=ABSENT
// ALWAYS: kernel always to: PASS
// ALWAYS: data always from: PASS
// ALWAYS: exit always from: PASS
// PRESENT: present: PASS
// ABSENT: homp: error: region {{.*}}map-modifiers.c:{{[0-9]+}}:1: 'b' is not on the devices (map(present: ...)): no data region or 'target enter data' before this construct distributes it
// ABSENT-NOT: PASS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 1001 };
static double a[N], b[N];

static void expect(const char *What, const double *Got, double (*Want)(int)) {
  int Bad = 0;
  for (int i = 0; i < N; i++)
    if (Got[i] != Want(i) && Bad++ < 3)
      printf("FAIL %s: [%d] = %g, expected %g\n", What, i, Got[i], Want(i));
  printf("%s: %s\n", What, Bad ? "FAILED" : "PASS");
}

static double twicePlusOne(int i) { return 2.0 * i + 1; }
static double plusOne(int i) { return i + 1.0; }
static double plusTwo(int i) { return i + 2.0; }

static void always(void) {
  int n = N;
  for (int i = 0; i < n; i++)
    a[i] = i;
#pragma omp target data device(*) map(tofrom: a[0:n] dist_data(BLOCK))
  {
    for (int i = 0; i < n; i++)
      a[i] = 2 * i; // the devices still hold i
#pragma omp target device(*) map(always, to: a[0:n] dist_data(BLOCK))
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] += 1;
  }
  expect("kernel always to", a, twicePlusOne);

  for (int i = 0; i < n; i++)
    a[i] = i;
#pragma omp target data device(*) map(to: a[0:n] dist_data(BLOCK))
  {
#pragma omp target device(*)
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] += 1;
    // The outer region ends without copying 'a' out: only 'always' does.
#pragma omp target data device(*) map(always, from: a[0:n] dist_data(BLOCK))
    {
    }
    expect("data always from", a, plusOne);
  }

  for (int i = 0; i < n; i++)
    a[i] = i;
#pragma omp target enter data device(*) map(to: a[0:n] dist_data(BLOCK))
#pragma omp target enter data device(*) map(to: a[0:n] dist_data(BLOCK))
#pragma omp target device(*)
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] += 2;
  // Two references: the first exit copies out only because of 'always'.
#pragma omp target exit data device(*) map(always, from: a[0:n] dist_data(BLOCK))
  expect("exit always from", a, plusTwo);
#pragma omp target exit data device(*) map(delete: a[0:n] dist_data(BLOCK))
}

static void present(int Held) {
  int n = N;
  for (int i = 0; i < n; i++)
    b[i] = i;
  if (Held) {
#pragma omp target data device(*) map(tofrom: b[0:n] dist_data(BLOCK))
    {
#pragma omp target device(*) map(present, tofrom: b[0:n] dist_data(BLOCK))
#pragma omp parallel for
      for (int i = 0; i < n; i++)
        b[i] += 1;
    }
  } else {
#pragma omp target device(*) map(present, tofrom: b[0:n] dist_data(BLOCK))
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      b[i] += 1;
  }
  expect("present", b, plusOne);
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  if (!strcmp(argv[1], "always"))
    always();
  else
    present(!strcmp(argv[1], "present"));
  return 0;
}
