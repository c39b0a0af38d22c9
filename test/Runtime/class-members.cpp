// Distributed arrays that are data members of a C++ object, in member
// functions defined inside and outside the class: a fixed-size member array
// in a 'target data' region, pointer-to-rows members with a halo kept by
// 'target enter data' and mapped again by the kernels, members declared
// after the member function that uses them (in a kernel's map clause, or
// resident and used without one), a local pointer in a member function
// defined in the class (with and without a map clause; the error that
// stops a kernel that uses it without a subscript is member-pointer-unread.cpp's), a class template whose pointers are swapped inside the data
// region, and a reduction in a const member function. Each device must get its own part (owner computes), not the
// host's pointer through 'this'. Results are compared with sequential code,
// with and without HOMP_INFO (without it, kernels on resident data run
// asynchronously).
// RUN: %hompcxx -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not=homp: --implicit-check-not=FAIL
// RUN: env HOMP_INFO=1 %t 2>&1 | FileCheck %s --check-prefixes=INFO,INFO-%ndev --allow-unused-prefixes -DDEVICES="%devices" --implicit-check-not=FAIL
// RUN: %hompcxx -O2 -DDEVS="0:3" -DROWS=37 %s -o %t.3 && %t.3 2>&1 | FileCheck %s --implicit-check-not=FAIL
// RUN: %hompcxx -O2 -DDEVS="*, host" %s -o %t.h && %t.h 2>&1 | FileCheck %s --implicit-check-not=FAIL
// CHECK: PASS
//
// The stencil's rows follow the arrays' parts: 48 rows [1, 49) of 50 (on
// four devices that hold 13, 13, 12 and 12 rows).
// INFO: homp: region {{.*}}class-members.cpp:{{[0-9]+}}:1: 48 iterations on [[DEVICES]]
// INFO-NEXT: device
// INFO-4-NEXT: homp:   0        CPU    [1, 13)
// INFO-4-NEXT: homp:   1        CPU    [13, 26)
// INFO-4-NEXT: homp:   2        CPU    [26, 38)
// INFO-4-NEXT: homp:   3        CPU    [38, 49)
// INFO: PASS

#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#ifndef DEVS
#define DEVS *
#endif
#ifndef ROWS
#define ROWS 50
#endif
#define COLS 16

static int failures;

static void expect(bool Ok, const char *What, int I, int J) {
  if (!Ok && failures++ < 5)
    std::printf("FAIL %s at [%d][%d]\n", What, I, J);
}

// A fixed-size member array in a data region; the kernel uses it without
// a map clause of its own.
struct Field {
  static const int N = 40;
  double u[N];
  void add() {
#pragma omp target data device(DEVS) map(tofrom: u[0:N] dist_data(BLOCK))
#pragma omp target teams distribute parallel for device(DEVS)
    for (int i = 0; i < N; ++i)
      u[i] += i;
  }
  // A local pointer in a member function defined in the class: at the
  // pragma it is not declared yet (the function's body is parsed once the
  // class is complete), so the kernel names it in its map clause.
  void twice() {
    double *p = u;
#pragma omp target data device(DEVS) map(tofrom: p[0:N] dist_data(BLOCK))
#pragma omp target teams distribute parallel for device(DEVS) map(tofrom: p[0:N])
    for (int i = 0; i < N; ++i)
      p[i] *= 2;
  }
  // Without the map clause: 'p' is subscripted, so the plugin takes it for
  // an array whose type is known only once the class is complete. Arrays
  // the body itself declares ('t', 'c', after a comma) are left alone:
  // they do not exist where the region begins.
  void implicit() {
    double *p = u;
#pragma omp target data device(DEVS) map(tofrom: p[0:N] dist_data(BLOCK))
#pragma omp target teams distribute parallel for device(DEVS)
    for (int i = 0; i < N; ++i) {
      double t[2] = {1, 0.5}, s, c[2];
      c[1] = t[1];
      s = c[1] * 2;
      p[i] *= 3 * s;
    }
  }
};

// Pointer-to-rows members with a halo: Jacobi-like sweeps whose kernels
// map the resident arrays again.
struct Grid {
  int n;
  double (*u)[COLS];
  double (*v)[COLS];
  explicit Grid(int Rows) : n(Rows) {
    u = static_cast<double (*)[COLS]>(std::malloc(sizeof(double) * n * COLS));
    v = static_cast<double (*)[COLS]>(std::malloc(sizeof(double) * n * COLS));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < COLS; ++j) {
        u[i][j] = i * 100 + j;
        v[i][j] = 0;
      }
  }
  ~Grid() {
    std::free(u);
    std::free(v);
  }
  void sweepsInside(int Sweeps) {
#pragma omp target enter data device(DEVS) \
    map(to: u[0:n][0:COLS] dist_data(BLOCK, *) halo(1, )) \
    map(to: v[0:n][0:COLS] dist_data(BLOCK, *))
    for (int s = 0; s < Sweeps; ++s) {
#pragma omp target device(DEVS) map(to: u[0:n][0:COLS]) map(tofrom: v[0:n][0:COLS])
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 1; i < n - 1; ++i)
        for (int j = 0; j < COLS; ++j)
          v[i][j] = (u[i - 1][j] + u[i + 1][j]) / 2;
#pragma omp target device(DEVS) map(tofrom: u[0:n][0:COLS]) map(to: v[0:n][0:COLS])
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 1; i < n - 1; ++i)
        for (int j = 0; j < COLS; ++j)
          u[i][j] = v[i][j] + 1;
#pragma omp halo_exchange(u)
    }
#pragma omp target exit data device(DEVS) map(from: u[0:n][0:COLS]) \
    map(from: v[0:n][0:COLS])
  }
  void sweepsOutside(int Sweeps);
};

void Grid::sweepsOutside(int Sweeps) {
#pragma omp target data device(DEVS) \
    map(tofrom: u[0:n][0:COLS] dist_data(BLOCK, *) halo(1, )) \
    map(tofrom: v[0:n][0:COLS] dist_data(BLOCK, *))
  for (int s = 0; s < Sweeps; ++s) {
#pragma omp target device(DEVS)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 1; i < n - 1; ++i)
      for (int j = 0; j < COLS; ++j)
        v[i][j] = (u[i - 1][j] + u[i + 1][j]) / 2;
#pragma omp target device(DEVS)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 1; i < n - 1; ++i)
      for (int j = 0; j < COLS; ++j)
        u[i][j] = v[i][j] + 1;
#pragma omp halo_exchange(u)
  }
}

static void sweepsSequential(int n, double (*u)[COLS], double (*v)[COLS],
                             int Sweeps) {
  for (int s = 0; s < Sweeps; ++s) {
    for (int i = 1; i < n - 1; ++i)
      for (int j = 0; j < COLS; ++j)
        v[i][j] = (u[i - 1][j] + u[i + 1][j]) / 2;
    for (int i = 1; i < n - 1; ++i)
      for (int j = 0; j < COLS; ++j)
        u[i][j] = v[i][j] + 1;
  }
}

static void checkGrid(const Grid &G, int Sweeps, const char *What) {
  Grid R(G.n);
  sweepsSequential(R.n, R.u, R.v, Sweeps);
  for (int i = 0; i < G.n; ++i)
    for (int j = 0; j < COLS; ++j) {
      expect(G.u[i][j] == R.u[i][j], What, i, j);
      expect(i == 0 || i == G.n - 1 || G.v[i][j] == R.v[i][j], What, i, j);
    }
}

// A class template: the members' type is dependent where the pragmas are.
// The pointers are swapped inside the data region, through the members.
template <typename T> struct Smooth {
  int n;
  T *u, *v;
  std::vector<T> store; // u and v side by side
  explicit Smooth(int N) : n(N), store(2 * N) {
    u = store.data();
    v = u + n;
    for (int i = 0; i < n; ++i)
      u[i] = v[i] = T(i % 7);
  }
  void run(int Sweeps) {
#pragma omp target data device(DEVS) \
    map(tofrom: u[0:n] dist_data(BLOCK) halo(1)) \
    map(tofrom: v[0:n] dist_data(BLOCK) halo(1))
    for (int s = 0; s < Sweeps; ++s) {
#pragma omp target device(DEVS)
#pragma omp parallel for dist_iteration(BLOCK)
      for (int i = 1; i < n - 1; ++i)
        v[i] = (u[i - 1] + u[i + 1]) / 2;
      std::swap(u, v);
#pragma omp halo_exchange(u)
    }
  }
};

static void checkSmooth(int n, int Sweeps) {
  Smooth<double> S(n);
  S.run(Sweeps);
  std::vector<double> a(n), b(n);
  for (int i = 0; i < n; ++i)
    a[i] = b[i] = i % 7;
  for (int s = 0; s < Sweeps; ++s) {
    for (int i = 1; i < n - 1; ++i)
      b[i] = (a[i - 1] + a[i + 1]) / 2;
    std::swap(a, b);
  }
  for (int i = 0; i < n; ++i)
    expect(S.u[i] == a[i], "Smooth<double>::run", i, 0);
}

// Members declared after the member function that distributes them, and a
// reduction in a const member function.
class Late {
public:
  void fill() {
#pragma omp target device(DEVS) map(from: a[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; ++i)
      a[i] = 3 * i;
  }
  // A data region keeps 'a' on the devices; the kernel uses it without
  // naming it ('a' is declared further down).
  void twiceInside() {
#pragma omp target data device(DEVS) map(tofrom: a[0:n] dist_data(BLOCK))
#pragma omp target device(DEVS)
#pragma omp parallel for dist_iteration(BLOCK)
    for (int i = 0; i < n; ++i)
      a[i] *= 2;
  }
  long sum() const {
    long s = 0;
#pragma omp target device(DEVS) map(to: a[0:n] dist_data(BLOCK))
#pragma omp parallel for dist_iteration(BLOCK) reduction(+ : s)
    for (int i = 0; i < n; ++i)
      s += a[i];
    return s;
  }
  explicit Late(int N) : n(N), a(new long[N]()) {}
  ~Late() { delete[] a; }

private:
  int n;
  long *a;
};

int main() {
  Field F;
  for (int i = 0; i < Field::N; ++i)
    F.u[i] = 1;
  F.add();
  F.twice();
  F.implicit();
  for (int i = 0; i < Field::N; ++i)
    expect(F.u[i] == 3 * 2 * (1 + i), "Field", i, 0);

  Grid In(ROWS);
  In.sweepsInside(3);
  checkGrid(In, 3, "Grid::sweepsInside");
  Grid Out(ROWS);
  Out.sweepsOutside(3);
  checkGrid(Out, 3, "Grid::sweepsOutside");

  checkSmooth(2 * ROWS + 3, 4);

  Late L(1001);
  L.fill();
  expect(L.sum() == 3L * 1000 * 1001 / 2, "Late::sum", 0, 0);
  L.twiceInside();
  expect(L.sum() == 6L * 1000 * 1001 / 2, "Late::twiceInside", 0, 0);

  std::puts(failures ? "FAIL" : "PASS");
  return failures != 0;
}
