//===-- homp/Distribution.h - Which device holds which elements -*- C++ -*-===//
//
// A distributed array (SPEC.md section 2): its shape in host memory, the
// devices it is spread over, and the part each owns. A device's copy keeps
// the array's layout (global indices stay valid), so it spans from the
// first to the last element it holds.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_DISTRIBUTION_H
#define HOMP_DISTRIBUTION_H

#include "homp/Abi.h"
#include "homp/IndexSet.h"
#include "homp/Topology.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace homp {

using Index = std::array<int64_t, MaxRank>;

/// Extents of 1 but for dimension 0's, which no offset uses (ArrayShape).
constexpr std::array<int64_t, MaxRank> unitExtents() {
  std::array<int64_t, MaxRank> E{};
  for (int64_t &X : E)
    X = 1;
  E[0] = 0;
  return E;
}

/// Where the elements of an array are in host memory: row-major, element
/// [i0][i1][i2] at element offset (i0 * Extent[1] + i1) * Extent[2] + i2
/// from element [0][0][0].
struct ArrayShape {
  unsigned Rank = 1;
  int64_t ElementSize = 1;
  /// Extent[d], d >= 1: the array's length in dimension d (its row length).
  std::array<int64_t, MaxRank> Extent = unitExtents();
  /// The mapped section.
  Box Section;

  int64_t offset(const Index &I) const;
  /// The elements from the first to the last element of S, in elements
  /// from element [0]...[0]: what a copy of S spans.
  Range span(const ProductSet &S) const;
  /// Whether the rows of dimension d >= 1 of S lie back to back (S covers
  /// whole rows of every inner dimension).
  bool contiguous(const Box &B) const;
  /// The elements whose offsets lie in Offsets (a run of memory, as a
  /// standard 'target update' names it), as at most 2 x Rank - 1 disjoint
  /// boxes in the order of their elements; indices of dimensions d >= 1
  /// within [0, Extent[d]).
  std::vector<Box> boxesOf(Range Offsets) const;
};

/// How one array is spread over the devices of a construct.
struct Distribution {
  ArrayShape Shape;
  std::vector<int> Devices;      ///< device ids, by position
  std::vector<ProductSet> Owned; ///< per position: the elements it owns
  std::array<abi::Halo, MaxRank> Halos{};
  /// Which dimensions are split (halos apply to them only), and how: the
  /// policy of each and, for Cyclic ones, the block size.
  std::array<bool, MaxRank> Split{};
  std::array<abi::Policy::KindTy, MaxRank> Kinds{};
  std::array<int64_t, MaxRank> Blocks{};
  /// Every device holds the whole section, and still owns its part: a
  /// kernel reads the array at subscripts homp cannot bound (KernelPlan).
  bool Whole = false;

  /// The position of DeviceId, if the array is spread over it.
  std::optional<unsigned> positionOf(int DeviceId) const;
  /// What the device at Position holds: its part and its halo (all of the
  /// section when Whole). A halo at a global edge that is periodic or
  /// reflecting lies past the section.
  ProductSet held(unsigned Position) const;
  /// Whether the device at Position holds halo cells past the array's ends
  /// (periodic and reflecting edges), which copies of the section miss.
  bool holdsPastEnds(unsigned Position) const;
  /// Whether every device that holds a part owns every element (nothing
  /// is split).
  bool duplicated() const;
  /// Whether every device of the construct owns every element: duplicated,
  /// and no device left out by a device list.
  bool everywhere() const;
};

/// What distributing an array needs to know of its construct.
struct DistributionContext {
  std::vector<int> Devices; ///< by position
  Topology Topo;            ///< of Devices
  /// An array ALIGN(name) refers to, already distributed (an array of the
  /// same construct or one resident in a data environment); nullptr if none.
  std::function<const Distribution *(const std::string &)> FindArray;
  /// ALIGN(loop): the indices of the K-th distributed loop of the
  /// construct's nest that the device at Position runs; false if there is
  /// no such loop.
  std::function<bool(unsigned K, unsigned Position, IndexSet &)> LoopIndices;
  /// ALIGN(label) of a loop a data region's arrays align to: its K-th
  /// loop's indices for device Id; false if there is no such label or loop.
  std::function<bool(const std::string &Label, unsigned K, int DeviceId,
                     IndexSet &)>
      LabelIndices;
};

/// The devices an item names after its distribution ('topology(...)'),
/// with their run-time values: the ids of 'topology(0, 1)', or the
/// dimensions of a topology of its own ('topology([2][*])'; std::nullopt
/// for '*'). Neither: the construct's devices and topology.
struct ItemDevices {
  std::vector<int64_t> Ids;
  std::vector<std::optional<int64_t>> TopologyDims;
  bool operator==(const ItemDevices &O) const {
    return Ids == O.Ids && TopologyDims == O.TopologyDims;
  }
};

/// Distributes A, whose host shape is Shape and whose Cyclic dimensions
/// have the block sizes Blocks (per dimension), over the devices of Ctx.
/// Own.Ids (A's 'topology(0, 1)'): only those of Ctx's devices get parts;
/// they form a line of their own, in Ctx's order, and the others hold
/// nothing. Ids that are not Ctx's are ignored; none left is an error.
/// Own.TopologyDims: Ctx's devices in that topology instead of Ctx's.
/// Returns std::nullopt with a message in Error when it cannot be done.
std::optional<Distribution>
distributeArray(const abi::Array &A, const ArrayShape &Shape,
                const std::array<int64_t, MaxRank> &Blocks,
                const DistributionContext &Ctx, std::string &Error,
                const ItemDevices &Own = {});

/// Moves the elements position From owns at indices Rows of dimension Dim
/// to position To (a memorizing loop's chunk changing device). To, if it
/// owned nothing, gets From's extent in the other dimensions. Returns the
/// indices that moved.
IndexSet giveRows(Distribution &Dist, unsigned Dim, const IndexSet &Rows,
                  unsigned From, unsigned To);

/// Gives the elements of Dist's section that no device's part holds (an
/// ALIGN whose array or loop covers less than this array's section) to a
/// device, dimension by dimension, as a loop's iterations beyond every part
/// go: before the first part to the owner of the first, else to the owner
/// of the element before them; with no part at all, the whole dimension to
/// the first device (of each set holding the same of the other dimensions).
/// A resident array's every element then lives on a device, where its data
/// region's kernels, updates and host runs find it and leave it. Returns
/// false with Error when the parts still miss elements (two dimensions
/// split along the same topology axis).
bool coverSection(Distribution &Dist, const std::string &Name,
                  std::string &Error);

} // namespace homp

#endif // HOMP_DISTRIBUTION_H
