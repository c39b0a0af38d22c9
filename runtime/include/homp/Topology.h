//===-- homp/Topology.h - Devices arranged in a grid ------------*- C++ -*-===//
//
// 'topology([2][2])' arranges the devices of a construct in a Cartesian
// grid, row-major: the device at position p of the construct's device list
// has coordinates coords(p). Dimensions written '*' are chosen to make the
// grid as balanced as possible (SPEC.md section 1).
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_TOPOLOGY_H
#define HOMP_TOPOLOGY_H

#include "homp/Abi.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace homp {

struct Topology {
  std::vector<unsigned> Dims; ///< sizes, outermost first

  /// One dimension holding N devices.
  static Topology line(unsigned N) { return Topology{{N}}; }
  unsigned rank() const { return static_cast<unsigned>(Dims.size()); }
  unsigned size() const;
  std::array<unsigned, abi::MaxTopologyRank> coords(unsigned Position) const;
  unsigned
  position(const std::array<unsigned, abi::MaxTopologyRank> &Coords) const;
  std::string str() const; ///< e.g. "2x2"
  bool operator==(const Topology &T) const { return Dims == T.Dims; }
};

/// The grid of NumDevices devices with Rank dimensions, of which Requested
/// gives the sizes that were written (std::nullopt: '*'). Returns
/// std::nullopt with a message in Error when no such grid exists.
std::optional<Topology>
makeTopology(unsigned NumDevices,
             const std::vector<std::optional<int64_t>> &Requested,
             std::string &Error);

} // namespace homp

#endif // HOMP_TOPOLOGY_H
