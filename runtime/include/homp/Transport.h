//===-- homp/Transport.h - Memories, the copies between them ----*- C++ -*-===//
//
// The transport moves data: it allocates and frees memory on devices and
// copies boxes of an array's elements between memories, each copy starting
// with a ticket that the caller waits on. Every copy homp makes of a
// program's data goes through one: a kernel's parts, a data region's
// residency, halo programs, the edge halos. Copies that may run together
// are started together and waited for together (CopyBatch), so a
// transport that runs them asynchronously (a GPU's streams, later an MPI
// transport) overlaps them without its callers changing.
//
// libhomp's transport is the offload runtime's omp_target_memcpy[_rect]
// (libomptarget-plugin/transport/OffloadTransport.h). MemoryTransport, here, keeps
// every device's memory in the host's and runs a copy only when it is
// waited for: the core's tests run the planned copies end to end on it,
// and see a copy to the wrong device, out of its storage, or never waited
// for.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_TRANSPORT_H
#define HOMP_TRANSPORT_H

#include "homp/Distribution.h"
#include "homp/IndexSet.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace homp {

/// One side of a box copy: memory holding the array in its layout, as the
/// address of element [0]...[0] there, or a dense buffer of just the box.
struct BoxEnd {
  char *Base = nullptr;
  int Device = 0;
  bool Dense = false; ///< Base holds the box alone, row after row
};

/// A copy of a box of elements between two memories, worked out: one
/// contiguous run when Dims is 1, else Dims nested dimensions of Volume
/// elements each, in memories whose dimensions are DstDims and SrcDims
/// long (omp_target_memcpy_rect's terms, at offset zero).
struct BoxCopy {
  char *Dst = nullptr, *Src = nullptr;
  int DstDevice = 0, SrcDevice = 0;
  size_t ElementSize = 0;
  unsigned Dims = 1;
  size_t Volume[MaxRank] = {}, DstDims[MaxRank] = {}, SrcDims[MaxRank] = {};

  /// The bytes it moves.
  size_t bytes() const;
  /// The bytes from the first to the last one it writes (Dst) or reads.
  size_t dstExtent() const;
  size_t srcExtent() const;
  /// This copy with its destination and source moved by DstShift and
  /// SrcShift bytes (a staging buffer's address, for copies planned at
  /// offsets in it).
  BoxCopy shifted(ptrdiff_t DstShift, ptrdiff_t SrcShift) const;
};

/// The copy of the box SrcBox at Src to the box DstBox (the same shape,
/// anywhere) at Dst of an array of Shape, in as few contiguous runs as the
/// layout allows.
BoxCopy planBoxCopy(const ArrayShape &Shape, BoxEnd Dst, const Box &DstBox,
                    BoxEnd Src, const Box &SrcBox);

/// Runs C with the host's memcpy, a run at a time: both of its ends must be
/// memory the host addresses (the host's, or a CPU offload device's).
void copyWithMemcpy(const BoxCopy &C);

/// The copy of Bytes contiguous bytes.
BoxCopy bytesCopy(void *Dst, int DstDevice, const void *Src, int SrcDevice,
                  size_t Bytes);

/// A copy a transport started. Id 0: it is over already (Failed says how);
/// else the transport's own number of it, to wait for.
struct Ticket {
  uint64_t Id = 0;
  bool Failed = false;
};

class Transport {
public:
  virtual ~Transport() = default;

  /// Bytes of Device's memory, or nullptr when it has none to give.
  /// Reusable: the block may be one released before (and goes back to
  /// those kept when released); Bytes then becomes its size, at least what
  /// was asked and at most a quarter more.
  virtual void *allocate(int Device, size_t &Bytes, bool Reusable) = 0;
  /// Gives back what allocate returned, with the same Bytes and Reusable.
  virtual void release(int Device, void *Ptr, size_t Bytes, bool Reusable) = 0;
  /// Starts C.
  virtual Ticket copy(const BoxCopy &C) = 0;
  /// Waits until T's copy is over; false when it failed.
  virtual bool wait(Ticket T) = 0;
  /// The calling thread's staging buffer in host memory (pinned for the
  /// devices that need it), at least Bytes long, until the thread asks
  /// again.
  virtual char *staging(size_t Bytes) = 0;
  /// The host's device number: where host arrays and staging buffers are.
  virtual int host() const = 0;
};

/// Copies started together, to wait for together. The tickets of copies
/// that are over already are not kept: with a synchronous transport a
/// batch allocates nothing.
class CopyBatch {
public:
  explicit CopyBatch(Transport &T) : T(T) {}
  CopyBatch(const CopyBatch &) = delete;
  CopyBatch &operator=(const CopyBatch &) = delete;
  /// Waits: a batch's copies are over when it ends.
  ~CopyBatch() { wait(); }

  void copy(const BoxCopy &C) { add(T.copy(C)); }
  void add(Ticket K) {
    if (K.Failed)
      failed(Count);
    else if (K.Id)
      Pending.push_back({K, Count});
    ++Count;
  }
  /// Whether a copy failed as it started (the rest need not start).
  bool failedYet() const { return FirstFailed.has_value(); }
  /// Waits for every copy started; false when one failed.
  bool wait();
  /// Which copy failed first, in the order they started (0 for the first).
  std::optional<size_t> firstFailed() const { return FirstFailed; }

private:
  void failed(size_t I) {
    if (!FirstFailed || I < *FirstFailed)
      FirstFailed = I;
  }

  Transport &T;
  std::vector<std::pair<Ticket, size_t>> Pending;
  size_t Count = 0;
  std::optional<size_t> FirstFailed;
};

/// One array's storage on one device: elements Span of the array (offsets
/// from element [0]...[0]) at Ptr, laid out like the host's array from
/// the first element the device holds to the last, so global indices stay
/// valid there.
struct Storage {
  int Device = 0;
  void *Ptr = nullptr;
  Range Span;
  /// What the transport allocated, when Ptr was placed inside it (a
  /// reusable block); else null.
  void *Allocation = nullptr;
  size_t Bytes = 0; ///< of Allocation
};

/// Allocates storage for the elements Span of an array of Shape on Device.
/// With PageOffset (see storageColors), the storage starts that many bytes
/// past the start of a page, in a reusable block. Returns false when the
/// device cannot provide it (Error says why).
bool allocateStorage(Transport &T, int Device, const ArrayShape &Shape,
                     Range Span, Storage &Out, std::string &Error,
                     std::optional<int64_t> PageOffset = std::nullopt);
void freeStorage(Transport &T, Storage &S);

/// The device address standing for the host address HostAddr of an array
/// whose element [0]...[0] is at Host, in storage S.
void *deviceAddress(const ArrayShape &Shape, const char *Host, const Storage &S,
                    const void *HostAddr);
/// S as a copy's end: the address its element [0]...[0] would have.
BoxEnd storageEnd(const ArrayShape &Shape, const Storage &S);

enum class Direction { ToDevice, FromDevice };

/// Copies the elements Elements of an array of Shape from Src to Dst (each
/// the address its element [0]...[0] has there), all started together.
/// Adds the bytes moved to Bytes; false when a copy fails.
bool copyBoxes(Transport &T, const ArrayShape &Shape, BoxEnd Dst, BoxEnd Src,
               const ProductSet &Elements, int64_t &Bytes);

/// Copies the elements Elements of an array of Shape, whose element
/// [0]...[0] is at Host in host memory, to or from S, all started together.
/// Adds the bytes moved to Bytes; false when a copy fails.
bool copyElements(Transport &T, Direction Dir, const ArrayShape &Shape,
                  char *Host, const Storage &S, const ProductSet &Elements,
                  int64_t &Bytes);

/// Fills the halo cells past the array's ends (periodic and reflecting
/// edges) that the device at Position of Dist holds and whose sources lie
/// in Sources, at Device, from the host's array at Host. Adds the bytes to
/// Bytes; false when a copy fails.
bool fillEdgeHalos(Transport &T, const Distribution &Dist, unsigned Position,
                   char *Host, BoxEnd Device, int64_t &Bytes,
                   const ProductSet &Sources);

/// A transport whose devices 0 to Devices - 1 keep their memory in the
/// host's (the host is device Devices), for tests. Allocations are filled
/// with a pattern; a copy runs when it is waited for, and fails (and is
/// reported in errors()) when an end that is not the host's lies outside
/// every allocation of its device. At most FailAfter copies succeed.
class MemoryTransport final : public Transport {
public:
  explicit MemoryTransport(int Devices) : Devices(Devices) {}
  ~MemoryTransport() override;

  void *allocate(int Device, size_t &Bytes, bool Reusable) override;
  void release(int Device, void *Ptr, size_t Bytes, bool Reusable) override;
  Ticket copy(const BoxCopy &C) override;
  bool wait(Ticket T) override;
  char *staging(size_t Bytes) override;
  int host() const override { return Devices; }

  /// What went wrong: bad ends, unknown releases, copies waited for twice.
  const std::vector<std::string> &errors() const { return Errors; }
  /// Copies started and not waited for.
  size_t unwaited() const { return Pending.size(); }
  /// Bytes allocated on Device and not released.
  size_t heldBytes(int Device) const;
  std::optional<size_t> FailAfter;

  /// The pattern allocations start with.
  static constexpr unsigned char Fill = 0xA5;

private:
  bool within(int Device, const char *P, size_t Extent) const;

  int Devices;
  struct Block {
    int Device;
    size_t Bytes;
  };
  std::map<const char *, Block> Blocks; ///< by address
  std::map<uint64_t, BoxCopy> Pending;
  uint64_t Next = 0;
  size_t Done = 0;
  std::vector<char> Stage;
  std::vector<std::string> Errors;
};

} // namespace homp

#endif // HOMP_TRANSPORT_H
