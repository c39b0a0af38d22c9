// A CPU offload device runs its share of an owner-computes loop (arrays
// with splits of their own, dist_data(BLOCK)) in sub-parts of about 1 MB
// copied in and out, one after the other, as it does a scheduled loop's
// (sub-parts.c): each sub-part holds and copies back only its stretch of the
// device's part. Over devices 0 and 1 each share is n/2 = 2^19 iterations
// copying 24 bytes each (x in, y in and out): 12 MB, 12 sub-parts. Every
// run checks y and a reduction against sequential code.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 %t axpy 2>&1 | FileCheck %s --check-prefixes=CHECK,TWELVE
// A loop counting down, reading x one element behind from its halo:
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 %t down 2>&1 | FileCheck %s --check-prefixes=CHECK,TWELVE-DOWN
// Every other element, written one past the loop's variable: 24 bytes
// for each of the 2^19 elements of a device's part, 12 sub-parts:
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 %t odd 2>&1 | FileCheck %s --check-prefixes=CHECK,TWELVE-ODD
// y mapped from: x in and y out, 16 bytes an iteration, 8 sub-parts:
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 %t from 2>&1 | FileCheck %s --check-prefixes=CHECK,EIGHT
// x resident in a data region: only y is copied (16 bytes), 8 sub-parts:
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 %t resident 2>&1 | FileCheck %s --check-prefixes=CHECK,EIGHT
// Rows of a 2-D stencil (Jacobi's): u in and out, uold and f in, 2 MB each
// a device, 8 sub-parts of 32 rows; uold's halo rows cross every boundary.
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 %t rows 2>&1 | FileCheck %s --check-prefixes=CHECK,ROWS
// A duplicated input is copied again by each sub-part: at most
// 1 + share bytes / (8 x its bytes), 7 here (12 MiB against 256 KiB).
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 %t bigdup 2>&1 | FileCheck %s --check-prefixes=CHECK,SEVEN
// y written and read one element on: no sub-part could copy y back alone.
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 %t pairs 2>&1 | FileCheck %s --check-prefixes=CHECK,WHOLE
// A sub-part that fails sends the rest of the share to the host, which
// adds a x to y once for each element:
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 HOMP_FAULT=1:launch:after=3 %t axpy 2>&1 | FileCheck %s --check-prefix=FAULT
// The first sub-part fails: the host runs the whole share.
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 HOMP_FAULT=1:launch %t axpy 2>&1 | FileCheck %s --check-prefix=FIRST
// The seventh copy fails: x's copy into the third sub-part (each copies x
// and y in, and y back).
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 HOMP_FAULT=1:copy:after=6 %t axpy 2>&1 | FileCheck %s --check-prefix=COPY
// Two 'nowait' regions at once, sharing x, each in sub-parts:
// RUN: env HOMP_DEVICES=0,1 %t nowait 2>&1 | FileCheck %s
// The host works in place: one launch.
// RUN: env HOMP_INFO=1 %t host 2>&1 | FileCheck %s --check-prefix=HOST

// TWELVE: homp:   0 CPU [0, 524288) 12 {{[0-9]}}
// TWELVE-NEXT: homp:   1 CPU [524288, 1048576) 12 {{[0-9]}}
// TWELVE-DOWN: homp:   0 CPU [1, 524288) 12 {{[0-9]}}
// TWELVE-DOWN-NEXT: homp:   1 CPU [524288, 1048576) 12 {{[0-9]}}
// TWELVE-ODD: homp:   0 CPU [0, 524287) 12 {{[0-9]}}
// TWELVE-ODD-NEXT: homp:   1 CPU [524288, 1048575) 12 {{[0-9]}}
// EIGHT: homp:   0 CPU [0, 524288) 8 {{[0-9]}}
// EIGHT-NEXT: homp:   1 CPU [524288, 1048576) 8 {{[0-9]}}
// ROWS: homp:   0 CPU [1, 256) x [1, 1023) 8 {{[0-9]}}
// ROWS-NEXT: homp:   1 CPU [256, 511) x [1, 1023) 8 {{[0-9]}}
// SEVEN: homp:   0 CPU [0, 524288) 7 {{[0-9]}}
// SEVEN-NEXT: homp:   1 CPU [524288, 1048576) 7 {{[0-9]}}
// WHOLE: homp:   0 CPU [0, 524288) 1 {{[0-9]}}
// WHOLE-NEXT: homp:   1 CPU [524288, 1048575) 1 {{[0-9]}}
// CHECK-NOT: error
// CHECK: PASS

// Device 1's fourth sub-part fails: the host runs it and the 8 after it.
// FAULT: homp: warning: region {{.*}}owner-sub-parts.c:{{[0-9]+:[0-9]+}}: device 1 failed to run its part; running its part on the host
// FAULT: homp:   0 CPU [0, 524288) 12 {{[0-9]}}
// FAULT-NEXT: homp:   1 CPU [524288, 655360), then failed 4 {{[0-9]}}
// FAULT-NEXT: homp:   host HOST [655360, 1048576) 1 {{[0-9]}}
// FAULT: PASS

// FIRST: homp: warning: region {{.*}}: device 1 failed to run its part; running its part on the host
// FIRST: homp:   0 CPU [0, 524288) 12 {{[0-9]}}
// FIRST-NEXT: homp:   1 CPU failed 1 {{[0-9]}}
// FIRST-NEXT: homp:   host HOST [524288, 1048576) 1 {{[0-9]}}
// FIRST: PASS
// COPY: homp: warning: region {{.*}}: copying 'x' to device 1 failed; running its part on the host
// COPY: homp:   0 CPU [0, 524288) 12 {{[0-9]}}
// COPY-NEXT: homp:   1 CPU [524288, 611669), then failed 2 {{[0-9]}}
// COPY-NEXT: homp:   host HOST [611669, 1048576) 1 {{[0-9]}}
// COPY: PASS

// HOST: homp:   host HOST [{{[0-9]+}}, 1048576) 1 {{[0-9]}}
// HOST: PASS

#include <stdio.h>
#include <string.h>

enum { n = 1 << 20, nd = 1 << 15, rows = 512, cols = 1024 };
static double x[n], y[n], y2[n], big[nd];
static double u[rows][cols], uold[rows][cols], f[rows][cols];

#define PRAGMA(X) _Pragma(#X)
// y += 2 x (+ EXTRA) over the devices listed last, with MAPS besides x
// and y.
#define AXPY(MAPS, EXTRA, ...)                                                 \
  PRAGMA(omp target device(__VA_ARGS__) map(to: x[0:n] dist_data(BLOCK))      \
         map(tofrom: y[0:n] dist_data(BLOCK)) MAPS)                            \
  PRAGMA(omp parallel for reduction(+: sum) dist_iteration(BLOCK))             \
  for (int i = 0; i < n; ++i) {                                                \
    y[i] += 2 * x[i] EXTRA;                                                    \
    sum += x[i];                                                               \
  }

static void stencil(void) {
#pragma omp target device(*) map(tofrom: u[0:rows][0:cols] dist_data(BLOCK, *)) \
    map(to: uold[0:rows][0:cols] dist_data(BLOCK, *) halo(1,),                  \
            f[0:rows][0:cols] dist_data(BLOCK, *))
#pragma omp parallel for collapse(2) dist_iteration(BLOCK)
  for (int i = 1; i < rows - 1; ++i)
    for (int j = 1; j < cols - 1; ++j)
      u[i][j] = 0.25 * (uold[i - 1][j] + uold[i + 1][j] + uold[i][j - 1] +
                        uold[i][j + 1]) + f[i][j];
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "";
  for (int i = 0; i < n; ++i)
    x[i] = i % 1013, y[i] = 1;
  for (int i = 0; i < nd; ++i)
    big[i] = i % 7;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      u[i][j] = -1, uold[i][j] = (i * 7 + j) % 101, f[i][j] = (i + j) % 3;
  double sum = 0;
  int Bad = 0;
  if (!strcmp(Mode, "rows")) {
    stencil();
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        int Inner = i > 0 && i < rows - 1 && j > 0 && j < cols - 1;
        double Want = Inner ? 0.25 * (uold[i - 1][j] + uold[i + 1][j] +
                                      uold[i][j - 1] + uold[i][j + 1]) +
                                  f[i][j]
                            : -1;
        Bad += u[i][j] != Want;
      }
    printf("%s\n", Bad ? "FAIL" : "PASS");
    return Bad != 0;
  }
  double Want = 0;
  if (!strcmp(Mode, "down")) {
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK) halo(1)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for reduction(+: sum) dist_iteration(BLOCK)
    for (int i = n - 1; i >= 1; --i) {
      y[i] += 2 * x[i - 1];
      sum += x[i - 1];
    }
    for (int i = 0; i < n; ++i) {
      Bad += y[i] != 1 + (i > 0 ? 2 * x[i - 1] : 0);
      Want += i > 0 ? x[i - 1] : 0;
    }
  } else if (!strcmp(Mode, "odd")) {
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK))
#pragma omp parallel for reduction(+: sum) dist_iteration(BLOCK)
    for (int i = 0; i < n - 1; i += 2) {
      y[i + 1] += 2 * x[i + 1];
      sum += x[i + 1];
    }
    for (int i = 0; i < n; ++i) {
      Bad += y[i] != 1 + (i % 2 ? 2 * x[i] : 0);
      Want += i % 2 ? x[i] : 0;
    }
  } else if (!strcmp(Mode, "nowait")) {
    for (int i = 0; i < n; ++i)
      y2[i] = 2;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK)) nowait
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; ++i)
        y[i] += 3 * x[i];
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y2[0:n] dist_data(BLOCK)) nowait
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = n - 1; i >= 0; --i)
        y2[i] -= x[i];
#pragma omp taskwait
    }
    for (int i = 0; i < n; ++i)
      Bad += y[i] != 1 + 3 * x[i] || y2[i] != 2 - x[i];
  } else if (!strcmp(Mode, "pairs")) {
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(tofrom: y[0:n] dist_data(BLOCK) halo(0:1))
#pragma omp parallel for reduction(+: sum) dist_iteration(BLOCK)
    for (int i = 0; i < n - 1; ++i) {
      y[i] += 2 * x[i];
      sum += x[i] + 0 * y[i + 1]; // y is used at two offsets of i

    }
    for (int i = 0; i < n; ++i) {
      Bad += y[i] != 1 + (i < n - 1 ? 2 * x[i] : 0);
      Want += i < n - 1 ? x[i] : 0;
    }
  } else {
    if (!strcmp(Mode, "from")) {
#pragma omp target device(*) map(to: x[0:n] dist_data(BLOCK)) \
    map(from: y[0:n] dist_data(BLOCK))
#pragma omp parallel for reduction(+: sum) dist_iteration(BLOCK)
      for (int i = 0; i < n; ++i) {
        y[i] = 1 + 2 * x[i];
        sum += x[i];
      }
    } else if (!strcmp(Mode, "resident")) {
#pragma omp target data device(*) map(to: x[0:n] dist_data(BLOCK))
      AXPY(, , *)
    } else if (!strcmp(Mode, "bigdup")) {
      AXPY(map(to: big[0:nd]), +big[i % nd] - big[i % nd], *)
    } else if (!strcmp(Mode, "host")) {
      AXPY(, , *, host)
    } else {
      AXPY(, , *)
    }
    for (int i = 0; i < n; ++i) {
      Bad += y[i] != 1 + 2 * x[i];
      Want += x[i];
    }
  }
  Bad += sum != Want;
  printf("%s\n", Bad ? "FAIL" : "PASS");
  return Bad != 0;
}
