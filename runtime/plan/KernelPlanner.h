//===-- KernelPlanner.h - Inside the kernel planner --------------*- C++
//-*-===//
//
// Private to homp-core: the planner behind planKernel and planSubPart
// (homp/KernelPlan.h). KernelPlan.cpp distributes the arrays, splits the
// loops and makes the launch pieces; KernelFootprints.cpp checks that
// every subscript stays inside what each device holds, and every write
// inside what it owns.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_KERNELPLANNER_H
#define HOMP_KERNELPLANNER_H

#include "homp/KernelPlan.h"

#include <optional>
#include <string>
#include <vector>

namespace homp {
namespace planning {

using abi::Policy;
using abi::Subscript;

/// An array the loop's split can follow: dimension Dim of X, which the body
/// subscripts with the loop's variable plus Offset.
struct Source {
  const Distribution *X = nullptr;
  unsigned Dim = 0;
  int64_t Offset = 0;
};

class Planner {
public:
  Planner(const KernelPlanInput &In, KernelPlan &Out, std::string &Error)
      : In(In), D(*In.Desc),
        Uses(In.Accesses.size() == D.Accesses.size() ? In.Accesses
                                                     : D.Accesses),
        Nest(In.Nest), Out(Out), Error(Error),
        P(static_cast<unsigned>(In.Devices.size())) {}

  bool run();
  bool cut(const KernelPlan &Whole, unsigned Pos, unsigned Loop, Range Its,
           const std::vector<bool> &Copied);

private:
  bool cutItem(Distribution &X, const abi::Array &A, unsigned Q, unsigned Loop,
               Range Its, Range Share);
  const abi::Access *useOf(const std::string &Name) const;
  const Distribution *findArray(const std::string &Name);
  bool distributeItems(bool Final);
  bool splitLoops();
  bool splitLoop(unsigned L, unsigned &NextAxis);
  std::optional<Source> ownerOf(unsigned L);
  std::optional<Source> alignedTo(unsigned L, const std::string &Name,
                                  unsigned K);
  void fromSource(unsigned L, const Source &S);
  void coverGaps(unsigned L);
  bool checkDisjoint();
  bool bounded(const Distribution &X, const abi::Access &Use) const;
  /// Arrays several devices own alike (split along fewer topology axes than
  /// the loop) that the loop writes: each device copies back what it
  /// writes (KernelPlan::CopyBack), or the kernel runs elsewhere.
  bool sharedParts();
  bool checkFootprint(const Distribution &X, const abi::Access &Use,
                      const std::string &Where);
  bool checkFootprints();
  /// Widens the halo of X, an array of the kernel's own that Use reads and
  /// does not write, to the offsets at which the loop's index reads it
  /// (an implicit read halo: each device's copy in brings the elements it
  /// reads around its part); whether anything was widened.
  bool widenReadHalo(Distribution &X, const abi::Access &Use) const;
  void makePieces();
  /// Checks the footprints of Out.Work, makes its pieces and gives Out the
  /// arrays' distributions.
  bool finish();

  const KernelPlanInput &In;
  const abi::Descriptor &D;
  /// The body's accesses, with their terms' values (In.Accesses; D's when
  /// the input has none).
  const std::vector<abi::Access> &Uses;
  LoopNest Nest; ///< In.Nest with its trip counts
  KernelPlan &Out;
  std::string &Error;
  unsigned P;
  std::vector<std::optional<Distribution>> Items;
  /// Per loop, per position: the iterations it runs.
  std::vector<std::vector<IndexSet>> LoopSets;
  bool LoopsReady = false;
  bool Blocked = false; ///< the last attempt waited for something pending
};

} // namespace planning
} // namespace homp

#endif // HOMP_KERNELPLANNER_H
