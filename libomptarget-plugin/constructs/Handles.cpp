//===-- Handles.cpp - Device ids that stand for homp constructs -----------===//

#include "Handles.h"

namespace homp {

// A handle is the instance's address with a tag in the (unused) top bits.
static constexpr uint64_t HandleTag = 0x4850ULL << 48;
static constexpr uint64_t HandleMask = 0xffffULL << 48;

int64_t handleOf(Instance *I) {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(I) | HandleTag);
}

Instance *instanceOf(int64_t DeviceId) {
  uint64_t Bits = static_cast<uint64_t>(DeviceId);
  if ((Bits & HandleMask) != HandleTag || (Bits & ~HandleMask) == 0)
    return nullptr;
  auto *I = reinterpret_cast<Instance *>(Bits & ~HandleMask);
  return I->Check == Instance::Magic ? I : nullptr;
}

} // namespace homp
