//===-- Handles.h - Device ids that stand for homp constructs ---*- C++ -*-===//
//
// A marker call returns a handle in place of a device id; clang passes it
// on to the offload entry points that the homp pass redirected to libhomp,
// which recognise it. Handles are positive numbers no device id comes
// near, so libomptarget never sees one.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_HANDLES_H
#define HOMP_LIBOMPTARGET_PLUGIN_HANDLES_H

#include <cstdint>

namespace homp {

/// What a handle points at: a kernel launch or a data construct.
struct Instance {
  static constexpr uint64_t Magic = 0x686f6d70696e7374ULL;
  enum KindTy : uint32_t { Kernel = 1, Data = 2 };

  explicit Instance(KindTy K) : Kind(K) {}
  virtual ~Instance() { Check = 0; }

  uint64_t Check = Magic;
  KindTy Kind;
};

/// The device id that makes a construct run on the host (clang's own
/// fallback path) or, for data constructs, do nothing.
constexpr int64_t HostFallback = static_cast<int64_t>(0x4850ULL << 48);

int64_t handleOf(Instance *I);
/// The instance of a handle; nullptr for any other device id.
Instance *instanceOf(int64_t DeviceId);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_HANDLES_H
