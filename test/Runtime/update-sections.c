// 'target update' of sections of an array in 2-D blocks (a [*][*]
// topology: 2x2 on 4 devices) that are not contiguous in memory (some
// columns of every row): homp copies each device's part of the section,
// and only that (the other elements keep the host's values). clang passes
// such sections to the offload entry points as non-contiguous descriptors;
// they are homp's, never forwarded to libomptarget (whose own update of one
// hung). Sizes known at run time only, against the values each element
// must have. An update in a helper
// function called inside the data region; one of an array no device holds
// (a data region with if(0)) copies nothing, as OpenMP says, unless
// to(present: ...) asks for it to be there.
// RUN: %hompcc -O2 %s -o %t
// RUN: %t 8 8 | FileCheck %s --implicit-check-not=FAIL
// RUN: %t 9 9 | FileCheck %s --implicit-check-not=FAIL
// RUN: %t 5 13 | FileCheck %s --implicit-check-not=FAIL
// CHECK: after a kernel: PASS
// CHECK: from columns: PASS
// CHECK: from a block: PASS
// CHECK: to columns: PASS
// CHECK: in a helper: PASS
// CHECK: if(0): PASS
// One column whose index is known at run time only, fetched and put back
// right after an asynchronous kernel: clang passes it as the whole array
// around it, which homp must still take as the column (on one device,
// libomptarget once copied the whole array, before the kernel ended).
// RUN: %t 6 5 column | FileCheck %s --check-prefix=COLUMN
// RUN: env HOMP_DEVICES=2 %t 6 5 column | FileCheck %s --check-prefix=COLUMN
// RUN: env HOMP_DEVICES=1,3 %t 1 5 column | FileCheck %s --check-prefix=COLUMN
// COLUMN: one column, column 1: PASS
// COLUMN: one column, column 4: PASS
// RUN: not %t 4 4 present 2>&1 | FileCheck %s --check-prefix=PRESENT
// PRESENT: homp: error: region {{.*}}update-sections.c:{{[0-9]+}}:1: 'target update' of 'w', which is not on the devices (to(present: ...)): no data region or 'target enter data' distributes it

#include <stdio.h>
#include <stdlib.h>

static int failures;

static void expect(const char *What, int Bad) {
  printf("%s: %s\n", What, Bad ? "FAIL" : "PASS");
  failures += Bad;
}

// Columns 1 to m - 1 right after the kernel (this shape hung when the
// update went to libomptarget).
static void columnsAfterKernel(int n, int m) {
  double(*v)[m] = malloc(sizeof(double) * n * m);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      v[i][j] = 0;
#pragma omp target data device(*) topology([*][*]) \
    map(tofrom: v[0:n][0:m] dist_data(BLOCK, BLOCK))
  {
#pragma omp target device(*) topology([*][*])
#pragma omp parallel for collapse(2)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        v[i][j] = i * 100 + j;
    fprintf(stderr, "kernel done\n");
#pragma omp target update device(*) from(v[0:n][1:m - 1])
    fprintf(stderr, "update done\n");
    int Bad = 0;
    for (int i = 0; i < n; i++)
      for (int j = 1; j < m; j++)
        Bad += v[i][j] != i * 100 + j;
    expect("after a kernel", Bad);
  }
  free(v);
}

static void fetch(double *w, int n) {
#pragma omp target update device(*) from(w[0:n])
}

static void helperAndIf(int n, int Present) {
  double *w = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++)
    w[i] = i;
#pragma omp target data device(*) map(to: w[0:n] dist_data(BLOCK))
  {
#pragma omp target device(*)
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      w[i] *= 3;
    fetch(w, n);
  }
  int Bad = 0;
  for (int i = 0; i < n; i++)
    Bad += w[i] != 3 * i;
  expect("in a helper", Bad);
  for (int i = 0; i < n; i++)
    w[i] = i;
#pragma omp target data device(*) if(0) map(to: w[0:n] dist_data(BLOCK))
  {
#pragma omp target update device(*) from(w[0:n])
    if (Present) {
#pragma omp target update device(*) to(present: w[0:n])
    }
  }
  Bad = 0;
  for (int i = 0; i < n; i++)
    Bad += w[i] != i;
  expect("if(0)", Bad);
  free(w);
}

// Column c of every row, fetched, changed on the host and put back.
static void oneColumn(int n, int m, int c) {
  double(*u)[m] = malloc(sizeof(double) * n * m);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      u[i][j] = i * 10 + j;
#pragma omp target data device(*) map(tofrom: u[0:n][0:m] dist_data(BLOCK, *))
  {
#pragma omp target device(*)
#pragma omp parallel for collapse(2)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        u[i][j] *= 2;
#pragma omp target update device(*) from(u[0:n][c:1])
    for (int i = 0; i < n; i++)
      u[i][c] += 1;
#pragma omp target update device(*) to(u[0:n][c:1])
  }
  int Bad = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      Bad += u[i][j] != (i * 10 + j) * 2 + (j == c);
  char What[64];
  snprintf(What, sizeof What, "one column, column %d", c);
  expect(What, Bad);
  free(u);
}

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4)
    return 2;
  int n = atoi(argv[1]), m = atoi(argv[2]), Bad;
  if (argc == 4 && argv[3][0] == 'c') {
    oneColumn(n, m, 1);
    oneColumn(n, m, m - 1);
    return failures != 0;
  }
  if (argc == 4) {
    helperAndIf(n * m, 1);
    return 0;
  }
  columnsAfterKernel(n, m);
  double(*v)[m] = malloc(sizeof(double) * n * m);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      v[i][j] = -1;
#pragma omp target data device(*) topology([*][*]) \
    map(tofrom: v[0:n][0:m] dist_data(BLOCK, BLOCK))
  {
#pragma omp target device(*) topology([*][*])
#pragma omp parallel for collapse(2)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        v[i][j] = i * 100 + j;
    // Columns 1 to m - 1 of every row.
#pragma omp target update device(*) from(v[0:n][1:m - 1])
    Bad = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        Bad += v[i][j] != (j >= 1 ? i * 100 + j : -1);
    expect("from columns", Bad);
    // Rows 1 to 3, columns 2 to 4: parts of every device.
#pragma omp target update device(*) from(v[1:3][2:3])
    Bad = 0;
    for (int i = 1; i < 4; i++)
      for (int j = 2; j < 5; j++)
        Bad += v[i][j] != i * 100 + j;
    expect("from a block", Bad);
    // The host's values of column 0 and 1 go in; a kernel reads them back.
    for (int i = 0; i < n; i++)
      v[i][0] = v[i][1] = 7;
#pragma omp target update device(*) to(v[0:n][0:2])
#pragma omp target device(*) topology([*][*])
#pragma omp parallel for collapse(2)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        v[i][j] += 1;
#pragma omp target update device(*) from(v[0:n][0:m])
    Bad = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        Bad += v[i][j] != (j < 2 ? 8 : i * 100 + j + 1);
    expect("to columns", Bad);
  }
  free(v);
  helperAndIf(n * m, 0);
  return failures != 0;
}
