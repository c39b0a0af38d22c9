// A stand-in for the HSA runtime (libhsa-runtime64.so.1) for GpuInfoTest:
// a CPU agent and two GPU agents with a fine- and a coarse-grained global
// pool each, answering only the calls GpuInfo.cpp makes, with hsa.h's
// values.
#include <stddef.h>
#include <stdint.h>

typedef struct { uint64_t handle; } hsa_agent_t;
typedef struct { uint64_t handle; } hsa_amd_memory_pool_t;

static int Users;

int hsa_init(void) { ++Users; return 0; }
int hsa_shut_down(void) { return Users-- > 0 ? 0 : 1; }
int hsa_iterate_agents(int (*Callback)(hsa_agent_t, void *), void *Data) {
  for (uint64_t A = 0; A < 3; ++A) {
    hsa_agent_t Agent = {A};
    int S = Callback(Agent, Data);
    if (S != 0)
      return S;
  }
  return 0;
}
int hsa_agent_get_info(hsa_agent_t Agent, int Attribute, void *Value) {
  if (Attribute == 0) { // HSA_AGENT_INFO_NAME: char[64], all of it written
    const char *Name = Agent.handle == 0   ? "AMD EPYC"
                       : Agent.handle == 1 ? "gfx90a"
                                           : "gfx1030";
    char *Out = (char *)Value;
    for (int I = 0; I < 64; ++I)
      Out[I] = *Name ? *Name++ : 0;
    return 0;
  }
  if (Attribute == 17) { // HSA_AGENT_INFO_DEVICE: 0 CPU, 1 GPU
    *(int *)Value = Agent.handle == 0 ? 0 : 1;
    return 0;
  }
  if (Attribute == 0xA002) { // HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT
    *(uint32_t *)Value = Agent.handle == 1 ? 110 : 104;
    return 0;
  }
  return 1;
}
int hsa_amd_agent_iterate_memory_pools(hsa_agent_t Agent,
                                       int (*Callback)(hsa_amd_memory_pool_t, void *),
                                       void *Data) {
  for (uint64_t P = 0; P < 2; ++P) {
    hsa_amd_memory_pool_t Pool = {Agent.handle * 2 + P};
    Callback(Pool, Data);
  }
  return 0;
}
int hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t Pool, int Attribute, void *Value) {
  switch (Attribute) {
  case 0: // SEGMENT: global
    *(int *)Value = 0;
    return 0;
  case 1: // GLOBAL_FLAGS: pool 0 fine-grained (2), pool 1 coarse-grained (4)
    *(uint32_t *)Value = Pool.handle % 2 ? 4 : 2;
    return 0;
  case 2: // SIZE: 64 GiB on agent 1, 128 GiB on agent 2; fine pools 1 byte
    *(size_t *)Value = Pool.handle % 2 ? (size_t)(Pool.handle / 2) << 36 : 1;
    return 0;
  }
  return 1;
}
// GPU memory lies in [0x5000, 0x6000), locked host memory in
// [0x7000, 0x8000); HSA knows nothing of any other address (type 0).
typedef struct {
  uint32_t size;
  int type;
} hsa_amd_pointer_info_head;
int hsa_amd_pointer_info(const void *P, hsa_amd_pointer_info_head *Info,
                         void *(*Alloc)(size_t), uint32_t *Agents,
                         void *Accessible) {
  (void)Alloc, (void)Agents, (void)Accessible;
  if (Users <= 0 || Info->size < sizeof(*Info))
    return 1;
  uintptr_t A = (uintptr_t)P;
  Info->type = A >= 0x5000 && A < 0x6000   ? 1
               : A >= 0x7000 && A < 0x8000 ? 2
                                           : 0;
  return 0;
}
// How many hsa_init calls are not yet shut down (GpuInfoTest asks).
int fakeHsaUsers(void) { return Users; }
