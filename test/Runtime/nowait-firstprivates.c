// Kernels that do not wait for their devices (over resident arrays, or
// 'nowait') see the firstprivates clang passes by reference (wider than a
// pointer: a 'double _Complex', a 'long double', a struct) as they were
// when the construct ran: once, each
// device read them when it launched, after the program had changed the
// variable or left the helper whose frame held it (100000 of 100000 wrong;
// right under HOMP_INFO, which waits). Checked against sequential values;
// the kernels also repeat (Replay.h), with the values changing each time.
// (A 'nowait' target task with such a firstprivate adds each value twice
// in clang 19 itself, without homp: the task case passes a double.)
// RUN: %hompcc -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env HOMP_INFO=1 %t 2>/dev/null | FileCheck %s
// RUN: env HOMP_DEVICES=1,2 %t | FileCheck %s
// CHECK: 16-byte scalar: PASS
// CHECK: struct from a helper: PASS
// CHECK: nowait in a task: PASS

#include <stdio.h>
#include <string.h>

enum { N = 100000 };
static double y[N];

struct Params {
  double a, b, c, d, e;
};

static void addFrom(int n, struct Params p) {
  struct Params q = p; // the helper's frame is gone when the devices run
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
  for (int i = 0; i < n; ++i)
    y[i] += q.a + q.e;
}

static void clobber(void) {
  volatile char Junk[8192];
  memset((char *)Junk, 0x7f, sizeof Junk);
}

static int expect(const char *What, double Want) {
  int Bad = 0;
  for (int i = 0; i < N; ++i)
    Bad += y[i] != Want;
  printf("%s: %s\n", What, Bad ? "FAIL" : "PASS");
  return Bad;
}

int main(void) {
  int n = N, Bad = 0;
  for (int i = 0; i < n; ++i)
    y[i] = 0;
#pragma omp target data device(*) map(tofrom: y[0:n] dist_data(BLOCK))
  {
    double Want = 0;
    // (A 'long double', passed the same way, does not compile for GPUs.)
    double _Complex c = 1;
    for (int Step = 0; Step < 5; ++Step, c += 1) {
      Want += __real__ c;
#pragma omp target device(*)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 0; i < n; ++i)
        y[i] += __real__ c;
      c += 100; // before the devices ran, once
      c -= 100;
    }
    c = 1e6;
#pragma omp target update device(*) from(y[0:n])
    Bad += expect("16-byte scalar", Want);
    for (int Step = 0; Step < 5; ++Step) {
      struct Params p = {Step, 0, 0, 0, 2};
      Want += Step + 2;
      addFrom(n, p);
      clobber();
    }
#pragma omp target update device(*) from(y[0:n])
    Bad += expect("struct from a helper", Want);
#pragma omp parallel
#pragma omp single
    {
      for (int Step = 0; Step < 5; ++Step) {
        double v = Step * 10;
        Want += Step * 10;
#pragma omp target device(*) nowait depend(inout: y[0])
#pragma omp parallel for dist_iteration(BLOCK)
        for (int i = 0; i < n; ++i)
          y[i] += v;
        v = -1;
      }
#pragma omp taskwait
    }
#pragma omp target update device(*) from(y[0:n])
    Bad += expect("nowait in a task", Want);
  }
  return Bad != 0;
}
