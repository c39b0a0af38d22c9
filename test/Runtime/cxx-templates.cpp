// Distributed regions in C++: in function templates instantiated for
// several types, with 'auto' and 'std::size_t' loop variables, a lambda in
// the loop body, and std::vector data.
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
  std::puts(bad ? "FAIL" : "PASS");
  return bad != 0;
}
