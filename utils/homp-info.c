// homp-info: what homp sees on this machine (libhomp's homp_print_info):
// devices, copy routes between them, the machine model, the environment
// variables homp reads, checked. Exits 1 when a variable is invalid.
//
// usage: homp-info [--json]
//
// It lists the devices of the offload targets it was built for (x86_64 by
// default); build it with hompcc --offload-arch=... to see GPUs too.
#include <stdio.h>
#include <string.h>

int homp_print_info(int json);

int main(int argc, char **argv) {
  int json = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--json")) {
      json = 1;
    } else {
      fprintf(stderr, "usage: %s [--json]\n", argv[0]);
      return strcmp(argv[i], "--help") && strcmp(argv[i], "-h") ? 2 : 0;
    }
  }
  // A target region gives the program an offload image, which makes
  // libomptarget bring up the devices of its targets.
  int on_device = 0;
#pragma omp target map(from: on_device)
  on_device = 1;
  (void)on_device;
  return homp_print_info(json);
}
