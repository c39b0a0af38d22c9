// Transparency: 'task' with 'depend', 'taskwait', 'taskgroup', 'taskloop'
// (with grainsize and num_tasks) and 'taskloop simd' compile to the same IR
// with and without homp, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang_x86 %s -o %t.ref -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcc %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

#define N 100

static int fib(int n) {
  if (n < 2)
    return n;
  int x, y;
#pragma omp task shared(x) firstprivate(n) if (n > 8)
  x = fib(n - 1);
#pragma omp task shared(y) firstprivate(n) if (n > 8)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

int main(void) {
  // A dependence chain: x = 1, then x = x * 10 + 2, then x = x * 10 + 3,
  // which only gives 123 if the three tasks run in order.
  int x = 0, y = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task depend(out : x) shared(x)
    x = 1;
#pragma omp task depend(inout : x) shared(x)
    x = x * 10 + 2;
#pragma omp task depend(inout : x) shared(x)
    x = x * 10 + 3;
    // Reads x after the chain: y = 123 + 1.
#pragma omp task depend(in : x) depend(out : y) shared(x, y)
    y = x + 1;
#pragma omp taskwait
  }
  // CHECK: chain=123 after=124
  printf("chain=%d after=%d\n", x, y);

  // fib(15) = 610.
  int f = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  f = fib(15);
  // CHECK: fib=610
  printf("fib=%d\n", f);

  // taskgroup waits for all tasks created in it: 10 tasks each add
  // 1..10 atomically: 55.
  int tg = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp taskgroup
    {
      for (int i = 1; i <= 10; ++i) {
#pragma omp task firstprivate(i) shared(tg)
        {
#pragma omp atomic
          tg += i;
        }
      }
    }
  }
  // CHECK: taskgroup=55
  printf("taskgroup=%d\n", tg);

  // taskloop: a[i] = i; grainsize: a[i] += 1; num_tasks: a[i] *= 2.
  // sum = 2 * (4950 + 100) = 10100.
  int a[N];
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp taskloop
    for (int i = 0; i < N; ++i)
      a[i] = i;
#pragma omp taskloop grainsize(10)
    for (int i = 0; i < N; ++i)
      a[i] += 1;
#pragma omp taskloop num_tasks(4)
    for (int i = 0; i < N; ++i)
      a[i] *= 2;
  }
  long s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i];
  // CHECK: taskloop=10100
  printf("taskloop=%ld\n", s);

  // 'taskloop' and 'taskloop simd' with reductions: sum 1..100 = 5050; sum
  // of 2 i for i < 100 = 9900.
  long r = 0, q = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp taskloop reduction(+ : r)
    for (int i = 1; i <= N; ++i)
      r += i;
#pragma omp taskloop simd reduction(+ : q)
    for (int i = 0; i < N; ++i)
      q += 2 * i;
  }
  // CHECK: taskloop_reduction=5050 taskloop_simd=9900
  printf("taskloop_reduction=%ld taskloop_simd=%ld\n", r, q);

  // Tasks inside a target region: 1 + 2 + 3 = 6.
  int t = 0;
#pragma omp target map(tofrom : t)
  {
#pragma omp task depend(out : t) shared(t)
    t += 1;
#pragma omp task depend(inout : t) shared(t)
    t += 2;
#pragma omp task depend(inout : t) shared(t)
    t += 3;
#pragma omp taskwait
  }
  // CHECK: target_tasks=6
  printf("target_tasks=%d\n", t);
  return 0;
}
