// Lists the offload devices the OpenMP runtime sees and the kind of each:
// a target region on the device reports which image ran there (the device
// compile of each offload target defines its own architecture macros).
// Prints one line per device, then "offload devices: N (G GPU, C CPU)".
#include <omp.h>
#include <stdio.h>

enum Kind { Failed, Nvidia, Amd, Cpu };

static const char *kindName(int Kind) {
  switch (Kind) {
  case Nvidia:
    return "NVIDIA GPU (nvptx image)";
  case Amd:
    return "AMD GPU (amdgcn image)";
  case Cpu:
    return "CPU offload device (x86_64 image)";
  default:
    return "did not run a target region";
  }
}

int main(void) {
  int N = omp_get_num_devices(), Gpus = 0, Cpus = 0;
  for (int D = 0; D < N; ++D) {
    int Kind = Failed;
#pragma omp target device(D) map(from : Kind)
    {
#if defined(__NVPTX__)
      Kind = Nvidia;
#elif defined(__AMDGPU__)
      Kind = Amd;
#else
      Kind = Cpu;
#endif
    }
    Gpus += Kind == Nvidia || Kind == Amd;
    Cpus += Kind == Cpu;
    printf("device %d: %s\n", D, kindName(Kind));
  }
  printf("offload devices: %d (%d GPU, %d CPU)\n", N, Gpus, Cpus);
  return 0;
}
