// What homp cannot bound it does not guess. Subscripts of every kind the
// plugin may meet, over arrays of the kernel and arrays a data region keeps
// in parts on the devices (with and without a map clause of the kernel's
// own), each checked against sequential code:
//  - a body local ('int k = (i + n / 2) % n; x[k]') and a loop-invariant
//    variable ('x[c]'): once read as "the same in every iteration" and
//    not checked, 999 of 1000 wrong in a data region;
//  - a run-time offset ('y[i - lo]'): once taken for offset 0, every
//    iteration on device 0, which wrote past its storage;
//  - an index array ('x[idx[i]]' read, 'y[idx[i]]' written), which no
//    plugin can bound: every device gets all of an array only read, a
//    written one makes the kernel run on one device, and an array a data
//    region keeps in parts makes it run on the host with the array
//    gathered there (a warning once);
//  - an inner loop from '-w' to 'w', w a variable: offsets known when the
//    construct runs, against the halo.
// REQUIRES: devices-4
// RUN: %hompcc -O2 %s -o %t
// RUN: %t local | FileCheck %s
// RUN: %t invariant | FileCheck %s
// RUN: %t offset | FileCheck %s
// RUN: %t index | FileCheck %s
// RUN: %t window | FileCheck %s
// RUN: env HOMP_DEVICES=1,3 %t local | FileCheck %s
// RUN: env HOMP_DEVICES=2 %t index | FileCheck %s
// RUN: env HOMP_INFO=1 %t index 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: env HOMP_INFO=1 %t offset 2>&1 | FileCheck %s --check-prefix=OFFSET
// RUN: env HOMP_INFO=1 %t invariant 2>&1 | FileCheck %s --check-prefix=INVARIANT
// RUN: %t local 2>&1 | FileCheck %s --check-prefix=WARN
// CHECK-NOT: FAIL
// CHECK: PASS
// Read through an index array: all of 'x' on every device; written: one
// device; resident: the host, once said.
// INFO: homp: region {{.*}}unbounded-subscripts.c:[[#INDEXREAD:]]:1: 1000 iterations on {{[0-9]+}} devices{{.*}}; homp cannot bound the elements of 'x' the loop uses (subscript 'idx[i]' is not 'i' plus or minus constants, inner loops' variables and variables the loop does not change): every device holds all of it
// INFO: homp: region {{.*}}: 1000 iterations on 1 device; on device 0 alone, where every array is whole: homp cannot bound the elements of 'y' the loop uses (subscript 'idx[i]' {{.*}}), and the loop writes it
// INFO: homp: region {{.*}}: 1000 iterations on the host, with the resident arrays it uses gathered there (homp cannot bound the elements of 'x' the loop uses (subscript 'idx[i]' {{.*}}) and 'x' is distributed by the data region at {{.*}})
// A run-time offset is bounded: the loop follows y's parts.
// OFFSET: homp: region {{.*}}: 1000 iterations on [[#]] device{{s?}} in
// OFFSET-NOT: whole
// OFFSET: PASS
// An index the same in every iteration, held by one device: every device
// gets all of an array of the kernel; one a data region keeps in parts
// makes the kernel run on the host.
// INVARIANT: homp: warning: region {{.*}}: device 0 would use elements [7, 1000) of 'x' but holds only [0, [[#]]) ('x' is distributed by the data region at {{.*}}); running it on the host, with the resident arrays it uses gathered there
// INVARIANT: homp: region {{.*}}: 1000 iterations on [[#]] device{{s?}}; device 0 would use elements [7, 1000) of 'x' but holds only [0, [[#]]): every device holds all of 'x' in
// INVARIANT: PASS
// WARN: homp: warning: region {{.*}}unbounded-subscripts.c:[[#]]:1: homp cannot bound the elements of 'x' the loop uses (subscript 'k' uses 'k', which the loop body declares) and 'x' is distributed by the data region at {{.*}}; running it on the host, with the resident arrays it uses gathered there
// WARN-NOT: homp: warning
// WARN: PASS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 1000 };
static long x[N], y[N], want[N];
static int idx[N];

static void reset(void) {
  for (int i = 0; i < N; ++i) {
    x[i] = 3 * i + 1;
    y[i] = -1;
    idx[i] = (i * 7 + 3) % N;
  }
}

static int check(const char *What) {
  int Bad = 0;
  for (int i = 0; i < N; ++i)
    if (y[i] != want[i] && Bad++ < 3)
      printf("FAIL %s: y[%d] = %ld, expected %ld\n", What, i, y[i], want[i]);
  return Bad;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  const char *Mode = argv[1];
  int n = N, Bad = 0;
  int c = 7;
  if (!strcmp(Mode, "local")) {
    for (int i = 0; i < n; ++i)
      want[i] = 3 * ((i + n / 2) % n) + 1;
    reset();
#pragma omp target data device(*) map(to: x[0:n] dist_data(BLOCK) halo(1)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
    {
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; ++i) {
        int k = (i + n / 2) % n;
        y[i] = x[k];
      }
    }
    Bad += check("data region");
    reset();
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; ++i) {
      int k = (i + n / 2) % n;
      y[i] = x[k];
    }
    Bad += check("kernel");
  } else if (!strcmp(Mode, "invariant")) {
    for (int i = 0; i < n; ++i)
      want[i] = 3 * c + 1 + 3 * (n - 1) + 1;
    reset();
#pragma omp target data device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
    {
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; ++i)
        y[i] = x[c] + x[n - 1];
    }
    Bad += check("data region");
    reset();
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(from: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; ++i)
      y[i] = x[c] + x[n - 1];
    Bad += check("kernel");
  } else if (!strcmp(Mode, "offset")) {
    int lo = 5000;
    for (int i = 0; i < n; ++i)
      want[i] = i + lo;
    reset();
#pragma omp target device(*) map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = lo; i < n + lo; ++i)
      y[i - lo] = i;
    Bad += check("kernel");
    reset();
#pragma omp target data device(*) map(tofrom: y[0:n] dist_data(BLOCK))
    {
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = lo; i < n + lo; ++i)
        y[i - lo] = i;
    }
    Bad += check("data region");
  } else if (!strcmp(Mode, "index")) {
    reset();
    for (int i = 0; i < n; ++i)
      want[i] = x[idx[i]];
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK), idx[0:n]) \
    map(from: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; ++i)
      y[i] = x[idx[i]];
    Bad += check("read");
    reset();
    for (int i = 0; i < n; ++i)
      want[idx[i]] = 3 * i + 1;
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK), idx[0:n]) \
    map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; ++i)
      y[idx[i]] = x[i];
    Bad += check("written");
    reset();
    for (int i = 0; i < n; ++i)
      want[i] = x[idx[i]] + 1;
#pragma omp target data device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
    {
#pragma omp target device(*) map(to: idx[0:n])
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; ++i)
        y[i] = x[idx[i]];
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; ++i)
        y[i] += 1;
    }
    Bad += check("resident");
  } else if (!strcmp(Mode, "window")) {
    int w = argc; // 2, known only when the program runs
    reset();
    for (int i = 0; i < n; ++i) {
      want[i] = 0;
      for (int d = -w; d <= w; ++d)
        want[i] += i + d >= 0 && i + d < n ? x[i + d] : 0;
    }
#pragma omp target data device(*) map(to: x[0:n] dist_data(BLOCK) halo(2)) \
    map(from: y[0:n] dist_data(BLOCK))
    {
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; ++i) {
        long s = 0;
        for (int d = -w; d <= w; ++d)
          s += i + d >= 0 && i + d < n ? x[i + d] : 0;
        y[i] = s;
      }
    }
    Bad += check("window");
  } else {
    return 2;
  }
  puts(Bad ? "FAIL" : "PASS");
  return Bad != 0;
}
