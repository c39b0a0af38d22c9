//===-- Residency.h - Distributed arrays living on devices ------*- C++ -*-===//
//
// The process's data environment (SPEC.md section 6, DESIGN.md "Data
// environment"): the distributed arrays that 'target data' and 'target
// enter data' made resident, with their device storage, and the data
// regions in progress with the loop splits they decided (ALIGN(label)).
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_RESIDENCY_H
#define HOMP_LIBOMPTARGET_PLUGIN_RESIDENCY_H

#include "OffloadTransport.h"

#include "homp/DataEnvironment.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace homp {

/// Whether any array is resident (cheap; for fast paths).
bool anyResident();

/// A number that changes whenever an array becomes resident or stops
/// being resident: while it stays the same, the arrays at every address
/// and their storage are the same (cheap; for fast paths).
uint64_t residencyGeneration();

/// The resident array whose mapped bytes hold Addr, with a reference taken;
/// nullptr if there is none.
ResidentArray *acquireResident(const void *Addr);

/// The resident array whose element [0]...[0] is at Base (else whose mapped
/// bytes hold it), with a reference taken; nullptr if there is none.
ResidentArray *acquireResidentByBase(const void *Base);

/// acquireResidentByBase for every array at Base: sections of one array
/// made resident apart ('enter data y[0:h]', then 'y[h:n-h]'), each with a
/// reference taken.
std::vector<ResidentArray *> acquireResidentsByBase(const void *Base);

/// Makes an array resident: distributes nothing itself, but allocates
/// storage on every device of A->Dist for what it holds and copies it in
/// when CopyIn. Returns the array (now in the table, one reference), or
/// nullptr with Error when a device cannot hold its part or the bytes
/// overlap an array already resident.
ResidentArray *makeResident(std::unique_ptr<ResidentArray> A, bool CopyIn,
                            std::vector<int64_t> &BytesIn, std::string &Error);

/// The time each device spent on its parts in one call of the functions
/// below (HOMP_INFO's per-device time): device id, seconds.
using DeviceSeconds = std::vector<std::pair<int, double>>;

/// makeResident for several arrays at once (a construct's): each is placed
/// away from those before it, and every device copies its parts of all of
/// them in one go. Returns them in order, or none (nothing allocated) with
/// Error. BytesIn: per array, per position of its devices.
std::vector<ResidentArray *>
makeResidents(std::vector<std::unique_ptr<ResidentArray>> Arrays,
              const std::vector<bool> &CopyIn,
              std::vector<std::vector<int64_t>> &BytesIn, std::string &Error,
              DeviceSeconds *Seconds = nullptr);

/// The error for an item whose 'present' modifier finds no resident array.
std::string notPresent(const std::string &Name);

/// For a standard (single-device) kernel on Device: the device address
/// that stands for host address Host there, when Host is the first element
/// of an array homp holds on Device ('y' passed as a pointer, OpenMP's
/// zero-length section, which libomptarget finds only in the part that
/// holds element 0). The part keeps the array's layout, so the kernel's
/// own indices reach its elements. nullptr otherwise.
void *residentAddressFor(int Device, const void *Host);

/// Why a standard (single-device) 'target update' on Device of the host
/// bytes [Begin, Begin + Bytes) would silently move nothing: they overlap
/// an array homp holds on Device but reach past the part libomptarget knows
/// there (libomptarget skips a section that is not wholly present). Empty
/// when there is no such array.
std::string partialUpdate(int Device, const void *Begin, int64_t Bytes);

/// Why a standard construct's 'always, from' map on Device of the host
/// bytes [Begin, Begin + Bytes) would give the host wrong values: they
/// reach elements of an array homp holds on Device that the device does
/// not own (its halo; with 'halo(*)' all the others' parts), whose values
/// there may be stale. Empty when there is no such array.
std::string haloCopiedOut(int Device, const void *Begin, int64_t Bytes);

/// After a standard 'target update to' on Device of the host bytes [Begin,
/// Begin + Bytes), which libomptarget copied into the device's part of an
/// array homp holds there: fills the part's halo cells past the array's
/// ends (periodic, reflecting edges) whose sources the update changed.
/// False with Error when a copy fails.
bool refillEdgeHalos(int Device, const void *Begin, int64_t Bytes,
                     std::string &Error);

/// Drops a reference to A. At the last one (or with Force) copies each
/// device's owned part out when CopyOut, frees the storage and forgets A.
/// Returns false with Error when a copy fails.
bool releaseResident(ResidentArray *A, bool CopyOut, bool Force,
                     std::vector<int64_t> &BytesOut, std::string &Error);

/// releaseResident for several arrays at once: every device copies out and
/// frees its parts of all of them in one go.
struct Release {
  ResidentArray *Array;
  bool CopyOut, Force;
};
bool releaseResidents(const std::vector<Release> &Releases,
                      std::vector<std::vector<int64_t>> &BytesOut,
                      std::string &Error, DeviceSeconds *Seconds = nullptr);

/// Copies the elements Elements of A between host and every device of A
/// that holds some of them: with ToDevice what each holds (part and halo),
/// with FromDevice what each owns. 'target update'.
bool updateResident(const ResidentArray &A, Direction Dir,
                    const ProductSet &Elements, std::vector<int> Devices,
                    std::vector<int64_t> &Bytes, std::string &Error,
                    DeviceSeconds *Seconds = nullptr);

/// A duplicated array's copies (ResidentArray::Copies): brings those on
/// Devices up to date from a current one, device to device, after the
/// work queued on the devices. Returns false with Error when a copy fails.
bool refreshCopies(const ResidentArray &A, const std::vector<int> &Devices,
                   std::string &Error);

/// A duplicated array's copy on Device may have changed (a kernel or a
/// standard construct there wrote it): the others are stale.
void copyChanged(const ResidentArray &A, int Device);

/// A standard (single-device) construct on Device whose entries point at
/// Ptrs: the duplicated arrays homp holds there that they point into, each
/// with a reference taken and, when Refresh, Device's copy brought up to
/// date first. Empty when there are none (or Device is the host).
std::vector<ResidentArray *> duplicatesUsed(int Device, int32_t N,
                                            void *const *Ptrs, bool Refresh);

/// After that construct: Device's copies changed (Changed) and the others
/// are stale; the references go back.
void doneWithDuplicates(std::vector<ResidentArray *> &Used, int Device,
                        bool Changed);

/// An array that follows a memorizing loop's chunks (ResidentArray::Follows):
/// copies the elements position From owns at the indices Rows of its
/// dimension FollowsDim to position To's storage, device to device, from
/// the thread of To's device (From's work on other chunks may go on: it
/// neither reads nor writes them). Adds the bytes to Bytes; false with
/// Error when the copy fails.
bool moveRows(const ResidentArray &A, const IndexSet &Rows, unsigned From,
              unsigned To, int64_t &Bytes, std::string &Error);

/// Rows of such an array that moved from position From to To.
struct RowsMoved {
  IndexSet Rows;
  unsigned From, To;
};

/// After the execution that moved them: To owns the rows From owned. The
/// array gets a new id (plans made with its old parts go stale). Call it
/// when no construct is using A's parts.
void ownMovedRows(ResidentArray &A, const std::vector<RowsMoved> &Moves);

/// The host's copy of one array that is resident in parts, for a kernel
/// that runs on the host (KernelPlan::OnHost): every resident array at the
/// array's host address (its sections made resident apart), gathered in
/// host memory in the array's layout.
struct HostShadow {
  char *HostBase = nullptr; ///< the array's element [0]...[0] on the host
  std::vector<ResidentArray *> Arrays; ///< a reference held on each
  ArrayShape Shape;                    ///< of Arrays[0]; Span: of them all
  Range Span;
  std::vector<char> Bytes;
  /// Where element [0]...[0] would be in the shadow's memory.
  char *zero() { return Bytes.data() - Span.Begin * Shape.ElementSize; }
  /// The shadow's address for host address Host of the array.
  void *addressOf(const void *Host) {
    return zero() + (static_cast<const char *>(Host) - HostBase);
  }
};

/// Makes the shadow of the array whose resident parts A is one of (a
/// reference taken on each): the host's elements over their span, then
/// each device's owned parts (of a duplicated array, a current copy).
/// Returns false with Error when a copy fails.
bool gatherShadow(const ResidentArray &A, HostShadow &Out, std::string &Error);

/// Copies the shadow back: every device's part and halo (past the array's
/// ends too), and the host's part in place. Every copy of a duplicated
/// array is current then. Gives the references back.
bool scatterShadow(HostShadow &S, bool CopyBack, std::string &Error);

/// Data regions in progress: the splits they gave labelled loops. Entered
/// by the data region's begin and left by its end, on the same thread.
void enterDataRegion(std::shared_ptr<const std::vector<LabelledSplit>> L);
void leaveDataRegion(const std::vector<LabelledSplit> *L);

/// The indices of loop K of the loop labelled Label for device Id, from the
/// innermost data region in progress on this thread that split it (else on
/// any thread); false if no data region did.
bool labelIndices(const std::string &Label, unsigned K, int Id, IndexSet &Out);

/// The note of that split (LabelledSplit::Note); empty if none.
std::string labelNote(const std::string &Label);

/// The chunks that split remembers (LabelledSplit::Memory), with the loop
/// they are of and the region's devices; std::nullopt if it remembers none.
struct LabelMemory {
  std::shared_ptr<ChunkMemory> Memory;
  unsigned Loop = 0;
  LoopBounds Bounds;
  std::vector<int> Devices;
  bool ByAuto = false; ///< LabelledSplit::MemoryByAuto
};
std::optional<LabelMemory> labelMemory(const std::string &Label);

/// How many references A has (its data regions', its constructs').
long residentReferences(const ResidentArray &A);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_RESIDENCY_H
