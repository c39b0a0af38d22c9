//===-- homp/RegionDescriptor.h - What the plugin says of a region -*- C++
//-*-===//
//
// The clang plugin describes each distributed region in a string literal that
// the region's marker call passes to libhomp, followed by the run-time values
// the description announces (varargs). This is the description, parsed once
// per region. The format, one item per line:
//
//   homp 1                                    version
//   loc FILE:LINE:COL                         the directive
//   device default|all|host                   no value
//   device one|from                           1 value: id
//   device range                              2 values: first id, count
//   loop lt|le|gt|ge|ne block|array K         K: index of an array below
//   array NAME MAP block|dup|loop|same K OFF  4 values: address of the first
//                                             element, lower index, length,
//                                             element size; OFF is '-' (no
//                                             use seen), '?' (uses unknown) or
//                                             'MIN MAX' (subscript offsets)
//   reduction OP NAME                         3 values: address, size, type
//   if                                        1 value: the if-clause
//
// Values are passed as 'long long' or 'void *'. The loop's bounds and step
// are in the chunk variable, not in the values.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_REGIONDESCRIPTOR_H
#define HOMP_REGIONDESCRIPTOR_H

#include <cstdint>
#include <string>
#include <vector>

namespace homp {

enum class DeviceSpecKind { Default, All, Host, One, From, Range };

enum class CompareOp { Less, LessEqual, Greater, GreaterEqual, NotEqual };

enum class ArrayPolicy { Block, Duplicate, FollowLoop, SameAs };

enum class MapKind { To, From, ToFrom, Alloc, Other };

enum class ReductionOp {
  Add,
  Sub,
  Mul,
  BitAnd,
  BitOr,
  BitXor,
  LogicalAnd,
  LogicalOr,
  Max,
  Min
};

struct ArrayDesc {
  std::string Name;
  MapKind Map = MapKind::ToFrom;
  ArrayPolicy Policy = ArrayPolicy::Duplicate;
  unsigned SameAs = 0; ///< ArrayPolicy::SameAs: index of the BLOCK array
  enum { NoUse, UnknownUse, KnownUse } Uses = NoUse;
  int64_t MinOffset = 0, MaxOffset = 0; ///< KnownUse: subscript offsets

  bool copiesIn() const { return Map == MapKind::To || Map == MapKind::ToFrom; }
  bool copiesOut() const {
    return Map == MapKind::From || Map == MapKind::ToFrom;
  }
  bool distributed() const { return Policy != ArrayPolicy::Duplicate; }
};

struct ReductionDesc {
  ReductionOp Op;
  std::string Name;
};

struct RegionDescriptor {
  std::string Location; ///< FILE:LINE:COL
  std::vector<DeviceSpecKind> Devices;
  CompareOp Op = CompareOp::Less;
  bool LoopFollowsArray = false;
  unsigned LoopArray = 0;
  std::vector<ArrayDesc> Arrays;
  std::vector<ReductionDesc> Reductions;
  bool HasIf = false;
};

/// Parses Text. Returns false with a message in Error when Text is not a
/// descriptor this runtime understands (a plugin from another version).
bool parseRegionDescriptor(const char *Text, RegionDescriptor &Out,
                           std::string &Error);

const char *reductionOpName(ReductionOp Op);

} // namespace homp

#endif // HOMP_REGIONDESCRIPTOR_H
