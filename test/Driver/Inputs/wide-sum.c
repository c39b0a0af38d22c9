// A reduction that calls libatomic (16 bytes) and one that calls libm
// (max of _Float16): the program links through hompcc or the CMake package,
// which link those where needed. (x86_64 only: the conversion from double
// to __int128 has no NVPTX version in clang 19, so a GPU build fails; see
// test/Runtime/wide-reductions.c for a test that builds for GPUs.)
#include <stdio.h>

int main(void) {
  enum { N = 100 };
  static double x[N];
  for (int i = 0; i < N; i++)
    x[i] = i;
  __int128 s = 0;
  _Float16 h = 0;
#pragma omp target teams distribute parallel for device(*) map(to: x[0:N] dist_data(BLOCK)) reduction(+: s)
  for (int i = 0; i < N; i++)
    s += (__int128)x[i];
#pragma omp target teams distribute parallel for device(*) map(to: x[0:N] dist_data(BLOCK)) reduction(max: h)
  for (int i = 0; i < N; i++)
    h = (_Float16)x[i] > h ? (_Float16)x[i] : h;
  printf("wide %s\n", s == 4950 && h == 99 ? "ok" : "FAIL");
  return 0;
}
