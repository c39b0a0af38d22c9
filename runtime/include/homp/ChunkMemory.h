//===-- homp/ChunkMemory.h - The memorizing-dynamic scheduler ---*- C++ -*-===//
//
// A labelled loop with a dynamic or profile kind that a data region's arrays
// are aligned to (SPEC.md section 3; the hybrid OpenMP+HIP runtime's
// memorizing-dynamic scheduler): its iterations in chunks, and which device
// owns each chunk, for the data region's lifetime.
//
// An execution that follows the chunks hands them out as devices become
// free: each device first runs the chunks it owns, in order, then takes one
// from the end of the device with the most left, and the chunk's data goes
// with it (libhomp copies it device to device). Who ran a chunk owns it
// after the execution. The other executions keep the assignment and copy
// nothing; when their devices' times drift apart (DriftRatio, twice in a
// row) the next one follows the chunks again, moving only what another
// device takes.
//
// Thread-safe: the devices' threads take chunks at once.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_CHUNKMEMORY_H
#define HOMP_CHUNKMEMORY_H

#include "homp/IndexSet.h"

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace homp {

class ChunkMemory {
public:
  /// Kept executions whose slowest device took this much longer than the
  /// mean of those with chunks count as drifted.
  static constexpr double DriftRatio = 1.3;
  /// Drifted kept executions in a row before the next follows the chunks.
  static constexpr int DriftsToFollow = 2;

  /// Trips iterations in chunks of Chunk (the last may be shorter) over
  /// Positions devices; at first each owns a block of whole chunks (counts
  /// differing by at most one), and the first execution follows them.
  ChunkMemory(int64_t Trips, int64_t Chunk, unsigned Positions);

  int64_t trips() const { return Trips; }
  int64_t chunkSize() const { return Chunk; }
  int64_t chunks() const { return static_cast<int64_t>(Owner.size()); }
  unsigned positions() const { return Positions; }
  /// Chunk C's iterations (trip numbers).
  Range chunk(int64_t C) const;
  /// The iterations (trip numbers) of the chunks position P owns.
  IndexSet owned(unsigned P) const;
  unsigned owner(int64_t C) const;
  /// Changes whenever an owner does (plans made from owned() go stale).
  uint64_t generation() const;

  /// Whether the next execution follows the chunks (the first, or after a
  /// drift), and why ("first execution", "the devices' times drifted
  /// apart: 1.6x the mean").
  bool following() const;
  std::string followWhy() const;
  /// How many executions followed the chunks so far.
  int follows() const;

  /// Starts an execution that follows the chunks; Takes (per position):
  /// which devices take chunks (empty: all). A position that takes none
  /// keeps nothing: its chunks go to the others, and it gets none.
  void beginFollow(const std::vector<bool> &Takes = {});
  /// The next chunk position P runs, with the position that owned it;
  /// std::nullopt when every chunk is handed out.
  struct Taken {
    int64_t Chunk;
    unsigned From;
  };
  std::optional<Taken> next(unsigned P);
  /// Chunk C ran on P (it owns it from the end of the execution).
  void ran(int64_t C, unsigned P);
  /// Ends it: each chunk's owner is the position that ran it (a chunk no
  /// device ran keeps its owner). Returns the chunks that changed owner.
  struct Move {
    int64_t Chunk;
    unsigned From, To;
  };
  std::vector<Move> endFollow();

  /// A kept execution's time per position (0 for a position without
  /// chunks): counts drifts, and makes the next execution follow the chunks
  /// after DriftsToFollow in a row. Returns the imbalance (slowest over the
  /// mean of the positions with chunks; 1 with fewer than two).
  double observe(const std::vector<double> &Seconds);

  /// 'device 0: 0-3, 9; device 1: 4-8' by chunk numbers, positions named
  /// by Name.
  template <typename NameFn> std::string describe(NameFn Name) const {
    std::lock_guard<std::mutex> Lock(M);
    std::string Out;
    for (unsigned P = 0; P < Positions; ++P) {
      Out += (P ? "; " : "") + Name(P) + ": ";
      Out += chunkList(P);
    }
    return Out;
  }

private:
  std::string chunkList(unsigned P) const; ///< M held

  mutable std::mutex M;
  int64_t Trips, Chunk;
  unsigned Positions;
  std::vector<unsigned> Owner; ///< per chunk
  uint64_t Generation = 0;
  bool Follow = true;
  std::string Why = "its first execution";
  int Drifts = 0;
  int Follows = 0;
  // The execution following the chunks: per position, its own chunks not
  // yet taken (taken from the front by it, from the back by others), and
  // who ran each chunk.
  std::vector<std::vector<int64_t>> Queue;
  std::vector<size_t> Front;
  std::vector<char> Taking; ///< per position: whether it takes chunks
  std::vector<int> RanOn;
};

} // namespace homp

#endif // HOMP_CHUNKMEMORY_H
