//===-- Topology.cpp - Devices arranged in a grid -------------------------===//

#include "homp/Topology.h"

#include <algorithm>
#include <cassert>
#include <functional>

namespace homp {

unsigned Topology::size() const {
  unsigned N = 1;
  for (unsigned D : Dims)
    N *= D;
  return Dims.empty() ? 0 : N;
}

std::array<unsigned, abi::MaxTopologyRank>
Topology::coords(unsigned Position) const {
  std::array<unsigned, abi::MaxTopologyRank> C{};
  for (unsigned I = rank(); I-- > 0;) {
    C[I] = Position % Dims[I];
    Position /= Dims[I];
  }
  return C;
}

unsigned Topology::position(
    const std::array<unsigned, abi::MaxTopologyRank> &Coords) const {
  unsigned P = 0;
  for (unsigned I = 0; I < rank(); ++I)
    P = P * Dims[I] + Coords[I];
  return P;
}

std::string Topology::str() const {
  std::string S;
  for (unsigned D : Dims)
    S += (S.empty() ? "" : "x") + std::to_string(D);
  return S;
}

/// N as the product of K factors as equal as possible, ascending: of every
/// such product, the one with the smallest largest factor, then the largest
/// smallest one. (Taking the largest divisor below the K-th root first is
/// not enough: it makes 68 devices 1x4x17, not 2x2x17.)
static std::vector<unsigned> balancedFactors(unsigned N, unsigned K) {
  if (K == 0)
    return {};
  if (N == 0) {
    std::vector<unsigned> F(K, 1);
    F[0] = 0;
    return F;
  }
  std::vector<unsigned> Best, F;
  std::function<void(unsigned, unsigned)> Walk = [&](unsigned Rest,
                                                     unsigned Least) {
    unsigned Left = K - static_cast<unsigned>(F.size());
    if (Left == 1) {
      F.push_back(Rest);
      if (Best.empty() || F.back() < Best.back() ||
          (F.back() == Best.back() && F.front() > Best.front()))
        Best = F;
      F.pop_back();
      return;
    }
    // Factors ascend, so this one is at most the Left-th root of Rest.
    for (unsigned D = Least;; ++D) {
      unsigned long long Power = 1;
      for (unsigned I = 0; I < Left; ++I)
        Power *= D;
      if (Power > Rest)
        break;
      if (Rest % D == 0) {
        F.push_back(D);
        Walk(Rest / D, D);
        F.pop_back();
      }
    }
  };
  Walk(N, 1);
  return Best;
}

std::optional<Topology>
makeTopology(unsigned NumDevices,
             const std::vector<std::optional<int64_t>> &Requested,
             std::string &Error) {
  assert(!Requested.empty() && Requested.size() <= abi::MaxTopologyRank);
  unsigned long long Given = 1;
  unsigned Stars = 0;
  for (const std::optional<int64_t> &R : Requested) {
    if (!R) {
      ++Stars;
      continue;
    }
    if (*R <= 0) {
      Error = "topology dimension " + std::to_string(*R) +
              " is not positive";
      return std::nullopt;
    }
    Given *= static_cast<unsigned long long>(*R);
    if (Given > NumDevices)
      break;
  }
  std::string Shape;
  for (const std::optional<int64_t> &R : Requested)
    Shape += "[" + (R ? std::to_string(*R) : std::string("*")) + "]";
  if (Given == 0 || NumDevices % Given != 0 ||
      (Stars == 0 && Given != NumDevices)) {
    Error = "topology " + Shape + " does not arrange " +
            std::to_string(NumDevices) + " device" +
            (NumDevices == 1 ? "" : "s");
    return std::nullopt;
  }
  std::vector<unsigned> Free =
      balancedFactors(NumDevices / static_cast<unsigned>(Given), Stars);
  Topology T;
  unsigned Next = 0;
  for (const std::optional<int64_t> &R : Requested)
    T.Dims.push_back(R ? static_cast<unsigned>(*R) : Free[Next++]);
  return T;
}

} // namespace homp
