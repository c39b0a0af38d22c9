//===-- homp/KernelPlan.h - Which device runs and holds what ----*- C++ -*-===//
//
// Plans one execution of a distributed kernel (SPEC.md sections 2 and 3):
//
//  1. the arrays the kernel maps get their distributions, except those
//     aligned with the loop (ALIGN(loop)), which follow it;
//  2. each loop of the nest gets its split over the devices:
//     - ALIGN(x): the iterations whose index lies in each device's part of x;
//     - BLOCK, CYCLIC(n) or no policy: owner computes - if the body uses an
//       array split the same way, subscripted by the loop's variable plus a
//       constant c, each device runs the iterations i whose element i + c
//       it owns (an array of the kernel, or one resident in a data region);
//       iterations beyond every part go to the nearest device; without such
//       an array the iterations are split by the policy itself;
//     - the loop a data region's arrays align to (its label) keeps the
//       split the data region gave it;
//  3. the arrays aligned with the loop hold the indices their device runs;
//  4. every subscript must stay inside what the device holds (its part and
//     halo), and every write inside what it owns, or the plan is refused;
//     what homp cannot bound it does not guess (SPEC.md, section 8):
//     - an array of the kernel read at a subscript the plugin could not
//       bound is held whole by every device (Distribution::Whole);
//     - one written there makes the kernel run on one device
//       (KernelPlan::OneDevice), where every array is whole;
//     - an array resident in a data region that a subscript cannot be
//       bounded in, or that a device would use outside its part, makes the
//       kernel run on the host with the resident arrays gathered there
//       (KernelPlan::OnHost): the devices hold only their parts;
//  5. each device's iterations become launches: strided runs of the nest.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_KERNELPLAN_H
#define HOMP_KERNELPLAN_H

#include "homp/Abi.h"
#include "homp/Distribution.h"
#include "homp/LoopSpace.h"
#include "homp/Topology.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace homp {

struct KernelPlanInput {
  const abi::Descriptor *Desc = nullptr;
  std::vector<int> Devices; ///< by position
  Topology Topo;            ///< of Devices
  LoopNest Nest;            ///< bounds; Trips are computed by the planner
  std::array<int64_t, abi::MaxLoops> LoopBlocks{};
  /// Per array of Desc: its host shape and block sizes.
  std::vector<ArrayShape> ItemShapes;
  std::vector<std::array<int64_t, MaxRank>> ItemBlocks;
  /// Per array of Desc: the devices its 'topology(...)' names; none (or
  /// fewer entries than arrays): the construct's.
  std::vector<ItemDevices> ItemOwnDevices;
  /// Per array of Desc: its distribution when it is already resident in a
  /// data environment (it is used as it is there), else nullptr.
  std::vector<const Distribution *> ItemResidents;
  /// Per access of Desc: the array resident in a data environment that the
  /// accessed variable's address falls in (Dist == nullptr: none), and the
  /// construct that made it resident, for messages.
  struct Resident {
    const Distribution *Dist = nullptr;
    std::string Where;
  };
  std::vector<Resident> AccessResidents;
  /// Desc's accesses with their terms' run-time values in Min and Max
  /// (withTerms): what the planner reads of the body's subscripts.
  std::vector<abi::Access> Accesses;
  /// A scheduler's split of the nest's first AUTO loop: per position, the
  /// iteration numbers it runs. They may cover part of the loop (a chunk of
  /// a dynamic schedule): then only those iterations are planned. Empty:
  /// the loop is split as BLOCK. Owner computes and a data region's split
  /// of a labelled loop come first.
  std::vector<IndexSet> Scheduled;
  /// Scheduled is a chunk of a memorizing loop (the loop labelled
  /// Desc->Label, homp/ChunkMemory.h): it comes before the data region's
  /// split and the arrays' parts, which the chunk's device is to own.
  bool ChunkOfLabel = false;
  /// The split a data region gave a labelled loop (DistributionContext).
  std::function<bool(const std::string &, unsigned, int, IndexSet &)>
      LabelIndices;
};

/// Iterations [K, K + Count * Stride) of each loop of the nest, strided:
/// one launch.
struct LaunchPiece {
  std::array<Strided, abi::MaxLoops> Loops{};
};

/// Fills the loops of C that launch Piece of Nest (whose trip counts are
/// computed); returns the piece's number of iterations.
uint64_t chunkOfPiece(const LoopNest &Nest, const LaunchPiece &Piece,
                      abi::Chunk &C);

struct DeviceWork {
  ProductSet Iterations; ///< iteration numbers k of each loop
  std::vector<LaunchPiece> Pieces;
};

struct KernelPlan {
  std::vector<Distribution> Items; ///< per array of the descriptor
  std::vector<DeviceWork> Work;    ///< per position
  /// Which loop took KernelPlanInput::Scheduled (-1: none did).
  int ScheduledLoop = -1;
  /// Where the kernel runs. Split: as Items and Work say. Otherwise they
  /// are empty and Why says why (one sentence, naming the array and the
  /// subscript): OneDevice, on the first device of the input alone; OnHost,
  /// on the host with the resident arrays it uses gathered there.
  enum PlacementKind { Split, OneDevice, OnHost } Placement = Split;
  std::string Why;
  /// The arrays of the kernel each device holds more of than its part and
  /// halo (made Whole, or given the elements it reads around its part),
  /// each with why, for reports.
  std::vector<std::string> WidenedNotes;
  /// Per array, per position of its distribution: what the device copies
  /// back, where several devices own the same elements (an array split
  /// along fewer topology axes than the loop): the elements its iterations
  /// write. Empty (or an empty list for an array): what it owns.
  std::vector<std::vector<ProductSet>> CopyBack;
};

/// The run-time minimum and maximum of each subscript with a term of one
/// access (Subscript::Term): dimensions 0 .. MaxRank - 1 of Subs, then
/// those of Writes.
using TermValues = std::array<std::pair<int64_t, int64_t>, 2 * MaxRank>;

/// The accesses with their terms' values (Values: per access) in Min and
/// Max. A subscript whose range is empty (an inner loop that does not run)
/// keeps it so: Min > Max, and the access touches nothing.
std::vector<abi::Access> withTerms(const std::vector<abi::Access> &Accesses,
                                   const std::vector<TermValues> &Values);

/// The elements an access may touch over all the iterations of Nest
/// (whose trip counts are computed), per dimension; std::nullopt when a
/// subscript is Unknown or the access has no subscripts.
std::optional<Box> footprintOf(const abi::Access &Use, const LoopNest &Nest);

/// Plans In. Returns false with a one-sentence message in Error (naming the
/// array, the device and the elements) when the kernel cannot run as asked.
bool planKernel(const KernelPlanInput &In, KernelPlan &Out,
                std::string &Error);

/// Cuts position Pos's share of Whole (planned from In) down to Iterations,
/// a run of the share's iterations of loop Loop, for a device that runs its
/// share in sub-parts one after the other (a CPU offload device: each
/// sub-part's data is still in the core's cache when it is copied back).
/// Arrays Copied marks (those the device copies) hold, along each split
/// dimension the body subscripts with the loop's variable, what the
/// sub-part uses:
///  - an array the body writes and that is copied back, subscripted there
///    with i + c alone: its owned elements from index i + c of the
///    sub-part's first iteration to that of the next sub-part's first (the
///    first and last sub-parts reach to the ends of the part), so that the
///    sub-parts copy each element of the part back once;
///  - any other: the owned elements the sub-part reads.
/// Other arrays, and the other dimensions, keep the share's whole part.
/// Returns false with the reason in Why when a copied array cannot be cut
/// so: a split dimension with another subscript, halo cells past the
/// array's ends, one copied back but not cut along the loop (cutAlongLoop),
/// one cut along an inner dimension of the part (a sub-part would be short
/// pieces of every row), or a sub-part that would use elements it does not
/// hold.
bool planSubPart(const KernelPlanInput &In, const KernelPlan &Whole,
                 unsigned Pos, unsigned Loop, Range Iterations,
                 const std::vector<bool> &Copied, KernelPlan &Out,
                 std::string &Why);

/// Whether array Item of Desc, distributed as X, has a split dimension the
/// body subscripts with loop Loop's variable: a sub-part along the loop
/// (planSubPart) holds only its stretch of it. One that has none holds its
/// device's whole part in each sub-part, and must not be copied back.
bool cutAlongLoop(const abi::Descriptor &Desc,
                  const std::vector<abi::Access> &Accesses, size_t Item,
                  const Distribution &X, unsigned Loop);

/// Whether a plan of Desc is a function of its KernelPlanInput alone: no
/// loop or array of it follows a labelled loop (ALIGN(label)), whose split
/// belongs to the data regions in progress.
bool planIsPure(const abi::Descriptor &Desc);

/// Whether A and B (of one descriptor) plan alike: the same devices,
/// topology, bounds, shapes, block sizes, scheduled iterations, and the
/// same resident distributions (by address; ResidentIds tell apart two
/// resident arrays at one address).
bool samePlanInput(const KernelPlanInput &A, const KernelPlanInput &B);

/// The last plan of one construct, reused while its input stays the same:
/// a kernel in a loop of the program is planned once. Resident
/// distributions are told apart by ResidentIds, which the caller gives one
/// per resident of the input (the data environment numbers its arrays).
/// Safe to use from several threads.
class KernelPlanCache {
public:
  std::shared_ptr<const KernelPlan>
  find(const KernelPlanInput &In, const std::vector<uint64_t> &ResidentIds);
  void store(const KernelPlanInput &In, std::vector<uint64_t> ResidentIds,
             std::shared_ptr<const KernelPlan> Plan);

private:
  std::mutex M;
  KernelPlanInput Input;
  std::vector<uint64_t> Ids;
  std::shared_ptr<const KernelPlan> Plan;
};

} // namespace homp

#endif // HOMP_KERNELPLAN_H
