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

#include "KernelArgs.h"

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
};

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

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_RANKKERNEL_H
