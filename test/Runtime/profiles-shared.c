// Runs sharing one HOMP_PROFILES file (a job array, ranks on one node)
// keep each other's profiles: a run that exits after another started and
// saved its own reads the file again at exit and replaces only its own
// loops' lines. Here the first run starts the second before it exits; the
// file then holds both loop sizes' profiles. An empty file (mktemp's) and
// CRLF line ends are read as profiles files.
// RUN: %hompcc -O2 %s -o %t
// RUN: rm -f %t.prof && env HOMP_PROFILES=%t.prof %t 1000 "%t 100000" 2>&1 | FileCheck %s --check-prefix=RUNS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=BOTH < %t.prof
// RUN: : > %t.empty && env HOMP_PROFILES=%t.empty %t 1000 2>&1 | FileCheck %s --check-prefix=RUNS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=ONE < %t.empty
// RUN: sed 's/$/\r/' %t.prof > %t.crlf && env HOMP_PROFILES=%t.crlf %t 1000 2>&1 | FileCheck %s --check-prefix=RUNS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=BOTH < %t.crlf
// RUNS: PASS
// BOTH: # homp profiles 1
// BOTH-DAG: class=10 {{.*}}region={{.*}}profiles-shared.c:[[# @LINE + 13]]:1
// BOTH-DAG: class=17 {{.*}}region={{.*}}profiles-shared.c:[[# @LINE + 12]]:1
// ONE: class=10

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = atoi(argv[1]), Bad = 0;
  double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    x[i] = i, y[i] = 0;
  for (int r = 0; r < 6; ++r) {
#pragma omp parallel target device(*, host) map(tofrom: y[0:n] partition([ALIGN(loop)])) \
    map(to: x[0:n] partition([ALIGN(loop)]))
#pragma omp parallel for distribute dist_schedule(target: [AUTO])
  loop:
    for (int i = 0; i < n; ++i)
      y[i] += x[i];
  }
  for (int i = 0; i < n; ++i)
    Bad += y[i] != 6.0 * i;
  puts(Bad ? "FAIL" : "PASS");
  fflush(stdout);
  free(x);
  free(y);
  // Another run with the same file starts, learns and exits first.
  if (argc > 2 && system(argv[2]) != 0)
    return 1;
  return Bad != 0;
}
