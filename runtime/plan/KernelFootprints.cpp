//===-- KernelFootprints.cpp - What each device's iterations touch --------===//
//
// The planner's checks that every subscript of the body stays inside what
// each device holds (its part and halo) and every write inside what it
// owns; what cannot be bounded makes the array whole, or the kernel run on
// one device or on the host (homp/KernelPlan.h, step 4).
//
//===----------------------------------------------------------------------===//

#include "KernelPlanner.h"

#include <algorithm>
#include <optional>
#include <string>

namespace homp {
namespace planning {

static std::string describeOffsets(const std::string &Name,
                                   const Subscript &S) {
  if (S.Min == 0 && S.Max == 0)
    return "";
  return "; the loop uses '" + Name + "' at offsets " + std::to_string(S.Min) +
         ".." + std::to_string(S.Max) + " of its index";
}

/// Whether the access touches nothing: a subscript whose offsets are an
/// empty range (an inner loop that runs no iteration).
static bool touchesNothing(const abi::Access &Use) {
  for (unsigned Dm = 0; Dm < Use.Rank; ++Dm)
    if (Use.Subs[Dm].Kind != Subscript::Unknown &&
        Use.Subs[Dm].Min > Use.Subs[Dm].Max)
      return true;
  return false;
}

/// Whether the elements Use touches of X are bounded wherever they must be:
/// every dimension that some running device does not hold whole has a
/// subscript the plugin could read (and the access has X's rank).
bool Planner::bounded(const Distribution &X, const abi::Access &Use) const {
  // Every device that holds a duplicate holds all of it (one that holds
  // nothing is refused by checkFootprint).
  if (touchesNothing(Use) || X.duplicated())
    return true;
  for (unsigned Dm = 0; Dm < X.Shape.Rank; ++Dm) {
    // Whether every running device holds, and owns, the whole dimension: a
    // read may then go anywhere in it, a write too (not into a halo cell,
    // which another device owns).
    bool Held = true, Owned = true;
    const IndexSet Section(X.Shape.Section.Dims[Dm]);
    for (unsigned Pos = 0; Pos < P; ++Pos) {
      if (Out.Work[Pos].Iterations.empty())
        continue;
      std::optional<unsigned> Q = X.positionOf(In.Devices[Pos]);
      Held &= Q && X.held(*Q).Dims[Dm].contains(Section);
      Owned &= Q && X.Owned[*Q].Dims[Dm].contains(Section);
    }
    const bool Known = Use.Rank == X.Shape.Rank;
    if ((!Known || Use.Subs[Dm].Kind == Subscript::Unknown) && !Held)
      return false;
    if (Use.Written && (!Known || Use.Writes[Dm].Kind == Subscript::Unknown) &&
        !Owned)
      return false;
  }
  return true;
}

/// Why Use cannot be bounded, for messages.
static std::string unboundedWhy(const abi::Access &Use, const Distribution &X) {
  if (!Use.Why.empty())
    return Use.Why;
  if (Use.Rank == 0)
    return "it is used without a subscript";
  if (Use.Rank != X.Shape.Rank)
    return "it is used with " + std::to_string(Use.Rank) + " subscript" +
           (Use.Rank == 1 ? "" : "s") + " and has " +
           std::to_string(X.Shape.Rank) + " dimensions";
  return "a subscript homp cannot bound";
}

bool Planner::checkFootprint(const Distribution &X, const abi::Access &Use,
                             const std::string &Where) {
  if (touchesNothing(Use))
    return true;
  std::string Resident =
      Where.empty() ? ""
                    : " ('" + Use.Name + "' is distributed by " + Where + ")";
  // A whole copy per device, kept on the devices: writes from several of
  // them would leave the copies different, and the one copied back would
  // hold only its own device's (a kernel's own duplicate is merged, with a
  // check for conflicts, when it is copied out).
  unsigned Running = 0;
  for (unsigned Pos = 0; Pos < P; ++Pos)
    Running += !Out.Work[Pos].Iterations.empty();
  if (!Where.empty() && X.duplicated() && Use.Written && Running > 1) {
    Error = "'" + Use.Name + "' is whole on every device of " + Where +
            " (DUPLICATE), and this kernel writes it on " +
            std::to_string(Running) +
            " devices, which would leave their copies different: distribute "
            "it, or write it in a kernel on one device";
    return false;
  }
  for (unsigned Pos = 0; Pos < P; ++Pos) {
    const ProductSet &It = Out.Work[Pos].Iterations;
    if (It.empty())
      continue;
    int Dev = In.Devices[Pos];
    std::optional<unsigned> Q = X.positionOf(Dev);
    if (!Q) {
      Error = "device " + std::to_string(Dev) +
              " runs iterations of this kernel but holds no part of '" +
              Use.Name + "'" + Resident;
      return false;
    }
    ProductSet Held = X.held(*Q);
    // A duplicate its device list leaves this device out of, whatever the
    // subscripts (a split array's are checked below, dimension by dimension).
    if (Held.empty() && X.duplicated()) {
      Error = "device " + std::to_string(Dev) +
              " runs iterations of this kernel but holds no part of '" +
              Use.Name + "'" + Resident;
      return false;
    }
    if (Use.Rank != X.Shape.Rank)
      continue; // bounded: every dimension is held whole
    for (unsigned Dm = 0; Dm < Use.Rank; ++Dm) {
      const Subscript &S = Use.Subs[Dm];
      if (S.Kind == Subscript::Unknown ||
          (S.Kind == Subscript::Linear && S.Loop >= Nest.Rank))
        continue; // held whole (bounded() says so)
      // Past the array's ends (without a periodic or reflecting halo there)
      // no device holds anything: a stencil guards those indices itself,
      // as HOMP'16 Figure 3 does with 'if (i==0||i==n-1) continue;'.
      const abi::Halo &Hl = X.Halos[Dm];
      const Range &Sec = X.Shape.Section.Dims[Dm];
      Range Limit{Sec.Begin - (Hl.LeftEdge != abi::Edge::None ? Hl.Left : 0),
                  Sec.End + (Hl.RightEdge != abi::Edge::None ? Hl.Right : 0)};
      const std::string DimText =
          X.Shape.Rank > 1 ? "dimension " + std::to_string(Dm) + " of " : "";
      // The indices the device's iterations give the loop variable, and
      // those of them whose elements (at offsets Lo..Hi) are in Set.
      const bool Lin = S.Kind == Subscript::Linear;
      const IndexSet Own =
          Lin ? indicesOf(Nest.Loops[S.Loop], It.Dims[S.Loop]) : IndexSet();
      auto Needs = [&](int64_t Lo, int64_t Hi) {
        return Lin ? Own.widened(Lo, Hi) : IndexSet(Range{Lo, Hi + 1});
      };
      // Whether some iteration of the device uses an element of Missing
      // (indicesOf spans each run of iterations from end to end; a step
      // above 1 skips indices in between).
      auto Touches = [&](const IndexSet &Missing, int64_t Lo, int64_t Hi) {
        if (Missing.empty())
          return false;
        if (!Lin)
          return true;
        return !iterationsIn(Nest.Loops[S.Loop], Nest.Trips[S.Loop],
                             Missing.widened(-Hi, -Lo))
                    .intersect(It.Dims[S.Loop])
                    .empty();
      };
      // But the body writing the array there, in iterations whose every
      // subscript lies past them, would write outside the device's
      // storage: the loop runs beyond the section the construct maps. (Reads
      // there may be guarded, as in 'i < 1 ? x[i] : 0'.)
      IndexSet Beyond =
          Use.Written ? (Lin ? Own.minus(IndexSet(Range{Limit.Begin - S.Max,
                                                        Limit.End - S.Min}))
                             : Needs(S.Min, S.Max).minus(IndexSet(Limit)))
                      : IndexSet();
      if (!Beyond.empty() &&
          (!Lin || !iterationsIn(Nest.Loops[S.Loop], Nest.Trips[S.Loop], Beyond)
                        .intersect(It.Dims[S.Loop])
                        .empty())) {
        Error = "device " + std::to_string(Dev) + " would use elements " +
                (Lin ? Beyond.widened(S.Min, S.Max) : Beyond).str() + " of " +
                DimText + "'" + Use.Name + "', outside the section " +
                IndexSet(Sec).str() +
                " the construct maps: the loop runs past it" + Resident;
        return false;
      }
      IndexSet Needed = Needs(S.Min, S.Max).intersect(IndexSet(Limit));
      if (Touches(Needed.minus(Held.Dims[Dm]), S.Min, S.Max)) {
        Error = "device " + std::to_string(Dev) + " would use elements " +
                Needed.str() + " of " + DimText + "'" + Use.Name +
                "' but holds only " + Held.Dims[Dm].str() +
                (Lin ? describeOffsets(Use.Name, S) : std::string());
        const abi::Halo &H = X.Halos[Dm];
        if (Lin && (S.Min != 0 || S.Max != 0))
          Error += " and its halo there is " + abi::haloWidthText(H.Left) +
                   ":" + abi::haloWidthText(H.Right) + " wide";
        Error += Resident;
        return false;
      }
      // A write must stay inside what the device owns: its halo cells are
      // never copied back, and another device owns those elements.
      const Subscript &W = Use.Writes[Dm];
      if (!Use.Written || X.duplicated() || W.Kind == Subscript::Unknown)
        continue;
      IndexSet Written = Needs(W.Min, W.Max).intersect(IndexSet(Sec));
      IndexSet Foreign = Written.minus(X.Owned[*Q].Dims[Dm]);
      if (Touches(Foreign, W.Min, W.Max)) {
        Error = "device " + std::to_string(Dev) + " would write elements " +
                Foreign.str() + " of " + DimText + "'" + Use.Name +
                "', which it does not own (it owns " +
                X.Owned[*Q].Dims[Dm].str() +
                "): its copies of them are never copied back" + Resident;
        return false;
      }
    }
  }
  return true;
}

bool Planner::widenReadHalo(Distribution &X, const abi::Access &Use) const {
  if (Use.Written || Use.Rank != X.Shape.Rank)
    return false;
  bool Widened = false;
  for (unsigned Dm = 0; Dm < Use.Rank; ++Dm) {
    const Subscript &S = Use.Subs[Dm];
    if (!X.Split[Dm] || S.Kind != Subscript::Linear || S.Loop >= Nest.Rank)
      continue;
    abi::Halo &H = X.Halos[Dm];
    if (S.Min < 0 && -S.Min > H.Left) {
      H.Left = -S.Min;
      Widened = true;
    }
    if (S.Max > 0 && S.Max > H.Right) {
      H.Right = S.Max;
      Widened = true;
    }
  }
  return Widened;
}

bool Planner::checkFootprints() {
  bool UsesResidents = false;
  for (size_t I = 0; I < D.Arrays.size(); ++I)
    UsesResidents |= I < In.ItemResidents.size() && In.ItemResidents[I];
  for (const KernelPlanInput::Resident &R : In.AccessResidents)
    UsesResidents |= R.Dist != nullptr;
  // Resident arrays live on the devices in parts: a kernel whose use of one
  // cannot be bounded, or leaves the parts, runs on the host, which gathers
  // them (the layer), rather than guess.
  auto OnHost = [&](std::string Why) {
    Out.Placement = KernelPlan::OnHost;
    Out.Why = std::move(Why);
    return true;
  };
  auto Check = [&](Distribution &X, const abi::Access &Use, bool Resident,
                   const std::string &Where) {
    if (!bounded(X, Use)) {
      std::string Why = "homp cannot bound the elements of '" + Use.Name +
                        "' the loop uses (" + unboundedWhy(Use, X) + ")";
      if (Resident)
        return OnHost(Why + " and '" + Use.Name + "' is distributed by " +
                      Where);
      if (!Use.Written) {
        X.Whole = true;
        Out.WidenedNotes.push_back(Why + ": every device holds all of it");
        return true;
      }
      if (UsesResidents)
        return OnHost(Why + ", and the loop writes it");
      Out.Placement = KernelPlan::OneDevice;
      Out.Why = Why + ", and the loop writes it";
      return true;
    }
    if (checkFootprint(X, Use, Resident ? Where : ""))
      return true;
    if (Resident)
      return OnHost(Error);
    // Read past the parts at offsets of the loop's index, an array of the
    // kernel's own is copied in with them (writes stay strict: another
    // device owns those elements).
    if (!Use.Written) {
      const std::array<abi::Halo, MaxRank> Before = X.Halos;
      if (widenReadHalo(X, Use) && checkFootprint(X, Use, "")) {
        Error.clear();
        std::string Widths;
        for (unsigned Dm = 0; Dm < X.Shape.Rank; ++Dm)
          if (X.Split[Dm])
            Widths += (Widths.empty() ? "" : ", ") +
                      abi::haloWidthText(X.Halos[Dm].Left) + ":" +
                      abi::haloWidthText(X.Halos[Dm].Right);
        Out.WidenedNotes.push_back("each device also gets the elements of '" +
                                   Use.Name +
                                   "' it reads around its part (a read halo "
                                   "of " +
                                   Widths + ")");
        return true;
      }
      X.Halos = Before;
    }
    // An index the same in every iteration ('x[c]') that some device does
    // not hold: no halo would hold it, so every device gets all of an array
    // the loop only reads.
    bool Invariant = false;
    for (unsigned Dm = 0; Dm < Use.Rank; ++Dm)
      Invariant |= X.Split[Dm] && Use.Subs[Dm].Kind == Subscript::Invariant;
    if (Use.Written || !Invariant)
      return false;
    std::string Why = Error;
    X.Whole = true;
    if (!checkFootprint(X, Use, ""))
      return false;
    Error.clear();
    Out.WidenedNotes.push_back(Why + ": every device holds all of '" +
                               Use.Name + "'");
    return true;
  };
  for (size_t I = 0; I < D.Arrays.size(); ++I) {
    const abi::Access *Use = useOf(D.Arrays[I].Name);
    bool Resident = I < In.ItemResidents.size() && In.ItemResidents[I];
    if (Use && !Check(*Items[I], *Use, Resident, "an enclosing construct"))
      return false;
    if (Out.Placement != KernelPlan::Split)
      return true;
  }
  unsigned Running = 0;
  for (const DeviceWork &W : Out.Work)
    Running += !W.Iterations.empty();
  for (size_t I = 0; I < Uses.size(); ++I) {
    const KernelPlanInput::Resident &R = In.AccessResidents[I];
    bool IsItem =
        std::any_of(D.Arrays.begin(), D.Arrays.end(), [&](const abi::Array &A) {
          return A.Name == Uses[I].Name;
        });
    // An array the loop writes that homp neither holds nor maps (a global
    // array used without a map clause, a pointer into memory a standard
    // 'target data' maps): libomptarget maps it whole on each device and
    // copies each device's whole copy back, so the last would win.
    if (!R.Dist && !IsItem && Uses[I].Written && Running > 1) {
      std::string Why = "the loop writes '" + Uses[I].Name +
                        "', which homp does not hold on the devices (it is "
                        "not in the construct's map clauses): each device "
                        "would copy all of it back";
      if (UsesResidents)
        return OnHost(Why);
      Out.Placement = KernelPlan::OneDevice;
      Out.Why = Why;
      return true;
    }
    if (!R.Dist || IsItem)
      continue;
    Distribution X = *R.Dist;
    if (!Check(X, Uses[I], true, R.Where))
      return false;
    if (Out.Placement != KernelPlan::Split)
      return true;
  }
  return true;
}

} // namespace planning
} // namespace homp
