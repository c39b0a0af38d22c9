// Distributed regions in C++: in function templates instantiated for
// several types, with 'auto' and 'std::size_t' loop variables, a lambda in
// the loop body, and std::vector data; a variable of the template's type
// mapped 'to' whole (a scalar in one instantiation, an array or a class in
// others), which standard OpenMP maps to every device.
// RUN: %hompcxx -O2 %s -o %t && %t 2>&1 | FileCheck %s --implicit-check-not=warning
// CHECK: PASS

#include <cstddef>
#include <cstdio>
#include <vector>

template <typename T> void scale(T *v, long n, T factor) {
#pragma omp target teams distribute parallel for device(*, host) \
    map(tofrom: v[0:n] dist_data(BLOCK))
  for (long i = 0; i < n; ++i) {
    auto twice = [](T x) { return x + x; };
    v[i] = twice(v[i]) * factor;
  }
}

template <typename T> T total(const T *v, std::size_t n) {
  T s = T();
#pragma omp target teams distribute parallel for device(0:3) \
    map(to: v[0:n] dist_data(BLOCK)) reduction(+: s)
  for (std::size_t i = 0; i < n; ++i)
    s += v[i];
  return s;
}

template <typename T, typename F> void multiply(T *v, long n, F f) {
#pragma omp target device(*) map(tofrom: v[0:n] dist_data(BLOCK)) map(to: f)
#pragma omp parallel for
  for (long i = 0; i < n; ++i)
    v[i] = v[i] * f[i % 4];
}

template <typename T> void multiply(T *v, long n, T f) {
#pragma omp target device(*) map(tofrom: v[0:n] dist_data(BLOCK)) map(to: f)
#pragma omp parallel for
  for (long i = 0; i < n; ++i)
    v[i] = v[i] * f;
}

template <typename A> void multiplyByArray(double *v, long n, const A &f) {
#pragma omp target device(*) map(tofrom: v[0:n] dist_data(BLOCK)) map(to: f)
#pragma omp parallel for
  for (long i = 0; i < n; ++i)
    v[i] = v[i] * f[i % 4];
}

struct Four {
  double v[4];
  double operator[](long i) const { return v[i]; }
};

// An 'auto' loop variable takes the initial value's type.
void iota(long *v, long n) {
#pragma omp target teams distribute parallel for device(0:4) \
    map(from: v[0:n] dist_data(BLOCK))
  for (auto i = 0L; i < n; i += 1)
    v[i] = i;
}

int main() {
  const long n = 999;
  std::vector<int> a(n);
  std::vector<double> b(n);
  for (long i = 0; i < n; ++i) {
    a[i] = int(i);
    b[i] = 0.5 * double(i);
  }
  scale(a.data(), n, 3);
  scale(b.data(), n, 2.0);
  int bad = 0;
  for (long i = 0; i < n; ++i)
    bad += a[i] != 6 * i || b[i] != 2.0 * double(i);
  long long sa = total(a.data(), std::size_t(n)), want = 6LL * (n - 1) * n / 2;
  bad += sa != want;
  bad += total(b.data(), std::size_t(n)) != double((n - 1) * n);
  std::vector<long> c(n, -1);
  iota(c.data(), n);
  for (long i = 0; i < n; ++i)
    bad += c[i] != i;
  std::vector<double> d(n, 1.0);
  std::vector<int> e(n, 2);
  multiply(d.data(), n, 3.0);
  multiply(e.data(), n, 5);
  multiply(d.data(), n, Four{{1, 2, 3, 4}});
  double f[4] = {2, 2, 2, 2};
  multiplyByArray(d.data(), n, f);
  for (long i = 0; i < n; ++i)
    bad += d[i] != 6.0 * double(i % 4 + 1) || e[i] != 10;
  std::puts(bad ? "FAIL" : "PASS");
  return bad != 0;
}
