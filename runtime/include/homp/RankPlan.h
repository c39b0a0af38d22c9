//===-- homp/RankPlan.h - A construct split over ranks -----------*- C++
//-*-===//
//
// The rank plan (DESIGN.md, "Ranks (MPI)"): the level above the device
// plans. A distributed construct's loop is split over the ranks first,
// contiguous and by capacity; each rank then splits its part over its own
// devices as on one node. Every array split with the loop is split over the
// ranks along the same dimension, in the same proportions; its halo along
// that dimension becomes messages from the ranks that own the rows, one per
// run of rows a rank needs from another ('halo(*)': every rank receives
// every row it does not own); an array copied out is completed on every
// rank's host after the construct (its owned rows all-gathered).
//
// Pure: HOMP_MPI_DRY_RUN prints it for R ranks on one machine (Celerity's
// dry-run nodes), so plans for 1024 ranks are tested here.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_RANKPLAN_H
#define HOMP_RANKPLAN_H

#include "homp/Abi.h"
#include "homp/Distribution.h"
#include "homp/IndexSet.h"
#include "homp/LoopSpace.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace homp {

/// One array of a construct, as the rank plan sees it.
struct RankArray {
  std::string Name;
  /// Its mapped rows along Dim (the section's), and the bytes of one row
  /// (the element size times the section's other extents).
  Range Rows;
  int64_t RowBytes = 0;
  /// Split over the ranks with the loop along this dimension; false: whole
  /// on every rank (no messages).
  bool Split = false;
  abi::Halo Halo;         ///< along the split dimension
  bool CopiesOut = false; ///< mapped from or tofrom
};

/// A distributed array as the rank plan sees it: split with the loop along
/// its first split dimension (a 2-D topology's second axis stays within
/// each rank), with its halo along it. CopiesOut: the construct copies it
/// back to the host (RankArray::CopiesOut).
RankArray rankArrayOf(const std::string &Name, const Distribution &D,
                      bool CopiesOut);

struct RankPlanInput {
  int Ranks = 1;
  /// The construct has a loop (a kernel; not a data region or a halo
  /// update): each rank's iterations are planned and reported.
  bool Loop = true;
  int64_t Trips = 0; ///< of the loop split over the ranks
  /// Per rank, what it can do (its devices' summed rates); empty: equal.
  std::vector<double> Capacity;
  std::vector<RankArray> Arrays;
  /// Owner computes: the loop follows the rows of Arrays[Follow] (its index
  /// First + t * Step runs where that row is); -1: the loop is split by
  /// capacity itself.
  int Follow = -1;
  int64_t First = 0, Step = 1;
};

/// One halo message of one exchange: From sends Rows of Array to To.
struct RankMessage {
  int From = 0, To = 0;
  unsigned Array = 0;
  Range Rows;
  int64_t Bytes = 0;
};

struct RankPlan {
  std::vector<Range> Iterations;        ///< per rank
  std::vector<std::vector<Range>> Rows; ///< per array, per rank: owned rows
  std::vector<RankMessage> Messages;    ///< one halo exchange of every array
  /// Per rank: the bytes it receives after the construct to complete its
  /// host copies of the arrays copied out (the rows other ranks own).
  std::vector<int64_t> GatherBytes;
};

/// The plan of In. Ranks >= 1; a capacity list of another length, or with
/// no positive entry, counts as equal capacities.
RankPlan planRanks(const RankPlanInput &In);

/// HOMP_MPI_DRY_RUN's report of P under the title Construct ("region
/// FILE:LINE:COL: 300 iterations"): each rank's iterations and rows (the
/// first ranks and the last when there are more than Listed), the halo
/// messages and bytes of one exchange where an array has a halo (in all,
/// and the most any rank receives), and what completing the copied-out
/// arrays moves, When ("after the region").
std::string describeRankPlan(const RankPlanInput &In, const RankPlan &P,
                             const std::string &Construct,
                             const std::string &When = "after the region",
                             int Listed = 4);

/// One array a kernel maps, as the rank split of the kernel sees it.
struct RankKernelItem {
  std::string Name;
  ArrayShape Shape; ///< as mapped (its section)
  /// Mapped tofrom: every rank's host holds the elements no rank writes as
  /// they were, so a rank's box may take whole rows (one run to gather).
  bool ToFrom = false;
  /// Resident in a data region split over the ranks: per rank, the rows of
  /// dimension 0 it owns, those its halo keeps current, and those it
  /// stores (RankRows). The loop follows the owned rows; each rank must
  /// read only current rows and write only rows it owns; the array is not
  /// completed after the kernel (it stays on the devices).
  bool Resident = false;
  std::vector<Range> Own, Valid, Held;
};

/// A kernel run over ranks (splitKernelOverRanks): each rank runs a
/// contiguous part of one distributed loop, with the arrays narrowed to
/// what its iterations touch; after it, every rank's host is completed
/// with the elements the others wrote.
struct RankKernelSplit {
  /// Why the kernel runs whole on every rank instead; empty: split.
  std::string Why;
  unsigned Loop = 0;             ///< the loop split over the ranks
  std::vector<Range> Iterations; ///< per rank: of that loop, [0, Trips)
  /// Per item, per rank: the section the rank maps (what its iterations
  /// touch, within the item's section; the whole section where a
  /// subscript cannot be bounded), and the box of the elements it writes
  /// (empty: none), which the other ranks receive after the kernel; of an
  /// array mapped tofrom, widened to whole rows (every dimension but the
  /// first) where the ranks' boxes stay apart.
  std::vector<std::vector<Box>> Sections, Written;
  /// Some item is resident over the ranks (RankKernelItem::Resident).
  bool OverResidents = false;
};

/// Splits the kernel whose nest is Nest (trips computed), whose body makes
/// Accesses (withTerms) and which maps Items over Ranks ranks, along its
/// first loop in Distributed (per loop of the nest), in parts by Capacity
/// (per rank; empty, or no positive entry: equal).
/// Never a wrong answer: the kernel runs whole on every rank (Why says
/// why) when a write cannot be bounded, or falls outside the arrays it
/// maps, or when two ranks would write one element (then no single rank
/// has the answer), or when the loop runs no iteration. Ranks past the
/// loop's iterations get none, and map one element of each array. Over a
/// resident item the loop follows its owned rows (an access by the loop's
/// variable, a written one first); then Why also says where a rank would
/// read a row it does not hold or write one it does not own
/// (RankKernelSplit::OverResidents: the kernel cannot run whole instead).
RankKernelSplit splitKernelOverRanks(const LoopNest &Nest,
                                     const std::vector<bool> &Distributed,
                                     const std::vector<abi::Access> &Accesses,
                                     const std::vector<RankKernelItem> &Items,
                                     int Ranks,
                                     const std::vector<double> &Capacity = {});

/// Nest with loop Loop narrowed to its iterations Its (of [0, Trips)):
/// first index, bound and trip count.
LoopNest narrowLoop(const LoopNest &Nest, unsigned Loop, Range Its);

/// Calls F(offset, count) for each run of consecutive elements of B (within
/// Shape's extents) in Shape's storage order: offsets from element
/// [0]...[0], in elements.
void forEachRun(const ArrayShape &Shape, const Box &B,
                const std::function<void(int64_t, int64_t)> &F);

} // namespace homp

#endif // HOMP_RANKPLAN_H
