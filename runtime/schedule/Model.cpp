//===-- Model.cpp - Loop shares from the machine model --------------------===//

#include "homp/Model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace homp {

namespace {

/// The numbers of the devices asked about, unknown ones filled in as
/// homp/Model.h says.
std::vector<DeviceModel> devicesOf(const MachineModel &M,
                                   const std::vector<int> &ModelIndex) {
  std::vector<DeviceModel> Ds;
  for (int I : ModelIndex)
    Ds.push_back(I >= 0 && static_cast<size_t>(I) < M.Devices.size()
                     ? M.Devices[I]
                     : DeviceModel());
  auto MeanOfKnown = [&](auto Field, bool CopyingOnly) {
    double Sum = 0;
    int Known = 0;
    for (const DeviceModel &D : Ds)
      if (D.*Field > 0 && !(CopyingOnly && D.NoCopies)) {
        Sum += D.*Field;
        ++Known;
      }
    return Known ? Sum / Known : 0.0;
  };
  double Gflops = MeanOfKnown(&DeviceModel::Gflops, false);
  double Bandwidth = MeanOfKnown(&DeviceModel::BandwidthMBs, true);
  for (DeviceModel &D : Ds) {
    if (D.Gflops <= 0)
      D.Gflops = Gflops > 0 ? Gflops : NominalGflops;
    if (D.BandwidthMBs <= 0)
      D.BandwidthMBs = Bandwidth; // still 0: copies cost their latency only
  }
  return Ds;
}

DeviceCosts costsOf(const std::vector<DeviceModel> &Ds, const LoopCost &C) {
  DeviceCosts Out;
  for (const DeviceModel &D : Ds) {
    double PerByte =
        D.NoCopies || D.BandwidthMBs <= 0 ? 0.0 : 1.0 / (D.BandwidthMBs * 1e6);
    Out.Fixed.push_back(
        D.NoCopies ? 0.0 : D.LatencyUs * 1e-6 + C.FixedBytes * PerByte);
    Out.PerIteration.push_back(C.BytesPerIteration * PerByte +
                               C.FlopsPerIteration / (D.Gflops * 1e9));
  }
  return Out;
}

std::vector<double> normalized(std::vector<double> W) {
  double Sum = std::accumulate(W.begin(), W.end(), 0.0);
  for (double &X : W)
    X = Sum > 0 ? X / Sum : 1.0 / W.size();
  return W;
}

} // namespace

LoopCost loopCost(double FlopsPerIteration, int64_t Trips,
                  const std::vector<CostedArray> &Arrays) {
  LoopCost C;
  C.FlopsPerIteration = FlopsPerIteration;
  const double T = static_cast<double>(std::max<int64_t>(1, Trips));
  for (const CostedArray &A : Arrays) {
    const double Ways = A.Ways;
    if (A.FollowsLoop) {
      C.BytesPerIteration += Ways * A.Bytes / T;
      C.HeldPerIteration += A.Bytes / T;
    } else if (!A.Distributed) {
      C.FixedBytes += Ways * A.Bytes;
      C.HeldFixed += A.Bytes;
    }
  }
  return C;
}

double bodyOperations(const abi::Descriptor &D,
                      const std::vector<LoopBounds> &Bounds) {
  size_t N = D.BodyLoops.size();
  std::vector<double> Work(N);
  for (size_t I = 0; I < N; ++I)
    Work[I] = static_cast<double>(D.BodyLoops[I].Operations);
  double Total = static_cast<double>(D.Operations);
  // Parents come first: adding from the last loop up, each loop's inner
  // loops are in its work before it is multiplied out.
  for (size_t I = N; I-- > 0;) {
    double Trips = 1;
    if (D.BodyLoops[I].Counted && I < Bounds.size())
      if (std::optional<int64_t> T = tripCount(Bounds[I]))
        Trips = static_cast<double>(*T);
    double Loop = Trips * Work[I];
    int Parent = D.BodyLoops[I].Parent;
    if (Parent >= 0 && static_cast<size_t>(Parent) < I)
      Work[Parent] += Loop;
    else
      Total += Loop;
  }
  return std::max(1.0, Total);
}

std::vector<double> modelShares(const MachineModel &M,
                                const std::vector<int> &ModelIndex,
                                const LoopCost &C, int64_t Iterations,
                                bool WithData) {
  std::vector<DeviceModel> Ds = devicesOf(M, ModelIndex);
  size_t K = Ds.size();
  if (!WithData) {
    std::vector<double> Rates;
    for (const DeviceModel &D : Ds)
      Rates.push_back(D.Gflops);
    return normalized(Rates);
  }

  // Seconds: a_i fixed, c_i per iteration.
  const DeviceCosts Costs = costsOf(Ds, C);
  const std::vector<double> &A = Costs.Fixed, &Cost = Costs.PerIteration;
  std::vector<double> Shares(K, 0.0);
  // Devices that cost nothing per iteration would finish any share at once:
  // they share the loop.
  bool AnyFree = false;
  for (size_t I = 0; I < K; ++I)
    if (Cost[I] <= 0)
      Shares[I] = 1, AnyFree = true;
  if (AnyFree)
    return normalized(Shares);
  if (Iterations < 1) {
    for (size_t I = 0; I < K; ++I)
      Shares[I] = 1 / Cost[I];
    return normalized(Shares);
  }

  double N = static_cast<double>(Iterations);
  std::vector<bool> Active(K, true);
  while (true) {
    double SumAOverC = 0, SumInvC = 0;
    for (size_t I = 0; I < K; ++I)
      if (Active[I]) {
        SumAOverC += A[I] / Cost[I];
        SumInvC += 1 / Cost[I];
      }
    double T0 = (N + SumAOverC) / SumInvC;
    // T0 exceeds the smallest a_i (it is their weighted mean plus
    // N / SumInvC), so one device always stays; dropping a device only
    // lowers T0, so a dropped device never comes back.
    bool Dropped = false;
    for (size_t I = 0; I < K; ++I) {
      if (!Active[I])
        continue;
      Shares[I] = (T0 - A[I]) / Cost[I];
      if (Shares[I] <= 0) {
        Active[I] = false;
        Shares[I] = 0;
        Dropped = true;
      }
    }
    if (!Dropped)
      break;
    std::fill(Shares.begin(), Shares.end(), 0.0);
  }
  return normalized(Shares);
}

std::vector<double> applyCutoff(std::vector<double> Shares, double Ratio) {
  if (Shares.empty())
    return Shares;
  size_t Largest =
      std::max_element(Shares.begin(), Shares.end()) - Shares.begin();
  for (size_t I = 0; I < Shares.size(); ++I)
    if (I != Largest && Shares[I] < Ratio)
      Shares[I] = 0;
  return normalized(Shares);
}

DeviceCosts modelCosts(const MachineModel &M,
                       const std::vector<int> &ModelIndex, const LoopCost &C) {
  return costsOf(devicesOf(M, ModelIndex), C);
}

std::vector<double> cutUnprofitable(std::vector<double> Shares,
                                    const DeviceCosts &Costs,
                                    int64_t Iterations) {
  const size_t K = Shares.size();
  Shares = normalized(std::move(Shares));
  if (Iterations < 1 || Costs.Fixed.size() != K ||
      Costs.PerIteration.size() != K)
    return Shares;
  const double N = static_cast<double>(Iterations);
  auto EndOf = [&](const std::vector<double> &S, size_t I) {
    return Costs.Fixed[I] + Costs.PerIteration[I] * S[I] * N;
  };
  // The device of S that ends last (the first of equals).
  auto LastOf = [&](const std::vector<double> &S) {
    size_t Last = K;
    for (size_t I = 0; I < K; ++I)
      if (S[I] > 0 && (Last == K || EndOf(S, I) > EndOf(S, Last)))
        Last = I;
    return Last;
  };
  // A cost not known (a device that measured no rate) judges nothing.
  for (size_t I = 0; I < K; ++I)
    if (Shares[I] > 0 && !std::isfinite(EndOf(Shares, I)))
      return Shares;
  while (std::count_if(Shares.begin(), Shares.end(),
                       [](double S) { return S > 0; }) > 1) {
    // Only a cut of the device that ends last can end the loop sooner: any
    // other cut gives that device more.
    const size_t Last = LastOf(Shares);
    std::vector<double> Without = Shares;
    Without[Last] = 0;
    Without = normalized(std::move(Without));
    if (EndOf(Without, LastOf(Without)) > EndOf(Shares, Last))
      break;
    Shares = std::move(Without);
  }
  return Shares;
}

std::vector<int64_t> splitIterations(int64_t N,
                                     const std::vector<double> &Shares) {
  std::vector<int64_t> Counts(Shares.size(), 0);
  if (Shares.empty() || N <= 0)
    return Counts;
  long double Sum = 0;
  for (double S : Shares)
    Sum += S > 0 ? S : 0;
  std::vector<long double> Exact(Shares.size());
  int64_t Given = 0;
  for (size_t I = 0; I < Shares.size(); ++I) {
    long double W =
        Sum > 0 ? (Shares[I] > 0 ? Shares[I] / Sum : 0) : 1.0L / Shares.size();
    Exact[I] = W * N;
    Counts[I] = std::min<int64_t>(static_cast<int64_t>(Exact[I]), N - Given);
    Given += Counts[I];
  }
  // The iterations rounding left over go to the largest remainders; a share
  // of 0 has no remainder to compete with.
  std::vector<size_t> Order(Shares.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](size_t X, size_t Y) {
    long double RX = Exact[X] - Counts[X], RY = Exact[Y] - Counts[Y];
    return RX != RY ? RX > RY : X < Y;
  });
  for (size_t K = 0; Given < N; K = (K + 1) % Order.size()) {
    size_t I = Order[K];
    if (Exact[I] > 0) {
      ++Counts[I];
      ++Given;
    }
  }
  return Counts;
}

std::vector<double> capShares(std::vector<double> Shares, int64_t Trips,
                              const LoopCost &C,
                              const std::vector<double> &CapacityBytes,
                              std::vector<bool> *Capped, bool *Fits) {
  const size_t N = Shares.size();
  if (Fits)
    *Fits = true;
  std::vector<bool> Fixed(N, false);
  if (Capped)
    Capped->assign(N, false);
  if (Trips <= 0 || N == 0)
    return Shares;
  const double Inf = std::numeric_limits<double>::infinity();
  // Iterations each device can hold.
  std::vector<double> Cap(N, Inf);
  for (size_t I = 0; I < N && I < CapacityBytes.size(); ++I) {
    double Room = CapacityBytes[I] - C.FixedBytes;
    if (!(CapacityBytes[I] > 0))
      continue;
    if (Room < 0)
      Cap[I] = 0;
    else if (C.BytesPerIteration > 0)
      Cap[I] = std::max(0.0, std::floor(Room / C.BytesPerIteration) - 1);
  }
  double Total = 0;
  for (double S : Shares)
    Total += std::max(S, 0.0);
  if (!(Total > 0))
    return Shares;
  // Water-filling: fix the devices over their capacity at it, spread the
  // rest over the others by their shares, until nobody is over.
  std::vector<double> Its(N, 0);
  double Left = static_cast<double>(Trips);
  for (bool Changed = true; Changed;) {
    Changed = false;
    double Weight = 0;
    for (size_t I = 0; I < N; ++I)
      if (!Fixed[I] && Shares[I] > 0)
        Weight += Shares[I];
    if (!(Weight > 0)) {
      if (Fits)
        *Fits = false;
      return Shares; // everyone is full: the loop does not fit
    }
    for (size_t I = 0; I < N; ++I) {
      if (Fixed[I] || !(Shares[I] > 0))
        continue;
      Its[I] = Left * Shares[I] / Weight;
      if (Its[I] > Cap[I]) {
        Fixed[I] = true;
        Its[I] = Cap[I];
        Left -= Cap[I];
        Changed = true;
        break;
      }
    }
  }
  for (size_t I = 0; I < N; ++I) {
    Shares[I] = Shares[I] > 0 ? Its[I] / static_cast<double>(Trips) : 0;
    if (Capped)
      (*Capped)[I] = Fixed[I];
  }
  return Shares;
}

} // namespace homp
