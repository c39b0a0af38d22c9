// A distributed array that is a member of a C++ object (a data region in a
// member function maps this->u) is refused with an error that says so; a
// pointer to the same member works.
// RUN: %hompcxx -O2 %s -o %t
// RUN: not %t member 2>&1 | FileCheck %s --check-prefix=MEMBER
// RUN: %t pointer 2>&1 | FileCheck %s --check-prefix=POINTER
// MEMBER: homp: error: region {{.*}}class-members.cpp:{{[0-9]+}}:1: a distributed array is a member of a mapped structure or class (such as 'this->u' in a member function); distributing members is not supported yet: distribute a pointer to it instead
// POINTER: PASS

#include <cstdio>
#include <cstring>

struct Grid {
  static const int N = 40;
  double u[N];
  void member() {
#pragma omp target data device(*) map(tofrom: u[0:N] dist_data(BLOCK))
#pragma omp target teams distribute parallel for device(*)
    for (int i = 0; i < N; ++i)
      u[i] += i;
  }
  void pointer() {
    double *p = u;
#pragma omp target data device(*) map(tofrom: p[0:N] dist_data(BLOCK))
#pragma omp target teams distribute parallel for device(*)
    for (int i = 0; i < N; ++i)
      p[i] += i;
  }
};

int main(int argc, char **argv) {
  Grid g;
  for (int i = 0; i < Grid::N; ++i)
    g.u[i] = 1;
  if (argc > 1 && !std::strcmp(argv[1], "member"))
    g.member();
  else
    g.pointer();
  int bad = 0;
  for (int i = 0; i < Grid::N; ++i)
    bad += g.u[i] != 1 + i;
  std::puts(bad ? "FAIL" : "PASS");
}
