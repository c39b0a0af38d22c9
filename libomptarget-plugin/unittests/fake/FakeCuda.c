// A stand-in for the CUDA driver (libcuda.so.1) for GpuInfoTest: two GPUs
// with known numbers, answering only the calls GpuInfo.cpp makes, with
// cuda.h's types (CUresult 0: success, CUdevice an int).
#include <stddef.h>

static int Initialised, Pushed;

int cuInit(unsigned Flags) { Initialised = Flags == 0; return Initialised ? 0 : 1; }
int cuDeviceGetCount(int *N) { *N = 2; return Initialised ? 0 : 3; }
int cuDeviceGet(int *Dev, int Ordinal) { *Dev = 100 + Ordinal; return Ordinal < 2 ? 0 : 101; }
int cuDeviceTotalMem_v2(size_t *Bytes, int Dev) {
  *Bytes = (size_t)(Dev - 99) << 30; // 1 GiB, 2 GiB
  return 0;
}
int cuDeviceGetAttribute(int *V, int Attribute, int Dev) {
  if (Attribute == 16) { // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
    *V = Dev == 100 ? 132 : 108;
    return 0;
  }
  if (Attribute == 88) { // CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS
    *V = Dev == 100 ? 1 : 0;
    return 0;
  }
  if (Attribute == 75 || Attribute == 76) { // COMPUTE_CAPABILITY_MAJOR, MINOR
    *V = Attribute == 75 ? (Dev == 100 ? 9 : 8) : (Dev == 100 ? 0 : 6);
    return 0; // 9.0 (an H100), 8.6
  }
  return 1;
}
static int Current = -1;
int cuDevicePrimaryCtxRetain(void **Ctx, int Dev) { *Ctx = (void *)(long)Dev; return 0; }
int cuDevicePrimaryCtxRelease_v2(int Dev) { (void)Dev; return 0; }
int cuCtxPushCurrent_v2(void *Ctx) { Current = (int)(long)Ctx; ++Pushed; return 0; }
int cuCtxPopCurrent_v2(void **Ctx) { *Ctx = (void *)(long)Current; Current = -1; --Pushed; return 0; }
int cuMemGetInfo_v2(size_t *Free, size_t *Total) {
  if (Current < 0)
    return 201; // CUDA_ERROR_INVALID_CONTEXT
  *Total = (size_t)(Current - 99) << 30;
  *Free = *Total / 4;
  return 0;
}
// Whether every pushed context was popped (GpuInfoTest asks).
int fakeCudaBalanced(void) { return Pushed == 0; }
// Device memory lies in [0x1000, 0x2000), page-locked host memory in
// [0x3000, 0x4000); any other address is no CUDA allocation.
int cuPointerGetAttribute(void *Data, int Attribute, unsigned long long Ptr) {
  if (!Initialised || Attribute != 2) // CU_POINTER_ATTRIBUTE_MEMORY_TYPE
    return 1;
  if (Ptr >= 0x1000 && Ptr < 0x2000)
    *(unsigned *)Data = 2; // CU_MEMORYTYPE_DEVICE
  else if (Ptr >= 0x3000 && Ptr < 0x4000)
    *(unsigned *)Data = 1; // CU_MEMORYTYPE_HOST
  else
    return 1; // CUDA_ERROR_INVALID_VALUE
  return 0;
}
