//===-- KernelArgs.h - libomptarget 19's kernel launch ABI ------*- C++ -*-===//
//
// Debian installs libomptarget without its headers, so the kernel-argument
// struct that clang passes to __tgt_target_kernel is mirrored here. The
// layout is fixed by the version number clang stores in it.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_KERNELARGS_H
#define HOMP_LIBOMPTARGET_PLUGIN_KERNELARGS_H

#include <cstddef>
#include <cstdint>

namespace homp {

/// The only layout homp understands: LLVM 19's.
constexpr uint32_t SupportedKernelArgsVersion = 3;

/// Map-type bits of ArgTypes entries (libomptarget's OMP_TGT_MAPTYPE_*).
enum MapType : int64_t {
  MapTo = 0x01,
  MapFrom = 0x02,
  MapAlways = 0x04,
  MapDelete = 0x08,
  MapPtrAndObj = 0x10,
  MapTargetParam = 0x20,
  MapReturnParam = 0x40,
  MapPrivate = 0x80,
  MapLiteral = 0x100,
  MapImplicit = 0x200,
  MapClose = 0x400,
  MapPresent = 0x1000,
  /// A non-contiguous section ('target update' of v[0:n][1:m-1]): the
  /// entry's pointer is a descriptor of its dimensions, its base the array.
  MapNonContig = 0x100000000000,
  MapMemberOfMask = static_cast<int64_t>(0xffff000000000000ULL),
};

struct KernelArgs {
  uint32_t Version;
  uint32_t NumArgs;
  void **ArgBasePtrs;
  void **ArgPtrs;
  int64_t *ArgSizes;
  int64_t *ArgTypes;
  void **ArgNames;
  void **ArgMappers;
  uint64_t Tripcount;
  uint64_t Flags;
  uint32_t NumTeams[3];
  uint32_t ThreadLimit[3];
  uint32_t DynCGroupMem;
};

static_assert(offsetof(KernelArgs, ArgBasePtrs) == 8, "LLVM 19 layout");
static_assert(offsetof(KernelArgs, Tripcount) == 56, "LLVM 19 layout");
static_assert(offsetof(KernelArgs, NumTeams) == 72, "LLVM 19 layout");
static_assert(offsetof(KernelArgs, DynCGroupMem) == 96, "LLVM 19 layout");
static_assert(sizeof(KernelArgs) == 104, "LLVM 19 layout");

} // namespace homp

extern "C" {
/// libomptarget's entry point for a kernel launch.
int __tgt_target_kernel(void *Loc, int64_t DeviceId, int32_t NumTeams,
                        int32_t ThreadLimit, void *HostPtr,
                        homp::KernelArgs *Args);
}

#endif // HOMP_LIBOMPTARGET_PLUGIN_KERNELARGS_H
