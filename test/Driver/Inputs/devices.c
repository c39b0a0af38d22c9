// Runs one target region on every offload device and checks each result;
// homp.h is on the include path.
#include <homp.h>
#include <omp.h>
#include <stdio.h>

int main(void) {
  int n = omp_get_num_devices(), ok = n > 0 && homp_version()[0] != 0;
  for (int d = 0; d < n; ++d) {
    int v = -1;
#pragma omp target device(d) map(from: v)
    v = 10 * d + 7;
    ok &= v == 10 * d + 7;
  }
  printf("devices=%d %s\n", n, ok ? "ok" : "FAIL");
  return !ok;
}
