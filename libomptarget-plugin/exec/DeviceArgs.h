//===-- DeviceArgs.h - One device's copy of the kernel arguments -*- C++
//-*-===//
//
// A distributed launch calls libomptarget once per device with a copy of the
// kernel arguments clang built, in which the entries of the arrays homp
// holds on the device are the device addresses of their storage, passed as
// they are, and the chunk and reduction variables point at the device's own
// copies (DESIGN.md, mechanism 4).
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_DEVICEARGS_H
#define HOMP_LIBOMPTARGET_PLUGIN_DEVICEARGS_H

#include "KernelArgs.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace homp {

/// One entry of the kernel arguments: its four per-entry values.
struct ArgEntry {
  void *Base = nullptr, *Ptr = nullptr;
  int64_t Size = 0, Type = 0;
  bool operator==(const ArgEntry &O) const {
    return Base == O.Base && Ptr == O.Ptr && Size == O.Size && Type == O.Type;
  }
  bool operator!=(const ArgEntry &O) const { return !(*this == O); }
};

/// Entry K of Args.
ArgEntry argEntry(const KernelArgs &Args, unsigned K);

class DeviceArgs {
public:
  /// Copies Original's per-entry arrays; entries can then be changed.
  explicit DeviceArgs(const KernelArgs &Original);
  /// The same, into Room (entriesSize(Original) values), which must outlive
  /// this object.
  DeviceArgs(const KernelArgs &Original, int64_t *Room);
  /// How many values a copy of Args's per-entry arrays takes.
  static size_t entriesSize(const KernelArgs &Args) {
    return 4 * size_t(Args.NumArgs);
  }
  DeviceArgs(const DeviceArgs &) = delete;
  DeviceArgs &operator=(const DeviceArgs &) = delete;
  /// Moving keeps the entries where they are: Args keeps pointing at them.
  DeviceArgs(DeviceArgs &&) = default;
  static_assert(sizeof(void *) == sizeof(int64_t));

  /// Makes entry K both base and data pointer Ptr.
  void setEntry(unsigned K, void *Ptr);
  /// Makes entry K a parameter passed as it is (OpenMP's is_device_ptr):
  /// the kernel receives Value and libomptarget maps nothing for it.
  void setLiteral(unsigned K, void *Value);
  /// Makes entry K map nothing and pass nothing.
  void ignoreEntry(unsigned K);
  /// Makes entry K what E says.
  void setEntry(unsigned K, const ArgEntry &E);

  KernelArgs &args() { return Args; }
  const KernelArgs &args() const { return Args; }
  void *base(unsigned K) const { return BasePtrs[K]; }

  /// The host address the kernel's parameter K stands for: the entry's
  /// base, or for a pointer variable mapped with a section (a global or
  /// static 'long *p' in 'map(to: p[0:n])': a PTR_AND_OBJ target
  /// parameter, whose base is the pointer's address) the pointer's value,
  /// which libomptarget translates and the kernel receives.
  void *arrayBase(unsigned K) const;

  /// Bytes the launch copies to and from the device.
  int64_t bytesIn() const;
  int64_t bytesOut() const;

  /// What the kernel receives as parameters when it runs in place on the
  /// host: the base pointer of each TARGET_PARAM entry, in order (the
  /// pointer's value for one that passes a pointer variable).
  std::vector<void *> hostParams() const;

private:
  /// Copies Args's per-entry arrays to Room and points Args at them.
  void copyEntries(int64_t *Room);

  KernelArgs Args;
  /// The four per-entry arrays back to back (base pointers, pointers,
  /// sizes, types): one allocation per launch, or none with Room.
  std::vector<int64_t> Entries;
  void **BasePtrs, **Ptrs;
  int64_t *Sizes, *Types;
};

/// The values of a launch's firstprivates that clang passes by reference
/// (MapPrivate entries that are not literals: a 'long double', a struct):
/// libomptarget reads them from host memory when the device launches, and
/// a launch queued for later (an asynchronous kernel, a repeated one) would
/// see them as they are then, or the freed frame of a target task. So they
/// are copied when the construct runs, and the launch reads the copies.
class FirstprivateCopies {
public:
  /// Copies the firstprivates Args points at.
  explicit FirstprivateCopies(const KernelArgs &Args);
  /// Points A's entries of them at the copies (which must outlive A's
  /// launches).
  void apply(DeviceArgs &A) const;
  /// Whether entry K is one of them.
  bool copies(unsigned K) const;

private:
  struct Copy {
    unsigned Entry;
    std::ptrdiff_t Offset; ///< of the data pointer from the base
    std::vector<char> Bytes;
  };
  std::vector<Copy> Copies;
};

/// The first entry of Args, not yet Claimed, whose data pointer is Ptr;
/// it is then marked claimed.
std::optional<unsigned> claimEntry(const KernelArgs &Args, const void *Ptr,
                                   std::vector<bool> &Claimed);

/// The entry, not yet Claimed, of a distributed item whose array starts at
/// Base and whose section's first element is at First (marked claimed):
/// the one whose data pointer is First, or for a non-contiguous descriptor
/// whose base is Base; else one from Base whose bytes hold First. clang 19
/// passes some sections with bounds it cannot fold ('u[0:n][c:1]',
/// 'a[0:n][1:m - 1]') as the contiguous range around them: the item still,
/// which homp moves element by element.
std::optional<unsigned> claimItemEntry(int32_t N, void *const *BasePtrs,
                                       void *const *Ptrs, const int64_t *Sizes,
                                       const int64_t *Types, const void *Base,
                                       const void *First,
                                       std::vector<bool> &Claimed);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_DEVICEARGS_H
