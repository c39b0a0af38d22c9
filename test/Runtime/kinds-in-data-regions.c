// A loop with a scheduler kind of its own inside a data region whose
// arrays stay on the devices: the labelled loop the arrays are aligned to
// runs its kind, memorizing dynamic (memorizing-dynamic.c), and another
// follows the parts of the arrays it uses (owner computes), labelled or
// not (no array aligns to 'lone', so no data region split it). HOMP_INFO
// names the kind as written; it once called every such loop "the AUTO
// loop".
// RUN: %hompcc -O2 %s -o %t && %t | FileCheck %s
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=INFO -D#NDEV=%ndev -DDEVICES="%devices"
// CHECK: labelled: PASS
// CHECK: owner computes: PASS
// INFO: homp: region {{.*}}kinds-in-data-regions.c:[[# @LINE + 14]]:1: 1000 iterations on [[#NDEV + 1]] devices; schedule SCHED_DYNAMIC, chunks of 3; memorizing dynamic, as its first execution follows its chunks: 334 chunks of 3 taken as the devices became free
// INFO: homp: region {{.*}}kinds-in-data-regions.c:[[# @LINE + 26]]:1: 1000 iterations on [[DEVICES]]; the SCHED_GUIDED loop follows the parts of the arrays it uses (owner computes); asynchronous: the program went on while it ran in

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; ++i)
    x[i] = i, y[i] = 1;
#pragma omp parallel target data device(*, host) map(to: x[0:n] partition([ALIGN(loop1)])) \
    map(tofrom: y[0:n] partition([ALIGN(loop1)]))
  {
#pragma omp parallel target device(*, host)
#pragma omp parallel for distribute dist_schedule(target: [SCHED_DYNAMIC(3)])
  loop1:
    for (int i = 0; i < n; ++i)
      y[i] += 2.0 * x[i];
  }
  long bad = 0;
  for (int i = 0; i < n; ++i)
    bad += y[i] != 1 + 2.0 * i;
  printf("labelled: %s\n", bad ? "FAIL" : "PASS");

#pragma omp target data device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  {
#pragma omp target device(*)
#pragma omp parallel for dist_schedule(target: SCHED_GUIDED(2))
    lone: for (int i = 0; i < n; ++i)
      y[i] -= 2.0 * i;
  }
  bad = 0;
  for (int i = 0; i < n; ++i)
    bad += y[i] != 1;
  printf("owner computes: %s\n", bad ? "FAIL" : "PASS");
  free(x);
  free(y);
  return 0;
}
