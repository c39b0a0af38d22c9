// A local pointer in a member function defined in its class, used by a
// kernel without a subscript ('q = p'), tells the plugin nothing of 'p':
// with 'p' in parts on several devices homp cannot match the devices'
// iterations with its parts, so the kernel runs on the host with 'p'
// gathered there from the devices and copied back to them after, with a
// warning that names the array (class-members.cpp has the uses that run
// on the devices, on any number of them). Checked against sequential code.
// REQUIRES: devices-2
// RUN: %hompcxx -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// CHECK: homp: warning: region {{.*}}member-pointer-unread.cpp:[[#]]:1: 'p' (distributed by the data region at {{.*}}member-pointer-unread.cpp:[[#]]:1) is used by the kernel, but the homp plugin did not know it as an array where the kernel's pragma is (a local of a member function defined in its class?), so homp cannot bound the elements the loop uses: name it in the kernel's map clause; running it on the host, with the resident arrays it uses gathered there
// CHECK-NOT: homp: warning
// CHECK: PASS

#include <cstdio>

struct Field {
  static const int N = 40;
  double u[N];
  void unread() {
    double *p = u;
#pragma omp target data device(*) map(tofrom: p[0:N] dist_data(BLOCK))
    for (int Step = 0; Step < 2; ++Step) {
#pragma omp target teams distribute parallel for device(*)
      for (int i = 0; i < N; ++i) {
        double *q = p;
        q[i] = 2 * q[i] + i;
      }
    }
  }
};

int main() {
  Field F;
  double Want[Field::N];
  for (int i = 0; i < Field::N; ++i)
    F.u[i] = Want[i] = i % 7;
  for (int Step = 0; Step < 2; ++Step)
    for (int i = 0; i < Field::N; ++i)
      Want[i] = 2 * Want[i] + i;
  F.unread();
  int Bad = 0;
  for (int i = 0; i < Field::N; ++i)
    Bad += F.u[i] != Want[i];
  std::puts(Bad ? "FAIL" : "PASS");
  return Bad != 0;
}
