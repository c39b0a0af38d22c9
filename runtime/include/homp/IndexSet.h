//===-- homp/IndexSet.h - Sets of indices and boxes of them -----*- C++ -*-===//
//
// The geometry every part, halo, chunk and transfer is made of:
//
//  - Range: a half-open range of indices of one dimension;
//  - IndexSet: the indices one device has of one dimension, as sorted,
//    disjoint ranges (one for BLOCK, many for CYCLIC);
//  - Box: a half-open box of indices of up to MaxRank dimensions;
//  - ProductSet: one IndexSet per dimension, their Cartesian product (every
//    part of a distributed array or loop nest is one: dimensions are split
//    independently).
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_INDEXSET_H
#define HOMP_INDEXSET_H

#include "homp/Abi.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace homp {

using abi::MaxRank;

/// A half-open range [Begin, End) of indices.
struct Range {
  int64_t Begin = 0;
  int64_t End = 0;

  int64_t size() const { return End > Begin ? End - Begin : 0; }
  bool empty() const { return End <= Begin; }
  bool contains(int64_t I) const { return Begin <= I && I < End; }
  bool contains(const Range &R) const {
    return R.empty() || (Begin <= R.Begin && R.End <= End);
  }
  Range intersect(const Range &R) const;
  bool operator==(const Range &R) const {
    return (empty() && R.empty()) || (Begin == R.Begin && End == R.End);
  }
  bool operator!=(const Range &R) const { return !(*this == R); }
};

/// Indices Begin, Begin + Stride, ..., Count of them (Stride >= 1).
struct Strided {
  int64_t Begin = 0, Count = 0, Stride = 1;
  int64_t last() const { return Begin + (Count - 1) * Stride; }
  bool operator==(const Strided &O) const {
    return Begin == O.Begin && Count == O.Count && Stride == O.Stride;
  }
};

/// A set of indices of one dimension: sorted, disjoint, non-adjacent
/// ranges.
class IndexSet {
public:
  IndexSet() = default;
  IndexSet(Range R) { add(R); }

  /// Adds R, which must not start before the set's last index.
  void add(Range R);
  const std::vector<Range> &ranges() const { return Ranges; }
  int64_t size() const;
  bool empty() const { return Ranges.empty(); }
  /// The smallest range holding every index (empty for an empty set).
  Range hull() const;
  bool contains(int64_t I) const;
  bool contains(const IndexSet &S) const;
  IndexSet intersect(const IndexSet &S) const;
  /// Every index i + d with i in the set and Lo <= d <= Hi.
  IndexSet widened(int64_t Lo, int64_t Hi) const;
  /// The indices of this set not in S.
  IndexSet minus(const IndexSet &S) const;
  /// The indices of this set or of S.
  IndexSet unite(const IndexSet &S) const;
  /// The indices in as few strided runs as the set allows: equal-length
  /// ranges at a constant period become, per position in the range, one
  /// run across them, if that is fewer runs than ranges.
  std::vector<Strided> stridedRuns() const;

  bool operator==(const IndexSet &S) const { return Ranges == S.Ranges; }
  bool operator!=(const IndexSet &S) const { return !(*this == S); }
  /// For messages: "[0, 3)", "{[0, 3), [5, 6)}"; of more than six ranges
  /// the first and last three and their number.
  std::string str() const;

private:
  std::vector<Range> Ranges;
};

/// Gives the indices of Whole that none of the sets Sets[p] with Live[p]
/// holds (a loop's iterations past every part, an array's elements past
/// every ALIGN) to the set next to them: a run before the first index any
/// holds goes to the set holding the index after it, any other run to the
/// set holding the index before it; every live position whose set equals
/// that one gets the run (positions holding the same part keep holding the
/// same). Returns false, changing nothing, when the live sets hold none of
/// Whole: who gets it all is the caller's rule.
bool giveGapsToNeighbours(std::vector<IndexSet> &Sets, Range Whole,
                          const std::vector<bool> &Live);

/// A half-open box of indices; dimensions Rank and above are unused.
struct Box {
  unsigned Rank = 0;
  std::array<Range, MaxRank> Dims{};

  int64_t volume() const;
  bool empty() const { return volume() == 0; }
  bool contains(const Box &B) const;
  Box intersect(const Box &B) const;
  bool operator==(const Box &B) const;
  std::string str() const;
};

/// The parts of A outside B, as at most 2 * Rank disjoint boxes.
std::vector<Box> subtract(const Box &A, const Box &B);

/// The product of one index set per dimension.
struct ProductSet {
  unsigned Rank = 0;
  std::array<IndexSet, MaxRank> Dims{};

  static ProductSet of(const Box &B);
  int64_t volume() const;
  bool empty() const { return volume() == 0; }
  bool contains(const ProductSet &S) const;
  ProductSet intersect(const ProductSet &S) const;
  /// The smallest box holding it.
  Box hull() const;
  /// Calls F with every box of the product (one range per dimension).
  void forEachBox(const std::function<void(const Box &)> &F) const;
  size_t boxCount() const;
  bool operator==(const ProductSet &S) const;
  std::string str() const;
};

} // namespace homp

#endif // HOMP_INDEXSET_H
