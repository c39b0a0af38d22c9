//===-- homp/DataEnvironment.h - Arrays resident on devices -----*- C++ -*-===//
//
// The distributed arrays that live on devices across kernels (SPEC.md
// section 6): made resident by 'target data', 'target enter data' (and
// their ends), found by host address when a kernel or 'target update' uses
// them, reference counted as OpenMP counts mappings. The core keeps the
// books; libhomp allocates, copies and frees the device storage.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_DATAENVIRONMENT_H
#define HOMP_DATAENVIRONMENT_H

#include "homp/Abi.h"
#include "homp/ChunkMemory.h"
#include "homp/Distribution.h"
#include "homp/Halo.h"
#include "homp/LoopSpace.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace homp {

/// Which copies of a duplicated array (every device holds all of it) are
/// current, by position. A copy is stale when it misses what another copy
/// was changed by since (a kernel on one device, a standard construct
/// there, an update of some devices only). A stale copy is brought up to
/// date from a current one before it is used, and never copied back. At
/// least one copy is always current: the last one changed.
class CopyCurrency {
public:
  /// Position P's copy was changed: every other one is stale. Returns
  /// whether that changed which copies are current.
  bool changedOn(unsigned P, unsigned Positions);
  /// The copies of the positions Listed says were updated from the host:
  /// the others miss it. Returns whether that changed which are current.
  bool updatedOnly(const std::vector<bool> &Listed);
  /// Every copy is current (each was given the same values).
  void allCurrent() { Stale.clear(); }
  bool stale(unsigned P) const { return P < Stale.size() && Stale[P]; }
  /// The first current copy.
  unsigned current() const;
  /// The stale copies among the positions Wanted says.
  std::vector<unsigned> staleAmong(const std::vector<bool> &Wanted) const;
  /// P's copy was brought up to date from a current one.
  void refreshed(unsigned P) {
    if (P < Stale.size())
      Stale[P] = 0;
  }

private:
  std::vector<char> Stale; ///< per position; empty: none is
};

/// A data region's array split over the ranks of an MPI job (RankKernel.h
/// in libhomp): per rank, the rows of dimension 0 it owns, those its halo
/// adds (kept current by halo updates: Valid), and those it stores (Held:
/// the region's arrays store alike, so that their devices' parts line up),
/// and the section the program mapped, which every rank's host array
/// completes at the region's end.
struct RankRows {
  int Rank = 0; ///< this process's
  std::vector<Range> Own, Valid, Held;
  Box Whole;
};

/// One distributed array resident on its devices.
struct ResidentArray {
  std::string Name;
  std::string Where; ///< "the data region at FILE:LINE:COL", for messages
  char *HostBase = nullptr; ///< host address of element [0]...[0]
  Distribution Dist;
  abi::MapType Map = abi::MapType::ToFrom; ///< as first mapped
  /// Per position: device storage for the elements Spans[p] (relative to
  /// element [0]...[0]); nullptr for the host, which uses host memory.
  std::vector<void *> Storage;
  /// Per position: what the device allocated and its size, when Storage[p]
  /// was placed inside it (libhomp frees this); else nullptr and 0.
  struct Allocation {
    void *Ptr = nullptr;
    size_t Bytes = 0;
  };
  std::vector<Allocation> Allocations;
  std::vector<Range> Spans;
  /// Per position: whether libomptarget knows Storage as the host bytes of
  /// Spans (omp_target_associate_ptr), so standard constructs find it.
  std::vector<bool> Associated;
  long RefCount = 0;
  /// Set when it becomes resident, never reused: tells it from a later
  /// array at the same address (plans cached by construct compare it).
  uint64_t Id = 0;
  HaloPlanCache HaloPlans; ///< the copies of its halo updates
  /// Its dimension FollowsDim is aligned to a memorizing loop's chunks
  /// (LabelledSplit::Memory): each device owns the elements of the chunks
  /// it owns, and its storage spans the whole section, so that a chunk's
  /// elements can move to another device without moving the rest.
  std::shared_ptr<ChunkMemory> Follows;
  unsigned FollowsDim = 0;
  /// Split over the ranks of an MPI job: this rank holds its rows alone
  /// (Dist is over them); nullptr: whole on every rank.
  std::shared_ptr<const RankRows> Ranks;
  /// A duplicated array's copies: which are current. Guarded by
  /// CopiesLock, which also orders the copies that bring them up to date.
  mutable CopyCurrency Copies;
  mutable std::mutex CopiesLock;

  /// Host bytes of the mapped section, from its first to its last element.
  uintptr_t hostBegin() const;
  uintptr_t hostEnd() const;
  /// The device address that stands for host address Host on the device at
  /// Position (whose storage must span it, or lie around it).
  void *deviceAddress(unsigned Position, const void *Host) const;
};

/// Resident arrays by host address. Not synchronised: libhomp holds a lock.
class ResidentTable {
public:
  /// The array whose mapped bytes hold Addr (or that starts at Addr).
  ResidentArray *find(const void *Addr) const;
  /// The array whose element [0]...[0] is at Base (its section may start
  /// later), else find(Base).
  ResidentArray *findByBase(const void *Base) const;
  /// Every array whose element [0]...[0] is at Base (sections of one array
  /// made resident apart), in address order; else find(Base) if any.
  std::vector<ResidentArray *> findAllByBase(const void *Base) const;
  /// Adds A with a reference count of 1. Returns nullptr (and keeps A out)
  /// if its bytes overlap an array already resident.
  ResidentArray *insert(std::unique_ptr<ResidentArray> A);
  /// Drops one reference; returns true when it was the last.
  static bool release(ResidentArray &A) { return --A.RefCount == 0; }
  /// Forgets A (after its storage was freed).
  void erase(ResidentArray *A) { take(A); }
  /// Forgets A and hands it to the caller (nullptr if A is not here).
  std::unique_ptr<ResidentArray> take(ResidentArray *A);
  bool empty() const { return Arrays.empty(); }
  /// Calls F(const ResidentArray &) for each array, by address.
  template <typename Fn> void forEach(Fn F) const {
    for (const auto &[Begin, A] : Arrays)
      F(*A);
  }
  size_t size() const { return Arrays.size(); }
  /// A new id for an array whose parts changed (ResidentArray::Id).
  uint64_t renumber() { return ++LastId; }

private:
  std::map<uintptr_t, std::unique_ptr<ResidentArray>> Arrays; ///< by begin
  uint64_t LastId = 0; ///< of the last array inserted
};

/// The split a data region gave a labelled loop nest (ALIGN(label)): per
/// loop, per position of the region's devices, the loop indices.
struct LabelledSplit {
  std::string Label;
  std::vector<int> Devices;
  std::vector<std::vector<IndexSet>> Indices;
  /// For HOMP_INFO, how the split was made where it says more than the
  /// policy ("capped by memory: 0"); empty otherwise.
  std::string Note;
  /// A loop with a dynamic or profile kind (SPEC 3, memorizing dynamic):
  /// loop MemoryLoop's indices are those of the chunks each device owns,
  /// which its executions change; Bounds converts them to indices.
  std::shared_ptr<ChunkMemory> Memory;
  unsigned MemoryLoop = 0;
  LoopBounds MemoryBounds;
  /// The loop is AUTO, and AUTO picked the memorizing scheduler (its
  /// kernels run SCHED_DYNAMIC over the chunks).
  bool MemoryByAuto = false;

  /// The indices of loop K for device Id (none for a device the data region
  /// does not use); false if the nest has no loop K.
  bool indices(unsigned K, int Id, IndexSet &Out) const;
};

} // namespace homp

#endif // HOMP_DATAENVIRONMENT_H
