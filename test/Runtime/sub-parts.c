// A CPU offload device runs a large share of a scheduled loop in sub-parts
// of about 1 MB copied in and out, one after the other (Launch.cpp,
// SubPartBytes). Over devices 0 and 1, each share is n/2 = 2^19 iterations
// copying 24 bytes each (a in, b in and out): 12 MB, 12 sub-parts. Every
// run checks b, a reduction and, with 'dup', a small duplicated input
// against sequential code; a 3-point stencil with periodic edges crosses
// every sub-part's boundary. A large duplicated input would be copied again
// for each sub-part: it gets at most 1 + share bytes / (8 x its bytes)
// (1 here). A duplicate mapped back is merged once per device: no
// sub-parts. A sub-part that fails sends the rest of the share to the host.
// REQUIRES: devices-2
// RUN: %hompcc -O2 %s -o %t
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 HOMP_SCHEDULE=BLOCK %t 2>&1 | FileCheck %s --check-prefixes=CHECK,TWELVE
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 HOMP_SCHEDULE=MODEL_1_AUTO %t dup 2>&1 | FileCheck %s --check-prefixes=CHECK,TWELVE
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 HOMP_SCHEDULE=BLOCK %t bigdup 2>&1 | FileCheck %s --check-prefixes=CHECK,ONE
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 HOMP_SCHEDULE=BLOCK %t back 2>&1 | FileCheck %s --check-prefixes=CHECK,ONE
// RUN: env HOMP_DEVICES=0,1 HOMP_INFO=1 HOMP_SCHEDULE=BLOCK HOMP_FAULT=1:launch:after=3 %t fault 2>&1 | FileCheck %s --check-prefix=FAULT
// With periodic edges, the host cannot run the rest (it holds the halo
// cell past the array's end, which the host's array does not have):
// RUN: not env HOMP_DEVICES=0,1 HOMP_SCHEDULE=BLOCK HOMP_FAULT=1:launch:after=3 %t 2>&1 | FileCheck %s --check-prefix=EDGE
// The profile kinds' shares of the rest come in sub-parts too. The sizes of
// the shares depend on timing, but no launch runs more than a sub-part of
// 2 MiB (87381 iterations of 24 bytes) or a piece as large as a device's
// sample part (52429): a share of the rest, at least 450000 iterations on
// one device, would.
// RUN: rm -f %t.json && env HOMP_DEVICES=0,1 HOMP_SCHEDULE=SCHED_PROFILE_AUTO,10% HOMP_TRACE=%t.json %t dup 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: %python %S/Inputs/check-trace.py --at-most kernel 87381 %t.json | FileCheck %s --check-prefix=PROFILE
// PROFILE: kernel spans of at most 87381 iterations: yes
// With the host, which works in place:
// RUN: env HOMP_INFO=1 HOMP_SCHEDULE=BLOCK %t host 2>&1 | FileCheck %s --check-prefix=HOST

// TWELVE: homp:   0 CPU [0, 524288) 12 {{[0-9]}}
// TWELVE-NEXT: homp:   1 CPU [524288, 1048576) 12 {{[0-9]}}
// ONE: homp:   0 CPU [0, 524288) 1 {{[0-9]}}
// ONE-NEXT: homp:   1 CPU [524288, 1048576) 1 {{[0-9]}}
// CHECK-NOT: error
// CHECK: PASS
// RESULT: PASS

// Device 1's fourth sub-part fails: the host runs it and the 8 after it.
// FAULT: homp: warning: region {{.*}}sub-parts.c:{{[0-9]+:[0-9]+}}: device 1 failed to run its part; running its part on the host
// FAULT: homp:   0 CPU [0, 524288) 12 {{[0-9]}}
// FAULT-NEXT: homp:   1 CPU [524288, 655360), then failed 4 {{[0-9]}}
// FAULT-NEXT: homp:   host HOST [655360, 1048576) 1 {{[0-9]}}
// FAULT: PASS
// EDGE: homp: error: region {{.*}}sub-parts.c:{{[0-9]+:[0-9]+}}: device 1 failed to run its part
// EDGE-NOT: PASS

// HOST: homp:   host HOST [{{[0-9]+}}, 1048576) 1 {{[0-9]}}
// HOST: PASS

#include <stdio.h>
#include <string.h>

enum { n = 1 << 20, nd = 1 << 19 };
static double a[n], b[n], w[4], big[nd], last[1];

#define PRAGMA(X) _Pragma(#X)
// The loop, with MAPS besides a and b and EXTRA in its body. (w, big, last:
// duplicated on every device; last is mapped back.)
#define KERNEL(MAPS, EXTRA)                                                    \
  PRAGMA(omp target device(*)                                                  \
         map(to: a[0:n] dist_data(ALIGN(loop)) halo(1:periodic))               \
         map(tofrom: b[0:n] dist_data(ALIGN(loop))) MAPS)                      \
  PRAGMA(omp parallel for reduction(+: sum) dist_iteration(AUTO))              \
  for (int i = 0; i < n; ++i) {                                                \
    b[i] += a[i - 1] + 2 * a[i] + a[i + 1];                                    \
    sum += a[i];                                                               \
    EXTRA                                                                      \
  }

// The same without a halo, over DEVICES: the host can run any part of it.
#define FLAT(...)                                                              \
  PRAGMA(omp target device(__VA_ARGS__)                                        \
         map(to: a[0:n] dist_data(ALIGN(loop)))                                \
         map(tofrom: b[0:n] dist_data(ALIGN(loop))))                           \
  PRAGMA(omp parallel for reduction(+: sum) dist_iteration(AUTO))              \
  for (int i = 0; i < n; ++i) {                                                \
    b[i] += 2 * a[i];                                                          \
    sum += a[i];                                                               \
  }

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "";
  for (int i = 0; i < n; ++i)
    a[i] = i % 1013, b[i] = 1;
  for (int i = 0; i < 4; ++i)
    w[i] = i + 1;
  for (int i = 0; i < nd; ++i)
    big[i] = i % 7;
  double sum = 0;
  if (!strcmp(Mode, "dup"))
    KERNEL(map(to: w[0:4]), b[i] += w[i % 4];)
  else if (!strcmp(Mode, "bigdup"))
    KERNEL(map(to: big[0:nd]), b[i] += big[i % nd];)
  else if (!strcmp(Mode, "fault"))
    FLAT(*)
  else if (!strcmp(Mode, "host"))
    FLAT(*, host)
  else if (!strcmp(Mode, "back"))
    KERNEL(map(tofrom: last[0:1]), if (i == n - 1) last[0] = b[i];)
  else
    KERNEL(, )
  int Bad = 0;
  double Want = 0;
  for (int i = 0; i < n; ++i) {
    double Extra = !strcmp(Mode, "dup")      ? w[i % 4]
                   : !strcmp(Mode, "bigdup") ? big[i % nd]
                                             : 0;
    int Flat = !strcmp(Mode, "fault") || !strcmp(Mode, "host");
    double Near = Flat ? 0 : a[(i + n - 1) % n] + a[(i + 1) % n];
    Bad += b[i] != 1 + Near + 2 * a[i] + Extra;
    Want += a[i];
  }
  Bad += sum != Want;
  Bad += !strcmp(Mode, "back") && last[0] != b[n - 1];
  printf("%s\n", Bad ? "FAIL" : "PASS");
  return Bad != 0;
}
