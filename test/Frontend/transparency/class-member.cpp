// Transparency: C++ member functions containing target regions that use
// 'this' members (scalars and an array member mapped through 'this->'),
// a const member function, a static member function, and a class with a
// target region in its constructor, compile to the same IR with and without
// homp, and run the same.
// RUN: %compare_ir %s | FileCheck %s --check-prefix=IR
// RUN: %clang -x c++ -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu %s -o %t.ref -lstdc++ -Wl,-rpath,%llvm_lib && %t.ref > %t.ref.out
// RUN: %hompcxx %s -o %t && %t > %t.out
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file=%t.out
// IR: identical IR and diagnostics

#include <stdio.h>

class Vector {
public:
  enum { N = 32 };

  // The constructor fills the array on the device: v[i] = i.
  Vector() : scale(1), offset(0) {
#pragma omp target map(from : this->v[0:N])
    for (int i = 0; i < N; ++i)
      v[i] = i;
  }

  // Uses 'this' scalars implicitly inside the region.
  void transform() {
#pragma omp target teams distribute parallel for map(tofrom : v[0:N]) map(to : scale, offset)
    for (int i = 0; i < N; ++i)
      v[i] = scale * v[i] + offset;
  }

  long sum() const {
    long s = 0;
#pragma omp target map(to : this->v[0:N]) map(tofrom : s)
    for (int i = 0; i < N; ++i)
      s += v[i];
    return s;
  }

  // A member accessed through 'this' in a target data region with an
  // update in the middle.
  long sum_after_update(int add) {
    long s = 0;
#pragma omp target data map(to : v[0:N])
    {
      for (int i = 0; i < N; ++i)
        v[i] += add;
#pragma omp target update to(this->v[0:N])
#pragma omp target map(tofrom : s)
      for (int i = 0; i < N; ++i)
        s += v[i];
    }
    return s;
  }

  static int dot(int n) {
    int d = 0;
#pragma omp target map(tofrom : d)
    for (int i = 0; i < n; ++i)
      d += i * i;
    return d;
  }

  int scale;
  int offset;

private:
  int v[N];
};

int main() {
  Vector x;
  // 0 + 1 + ... + 31 = 496.
  // CHECK: constructed=496
  printf("constructed=%ld\n", x.sum());

  // v[i] = 3 i + 2: 3 * 496 + 64 = 1552.
  x.scale = 3;
  x.offset = 2;
  x.transform();
  // CHECK: transformed=1552
  printf("transformed=%ld\n", x.sum());

  // Adding 1 to each of 32 elements: 1552 + 32 = 1584.
  // CHECK: updated=1584
  printf("updated=%ld\n", x.sum_after_update(1));

  // Sum of i^2 for i < 10 = 285.
  // CHECK: static=285
  printf("static=%d\n", Vector::dot(10));
  return 0;
}
