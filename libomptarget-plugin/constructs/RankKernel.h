//===-- RankKernel.h - A kernel run over the job's ranks ---------*- C++
//-*-===//
//
// Under an MPI job (Ranks.h) a kernel runs first over the ranks, then over
// each rank's devices: this rank maps and runs its part of the loop
// (homp/RankPlan.h, splitKernelOverRanks) from its own host memory, as one
// node runs a smaller kernel; afterwards every rank's host arrays are
// completed with what the others wrote, and the reductions combined in rank
// order, in one collective.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_RANKKERNEL_H
#define HOMP_LIBOMPTARGET_PLUGIN_RANKKERNEL_H

#include "Construct.h"
#include "KernelArgs.h"

#include "homp/DataEnvironment.h"

#include "homp/RankPlan.h"
#include "homp/Reduction.h"

#include <memory>
#include <string>
#include <vector>

namespace homp {

struct KernelInstance;

/// One execution of a kernel over the ranks: what completing it needs.
struct RankRun {
  std::string Where;
  int Rank = 0, Size = 1;
  RankKernelSplit Split;
  struct Item {
    char *Base;
    ArrayShape Shape; ///< as the program maps it, on every rank
  };
  std::vector<Item> Items;
  struct Reduction {
    void *Address;
    ReductionOp Op;
    ScalarType Type;
    std::vector<char> Start; ///< the variable's value before the kernel
  };
  std::vector<Reduction> Reductions;
  /// It cannot split over the rows its data region split over the ranks:
  /// every rank's host runs all of it, with those arrays (Gathered, a
  /// reference held) gathered there, and gives its devices their rows back
  /// after (scatterResidents).
  bool OnHosts = false;
  std::vector<ResidentArray *> Gathered;
};

/// RankRun::OnHosts: every rank's host gets the resident arrays K uses,
/// whole and current: those a data region split over the ranks from every
/// rank (collective), the others from this rank's devices.
void gatherResidents(const KernelInstance &K, RankRun &Run);

/// After a RankRun::OnHosts kernel ran on the host: each rank's devices get
/// their rows of the gathered arrays from its host.
void scatterResidents(const ConstructInfo &Info, RankRun &Run);

/// The split of K over Ranks ranks (parts by Capacity, per rank; empty:
/// equal), as its loop and arrays are now; Why
/// says why it runs whole on every rank instead (also what only its launch
/// tells: 'nowait', a parallel region; splitOverRanks).
RankKernelSplit rankSplitOf(const KernelInstance &K, int Ranks,
                            const std::vector<double> &Capacity = {});

/// When the job has several ranks and K (launched with Args; its host
/// version homp's, HasHostVersion) may run over them, and every rank runs
/// it alike (collective: the ranks compare its bounds and sections first,
/// and weigh their parts by their devices): narrows K (its
/// loop, the chunk variable, its arrays' sections) to this rank's part,
/// sets its reduction variables to their identities, and returns what
/// completing it needs. Otherwise nullptr: K runs whole on every rank
/// (HOMP_INFO says why, where it is not obvious).
std::shared_ptr<RankRun>
splitOverRanks(KernelInstance &K, const KernelArgs &Args, bool HasHostVersion);

/// After this rank's part ran (collective): every rank's host holds what
/// each rank wrote, and each reduction variable its value before the kernel
/// combined with the ranks' results in rank order.
void completeOverRanks(const RankRun &R);

/// Under an MPI job, a data region (Info, its values V, over Devices) whose
/// every array is split BLOCK along its first dimension alone, alike on
/// every rank (collective: the ranks compare it first): narrows V's
/// sections to the rows this rank holds (its own, widened by the halo) and
/// returns, per array, its rows over the ranks. Otherwise empty: the region
/// is whole on every rank (HOMP_INFO says why).
std::vector<std::shared_ptr<const RankRows>>
splitRegionOverRanks(const ConstructInfo &Info, ConstructValues &V,
                     const std::vector<int> &Devices);

/// Completes every rank's host copy of Elements of the array at HostBase
/// (Shape: its extents) with the rows each rank owns of it (collective).
void completeRows(const std::string &Where, const RankRows &R, char *HostBase,
                  const ArrayShape &Shape, const Box &Elements);

/// The part of a halo update of A between ranks (collective): the halo rows
/// each rank holds below its own (Below) and above (Above), from the ranks
/// that own them, through host buffers (the host's array is left as it is).
void exchangeRankHalos(const ConstructInfo &Info, const ResidentArray &A,
                       bool Below, bool Above);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_RANKKERNEL_H
