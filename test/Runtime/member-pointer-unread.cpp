// A local pointer in a member function defined in its class, used by a
// kernel without a subscript ('q = p'), tells the plugin nothing of 'p':
// with 'p' in parts on several devices the kernel stops rather than run with
// iterations that do not match the parts (class-members.cpp has the uses
// that work, on any number of devices).
// REQUIRES: devices-2
// RUN: %hompcxx -O2 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// CHECK: homp: error: region {{.*}}member-pointer-unread.cpp:[[#]]:1: 'p' (distributed by the data region at {{.*}}member-pointer-unread.cpp:[[#]]:1) is used by the kernel, but the homp plugin did not know it as an array where the kernel's pragma is (a local of a member function defined in its class?), so the devices' iterations cannot be matched with its parts: name it in the kernel's map clause

struct Field {
  static const int N = 40;
  double u[N];
  void unread() {
    double *p = u;
#pragma omp target data device(*) map(tofrom: p[0:N] dist_data(BLOCK))
#pragma omp target teams distribute parallel for device(*)
    for (int i = 0; i < N; ++i) {
      double *q = p;
      q[i] *= 2;
    }
  }
};

int main() {
  Field F;
  F.unread();
  return 0;
}
