//===-- Ranks.h - The MPI job this process is a rank of ----------*- C++
//-*-===//
//
// The MPI transport beside the offload one (DESIGN.md, "Ranks (MPI)"):
// libhomp-mpi.so (homp/MpiLayer.h), loaded at the first construct that asks
// when an MPI launcher started the program with several ranks, or with
// HOMP_MPI=1. Without a launcher nothing is loaded and there is one rank.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_RANKS_H
#define HOMP_LIBOMPTARGET_PLUGIN_RANKS_H

#include <cstdint>
#include <string>
#include <vector>

namespace homp {

struct RankWorld {
  int Rank = 0;
  int Size = 1;
  bool spans() const { return Size > 1; }
};

/// The job, joined at the first call (MPI initialized unless the program
/// did). One rank when there is no job to join; a job that cannot be
/// joined is an error under HOMP_MPI=1, and a warning (each rank then runs
/// alone) under a launcher.
const RankWorld &rankWorld();

/// Collective over the job's ranks: every rank R's Counts[R] bytes to All +
/// Displs[R], this rank's own already there. An error ends the job, naming
/// the construct at Where.
void rankAllGather(const std::string &Where, void *All,
                   const std::vector<int64_t> &Counts,
                   const std::vector<int64_t> &Displs);

/// One message of rankExchange: to or from rank Peer.
struct RankMessageBuffer {
  int Peer;
  void *Data;
  int64_t Bytes;
};

/// Sends and receives at once between this rank and its peers, and waits
/// for all of them. An error ends the job, naming the construct at Where.
void rankExchange(const std::string &Where,
                  const std::vector<RankMessageBuffer> &Sends,
                  const std::vector<RankMessageBuffer> &Receives);

/// Ends every rank of the job after an error on this one (so that none
/// waits for it); returns when this process joined no job.
void abortRanks(int Code);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_RANKS_H
