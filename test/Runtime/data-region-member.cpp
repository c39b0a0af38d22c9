// A labelled AUTO loop of a data region inside a member function defined
// in its class: the loop's bounds use a local declared before the region.
// homp reads such a function's pragmas while clang stores its body, before
// the locals are known; it used to refuse the bound ("not declared before
// the data region"). The result is the sequential one.
// RUN: %hompcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefix=INFO
// CHECK: PASS 300007
// INFO: the AUTO loop 'sweep' {{keeps the split its data region gave it|runs its chunks where they ran before \(memorizing dynamic\)}}
// INFO: PASS

#include <cstdio>
#include <vector>

struct Grid {
  std::vector<double> a, b;
  int n;
  explicit Grid(int n) : a(n, 1.0), b(n, 0.0), n(n) {}
  double run(int steps) {
    double *x = a.data(), *y = b.data();
    int m = n;
#pragma omp parallel target data device(*) map(to: x[0:m] partition([ALIGN(sweep)])) \
    map(tofrom: y[0:m] partition([ALIGN(sweep)]))
    {
      for (int t = 0; t < steps; ++t) {
#pragma omp parallel target device(*)
#pragma omp parallel for distribute dist_schedule(target: [AUTO])
      sweep:
        for (int i = 0; i < m; ++i)
          y[i] += 0.5 * x[i] + i % 3;
      }
    }
    double s = 0;
    for (int i = 0; i < m; ++i)
      s += y[i];
    return s;
  }
};

int main() {
  Grid g(100003);
  double got = g.run(2), want = 0;
  for (int i = 0; i < 100003; ++i)
    want += 2 * (0.5 + i % 3);
  std::printf("%s %.0f\n", got == want ? "PASS" : "FAIL", got);
  return got != want;
}
