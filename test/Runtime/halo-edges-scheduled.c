// A loop shared out in parts (SCHED_DYNAMIC, SCHED_GUIDED, the profile
// kinds, AUTO) over arrays aligned with it that have periodic or reflecting
// halos: each part's cells past the array's ends are filled from the whole
// array ('a[-1]' is 'a[n-1]', or 'a[1]' when reflecting), though no device
// owns their sources while the part runs. Against sequential values.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t dynamic 2>&1 | FileCheck %s --implicit-check-not=FAIL --implicit-check-not=warning
// RUN: %t guided 2>&1 | FileCheck %s --implicit-check-not=FAIL --implicit-check-not=warning
// RUN: %t profile 2>&1 | FileCheck %s --implicit-check-not=FAIL --implicit-check-not=warning
// RUN: %t auto 2>&1 | FileCheck %s --implicit-check-not=FAIL --implicit-check-not=warning
// CHECK: periodic: PASS
// CHECK: reflecting: PASS

#include <stdio.h>
#include <string.h>

enum { n = 1000 };
static double a[n], b[n];

static int check(const char *What, int Reflect) {
  int Bad = 0;
  for (int i = 0; i < n; ++i) {
    int L = i > 0 ? i - 1 : Reflect ? 1 : n - 1;
    int R = i < n - 1 ? i + 1 : Reflect ? n - 2 : 0;
    Bad += b[i] != a[L] + a[R];
  }
  printf("%s: %s\n", What, Bad ? "FAIL" : "PASS");
  return Bad != 0;
}

#define PRAGMA(X) _Pragma(#X)
#define STENCIL(KIND, EDGE)                                                    \
  PRAGMA(omp target device(*) map(to: a[0:n] dist_data(ALIGN(loop))           \
                                  halo(1:EDGE))                                \
             map(from: b[0:n] dist_data(ALIGN(loop))))                         \
  PRAGMA(omp parallel for dist_iteration(KIND))                                \
  for (int i = 0; i < n; ++i)                                                  \
    b[i] = a[i - 1] + a[i + 1];

#define BOTH(KIND)                                                             \
  {                                                                            \
    STENCIL(KIND, periodic)                                                    \
    Fails += check("periodic", 0);                                             \
    STENCIL(KIND, reflecting)                                                  \
    Fails += check("reflecting", 1);                                           \
  }

int main(int argc, char **argv) {
  int Fails = 0;
  for (int i = 0; i < n; ++i)
    a[i] = i * i % 97;
  if (!strcmp(argv[1], "dynamic"))
    BOTH(SCHED_DYNAMIC(100))
  else if (!strcmp(argv[1], "guided"))
    BOTH(SCHED_GUIDED(10))
  else if (!strcmp(argv[1], "profile"))
    BOTH(SCHED_PROFILE_AUTO(10%))
  else
    BOTH(AUTO)
  return Fails;
}
