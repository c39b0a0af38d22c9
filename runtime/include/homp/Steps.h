//===-- homp/Steps.h - What a device does for its part of a kernel -*- C++
//-*-=//
//
// A kernel's plan (homp/KernelPlan.h) says which device runs and holds
// what; lowering turns one device's part of it into the steps that do it,
// in order: allocate storage for each array the device copies, copy in
// what it holds, fill the halo cells past the array's ends, launch each
// piece, copy back what it owns (or what its iterations write), free the
// storage, and hold the device for HOMP_EMULATE. libhomp's executor
// interprets the steps and decides nothing of its own: which arrays move,
// which elements, where they go back to, and how many sub-parts a share
// runs in are decided here, with no libomptarget in sight.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_STEPS_H
#define HOMP_STEPS_H

#include "homp/IndexSet.h"
#include "homp/KernelPlan.h"

#include <cstdint>
#include <vector>

namespace homp {

/// One step of a device's part. Array: the descriptor's array it moves;
/// Piece: the piece of the device's DeviceWork it launches.
struct Step {
  enum KindTy : uint8_t {
    Alloc,  ///< storage for the elements Span of Array (part and halo)
    CopyIn, ///< Elements of Array from the host's array to the storage
    /// Array's halo cells past its ends whose sources lie in Elements,
    /// from the host's array
    FillEdge,
    Launch,  ///< piece Piece
    CopyOut, ///< Elements of Array back: to the host's array, or ToStage
    Free,    ///< Array's storage
    Hold,    ///< HOMP_EMULATE: the device stays busy as if it were slower
  } Kind = Launch;
  /// CopyOut: to the device's staging copy of the array (a duplicate copied
  /// back, merged with the other devices' when the kernel is done).
  bool ToStage = false;
  unsigned Array = 0;
  unsigned Piece = 0;
  Range Span;          ///< Alloc
  ProductSet Elements; ///< CopyIn, CopyOut, FillEdge
};

/// What lowering needs to know of one array of the kernel.
struct StepArray {
  /// The device copies it: the kernel maps it and its body uses it (not an
  /// array resident in a data region, which stays where it is).
  bool Moves = false;
  bool In = false;  ///< map(to|tofrom)
  bool Out = false; ///< map(from|tofrom)
};

/// One device's part of a kernel to lower.
struct PartInput {
  const KernelPlan *Plan = nullptr;
  unsigned Position = 0; ///< of the kernel's devices
  int Device = 0;        ///< its id
  /// It works on the host's memory (the host, or a device of a program that
  /// requires unified_shared_memory): nothing is allocated or copied.
  bool InHostMemory = false;
  /// HOMP_EMULATE slows the device down: a Hold ends the part.
  bool Hold = false;
  std::vector<StepArray> Arrays; ///< per array of the descriptor
};

/// The steps of In's part, in the order they run:
///  - per array that moves and of which the device holds something: Alloc
///    of what it holds (halo cells past the ends included), CopyIn of what
///    it holds when the array is copied in or is a duplicate copied back
///    (which starts as the host's values, so that elements a device leaves
///    alone compare equal when the copies are merged), and FillEdge when
///    the device holds cells past the array's ends (periodic and
///    reflecting edges);
///  - a Launch per piece;
///  - per array allocated: a duplicate copied back comes back whole to the
///    staging copy; another copied back brings what the device owns, or
///    what its iterations write where several devices own the same
///    elements (KernelPlan::CopyBack);
///  - a Free per array allocated, and the Hold.
/// An executor runs Alloc, CopyIn, FillEdge and Launch only while every
/// step before succeeded; CopyOut unless a step before the copies out
/// failed; Free and Hold always.
std::vector<Step> lowerPart(const PartInput &In);

/// The steps of 'target update' of the elements Elements of an array
/// resident as X (Array 0), on the device at Position: to the device, the
/// CopyIn of what it holds of them (its halo cells among them), then the
/// FillEdge of its cells past the array's ends whose sources are among
/// them; from the device, the CopyOut of what it owns of them. None when
/// nothing of them concerns the device.
std::vector<Step> lowerUpdate(const Distribution &X, unsigned Position,
                              bool ToDevice, const ProductSet &Elements);

/// Whether a step of Kind runs once steps have failed: Failed, a step
/// before the part's results reached the host (an allocation, a copy in, a
/// launch); FailedBack, a copy back.
bool stepRunsAfter(Step::KindTy Kind, bool Failed, bool FailedBack);

/// What subPartCount knows of one array of the kernel on one device.
struct SubPartArray : StepArray {
  /// Its part is cut with the sub-parts (it follows the scheduled loop, or
  /// is split along the loop the share is cut along: cutAlongLoop).
  bool Cut = false;
  double ElementSize = 0;
  double Held = 0, Owned = 0; ///< elements the device holds and owns
};

/// A CPU offload device runs its share of a scheduled loop or of an
/// owner-computes loop in sub-parts of about this many bytes copied in and
/// out, one after the other: each sub-part's data is still in the core's
/// cache when its kernel reads it and when it is copied back, and its
/// storage comes back from the storage cache, each page already touched.
/// Copied whole, a share of megabytes goes through memory three times and,
/// whenever its size changes (AUTO's learning), faults in every page of
/// fresh storage.
constexpr double SubPartBytes = 1 << 20;

/// How many sub-parts a device runs its share of Iterations iterations in
/// (1: whole), its arrays as Arrays say. Scheduled: the share is a
/// scheduler's (its arrays aligned to the loop are cut with it), whose
/// iterations copy BytesPerIteration each; otherwise an owner-computes
/// share, whose bytes are its cut arrays'. What each sub-part copies again
/// (the arrays not cut, whole, and the halo cells of those that are) may
/// add an eighth to the share's copies; an array not cut that is copied
/// back would be copied back by each sub-part over what the ones before
/// wrote: never in sub-parts.
int64_t subPartCount(const std::vector<SubPartArray> &Arrays, bool Scheduled,
                     double BytesPerIteration, int64_t Iterations);

} // namespace homp

#endif // HOMP_STEPS_H
