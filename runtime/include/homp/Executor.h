//===-- homp/Executor.h - The one interpreter of steps ----------*- C++ -*-===//
//
// Runs a device's steps (homp/Steps.h) in order on the calling thread: the
// device's lane (its proxy thread for a CPU offload device, the program's
// thread for the host). A kernel's part (lowerPart) and a resident array's
// update (lowerUpdate) both run through it. It copies through a Transport,
// asks its caller for what only the caller can do (allocate where the
// caller places storage, launch a piece, hold the device), and applies the
// failure rules of stepRunsAfter. It decides nothing: every copy, launch
// and release it makes is one of the steps it was given.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_EXECUTOR_H
#define HOMP_EXECUTOR_H

#include "homp/Events.h"
#include "homp/Steps.h"
#include "homp/Transport.h"

#include <cstdint>
#include <string>
#include <vector>

namespace homp {

/// How a device's part went, over the steps run so far: an executor's state
/// between its steps (a scheduled loop's device runs several parts).
struct PartState {
  enum StatusTy : uint8_t {
    Ok,
    /// A step failed before any of the part's results reached the host: the
    /// host may run the part again.
    FailedBeforeResults,
    /// A copy back failed: some results reached the host.
    FailedAfterResults,
    /// Nothing may run the part again (the region's error).
    Fatal,
  } Status = Ok;
  std::string Error; ///< of the first failure
  int64_t BytesIn = 0, BytesOut = 0;
};

/// One array a device's steps move (Step::Array indexes them).
struct PartArray {
  const Distribution *Dist = nullptr; ///< its shape, and its halos' layout
  char *Host = nullptr; ///< where its element [0]...[0] is in host memory
  /// CopyOut to the staging copy: where element [0]...[0] would be in it.
  char *Stage = nullptr;
  Storage *Store = nullptr; ///< its storage on the device (Alloc fills it)
  const std::string *Name = nullptr; ///< for errors
};

/// What a device's steps act on.
struct PartData {
  int Device = 0;
  unsigned Position = 0; ///< of the arrays' distributions
  std::vector<PartArray> Arrays;
};

/// What the executor asks of the part's owner.
class PartActions {
public:
  virtual ~PartActions() = default;
  /// Alloc: storage for St.Span of St.Array in *Data.Arrays[St.Array].Store;
  /// false (with State's status and error set) when there is none. By
  /// default, allocateStorage's wherever the transport puts it.
  virtual bool allocate(Transport &T, const PartData &Data, const Step &St,
                        PartState &State);
  /// Launch: runs piece St.Piece; on failure sets State's status and error.
  virtual void launch(const PartData &Data, const Step &St, PartState &State);
  /// Hold: keeps the device busy (HOMP_EMULATE).
  virtual void hold(const PartData &Data, PartState &State);
  /// The copies to the device (Alloc, CopyIn, FillEdge: In) or back (those
  /// of a part whose steps succeeded so far) are over: Bytes of them, from
  /// Start. For events; nothing runs differently with or without them.
  virtual void copied(bool In, EventClock::time_point Start, int64_t Bytes);
};

/// Runs Steps, in order, on the device of Data: each of them that
/// stepRunsAfter allows once the steps before failed. Copies add to State's
/// bytes; the first failure sets its status and error (a copy's names the
/// array and the device).
void runSteps(Transport &T, const std::vector<Step> &Steps,
              const PartData &Data, PartActions &Actions, PartState &State);

} // namespace homp

#endif // HOMP_EXECUTOR_H
