//===-- homp/EntryPoints.h - Names of the calls the plugin emits -*- C++ -*-===//
//
// The names of EntryPoints.def as constants, for the code that writes the
// calls (the clang plugin) and the tests that look them up in libhomp.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_ENTRYPOINTS_H
#define HOMP_ENTRYPOINTS_H

namespace homp {
namespace abi {

#define HOMP_MARKER(Id, Name, DistributedName)                                 \
  inline constexpr const char Id##Marker[] = Name;                             \
  inline constexpr const char Id##DistributedMarker[] = DistributedName;
#define HOMP_CALL(Id, Name) inline constexpr const char Id##Call[] = Name;
#include "homp/EntryPoints.def"

} // namespace abi
} // namespace homp

#endif // HOMP_ENTRYPOINTS_H
