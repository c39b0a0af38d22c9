//===-- RankPlan.cpp - A construct split over ranks -----------------------===//

#include "homp/RankPlan.h"

#include "homp/Partition.h"

#include <algorithm>
#include <cstdio>

namespace homp {

namespace {

/// The ranks' rows of an array: Rows split by Weights, or whole on each.
std::vector<Range> rowsOf(const RankArray &A, const std::vector<double> &W) {
  std::vector<Range> Out;
  for (unsigned R = 0; R < W.size(); ++R) {
    if (!A.Split) {
      Out.push_back(A.Rows);
      continue;
    }
    Range P = weightedBlockPart(A.Rows.size(), W, R);
    Out.push_back({A.Rows.Begin + P.Begin, A.Rows.Begin + P.End});
  }
  return Out;
}

/// The rows of [Begin, End) that rank To needs from the others (owners in
/// Owned, contiguous and in rank order), as messages.
void receive(std::vector<RankMessage> &Out, const std::vector<Range> &Owned,
             unsigned Array, int64_t RowBytes, int To, Range Need) {
  if (Need.empty())
    return;
  // The first rank whose rows end past Need's first row.
  auto It =
      std::upper_bound(Owned.begin(), Owned.end(), Need.Begin,
                       [](int64_t Row, const Range &R) { return Row < R.End; });
  for (; It != Owned.end() && It->Begin < Need.End; ++It) {
    const int From = static_cast<int>(It - Owned.begin());
    Range Rows{std::max(It->Begin, Need.Begin), std::min(It->End, Need.End)};
    if (From == To || Rows.empty())
      continue;
    Out.push_back({From, To, Array, Rows, Rows.size() * RowBytes});
  }
}

std::string rows(const Range &R) {
  return R.empty() ? "none"
                   : "[" + std::to_string(R.Begin) + ", " +
                         std::to_string(R.End) + ")";
}

std::string bytes(int64_t B) {
  char Text[32];
  if (B >= 10 * 1000 * 1000)
    std::snprintf(Text, sizeof(Text), "%.1f MB", B / 1e6);
  else if (B >= 10 * 1000)
    std::snprintf(Text, sizeof(Text), "%.1f kB", B / 1e3);
  else
    std::snprintf(Text, sizeof(Text), "%lld bytes", static_cast<long long>(B));
  return Text;
}

} // namespace

RankArray rankArrayOf(const std::string &Name, const Distribution &D,
                      bool CopiesOut) {
  RankArray A;
  A.Name = Name;
  A.CopiesOut = CopiesOut;
  const ArrayShape &Sh = D.Shape;
  unsigned Dim = 0;
  while (Dim < Sh.Rank && !D.Split[Dim])
    ++Dim;
  A.Split = Dim < Sh.Rank;
  if (!A.Split)
    Dim = 0;
  A.Rows = Sh.Section.Dims[Dim];
  A.RowBytes = Sh.ElementSize;
  for (unsigned E = 0; E < Sh.Rank; ++E)
    if (E != Dim)
      A.RowBytes *= Sh.Section.Dims[E].size();
  A.Halo = D.Halos[Dim];
  return A;
}

RankPlan planRanks(const RankPlanInput &In) {
  const int N = std::max(1, In.Ranks);
  std::vector<double> W = In.Capacity;
  if (W.size() != static_cast<size_t>(N) ||
      std::none_of(W.begin(), W.end(), [](double X) { return X > 0; }))
    W.assign(N, 1.0);
  for (double &X : W)
    X = X > 0 ? X : 0;
  RankPlan P;
  P.GatherBytes.assign(N, 0);
  for (unsigned A = 0; A < In.Arrays.size(); ++A) {
    const RankArray &Arr = In.Arrays[A];
    P.Rows.push_back(rowsOf(Arr, W));
    if (!Arr.Split)
      continue;
    const std::vector<Range> &Owned = P.Rows.back();
    const Range All = Arr.Rows;
    const abi::Halo &H = Arr.Halo;
    for (int R = 0; R < N; ++R) {
      const Range Own = Owned[R];
      if (Arr.CopiesOut)
        P.GatherBytes[R] += (All.size() - Own.size()) * Arr.RowBytes;
      if (Own.empty())
        continue; // a rank without rows holds no halo either
      // Below the rows and above, a periodic side wrapping around; each
      // row once (wrapped halos of a short array overlap).
      const int64_t L = std::min(H.Left, All.size());
      const int64_t U = std::min(H.Right, All.size());
      std::vector<Range> Need = {
          {std::max(All.Begin, Own.Begin - L), Own.Begin},
          {Own.End, std::min(All.End, Own.End + U)}};
      if (H.LeftEdge == abi::Edge::Periodic && Own.Begin - L < All.Begin)
        Need.push_back({All.End - (All.Begin - (Own.Begin - L)), All.End});
      if (H.RightEdge == abi::Edge::Periodic && Own.End + U > All.End)
        Need.push_back({All.Begin, All.Begin + (Own.End + U - All.End)});
      std::sort(Need.begin(), Need.end(), [](const Range &X, const Range &Y) {
        return X.Begin < Y.Begin;
      });
      std::vector<Range> Merged;
      for (const Range &X : Need) {
        if (X.empty())
          continue;
        if (!Merged.empty() && X.Begin <= Merged.back().End)
          Merged.back().End = std::max(Merged.back().End, X.End);
        else
          Merged.push_back(X);
      }
      for (const Range &X : Merged)
        receive(P.Messages, Owned, A, Arr.RowBytes, R, X);
    }
  }
  // The iterations: by capacity, or where the followed array's rows are.
  const bool Follows = In.Follow >= 0 &&
                       static_cast<size_t>(In.Follow) < In.Arrays.size() &&
                       In.Arrays[In.Follow].Split && In.Step != 0;
  for (int R = 0; R < N; ++R) {
    if (!Follows) {
      P.Iterations.push_back(weightedBlockPart(In.Trips, W, R));
      continue;
    }
    // The t in [0, Trips) with First + t * Step in Rows (Step > 0), or
    // mirrored (Step < 0).
    const Range Rows = P.Rows[In.Follow][R];
    auto Ceil = [](int64_t A, int64_t B) { // B > 0
      return A >= 0 ? (A + B - 1) / B : -((-A) / B);
    };
    int64_t Lo, Hi;
    if (In.Step > 0) {
      Lo = Ceil(Rows.Begin - In.First, In.Step);
      Hi = Ceil(Rows.End - In.First, In.Step);
    } else {
      Lo = Ceil(In.First - (Rows.End - 1), -In.Step);
      Hi = Ceil(In.First - (Rows.Begin - 1), -In.Step);
    }
    Lo = std::clamp<int64_t>(Lo, 0, In.Trips);
    Hi = std::clamp<int64_t>(Hi, Lo, In.Trips);
    P.Iterations.push_back({Lo, Hi});
  }
  return P;
}

std::string describeRankPlan(const RankPlanInput &In, const RankPlan &P,
                             const std::string &Construct,
                             const std::string &When, int Listed) {
  const int N = static_cast<int>(P.Iterations.size());
  std::string S = "homp: dry run (HOMP_MPI_DRY_RUN): " + Construct + " over " +
                  std::to_string(N) + " rank" + (N == 1 ? "" : "s") + "\n";
  auto Line = [&](int R) {
    std::string L = "homp:   rank " + std::to_string(R) + ":";
    const char *Sep = " ";
    if (In.Loop) {
      L += " iterations " + rows(P.Iterations[R]);
      Sep = ", ";
    }
    for (size_t A = 0; A < In.Arrays.size(); ++A)
      if (In.Arrays[A].Split) {
        L += Sep + ("'" + In.Arrays[A].Name + "' rows ") + rows(P.Rows[A][R]);
        Sep = ", ";
      }
    return L + "\n";
  };
  const int Head = N > Listed + 1 ? Listed : N;
  for (int R = 0; R < Head; ++R)
    S += Line(R);
  if (Head < N) {
    if (N - 1 > Head)
      S += "homp:   ... (ranks " + std::to_string(Head) + " to " +
           std::to_string(N - 2) + ")\n";
    S += Line(N - 1);
  }
  // Per exchange: the messages in all, and the most one rank receives.
  std::vector<int64_t> In_(N, 0), Count(N, 0);
  int64_t Total = 0;
  for (const RankMessage &M : P.Messages) {
    In_[M.To] += M.Bytes;
    ++Count[M.To];
    Total += M.Bytes;
  }
  if (!P.Messages.empty()) {
    const int Most = static_cast<int>(std::max_element(In_.begin(), In_.end()) -
                                      In_.begin());
    std::string Arrays;
    for (size_t A = 0; A < In.Arrays.size(); ++A) {
      int64_t B = 0;
      for (const RankMessage &M : P.Messages)
        if (M.Array == A)
          B += M.Bytes;
      if (B > 0)
        Arrays += std::string(Arrays.empty() ? "" : ", ") + "'" +
                  In.Arrays[A].Name + "' " + bytes(B);
    }
    S += "homp:   halo exchange: " + std::to_string(P.Messages.size()) +
         " message" + (P.Messages.size() == 1 ? "" : "s") + ", " +
         bytes(Total) + " (" + Arrays + "); rank " + std::to_string(Most) +
         " receives the most: " + std::to_string(Count[Most]) + " message" +
         (Count[Most] == 1 ? "" : "s") + ", " + bytes(In_[Most]) + "\n";
  } else if (std::any_of(
                 In.Arrays.begin(), In.Arrays.end(), [](const RankArray &A) {
                   return A.Split && (A.Halo.Left > 0 || A.Halo.Right > 0);
                 })) {
    S += "homp:   halo exchange: no messages between ranks\n";
  }
  const int64_t Gather =
      *std::max_element(P.GatherBytes.begin(), P.GatherBytes.end());
  if (Gather > 0) {
    int64_t Sum = 0;
    for (int64_t B : P.GatherBytes)
      Sum += B;
    S += "homp:   " + When +
         ", completing the arrays it copies out: " + bytes(Sum) +
         " in all, at most " + bytes(Gather) + " to a rank\n";
  }
  return S;
}

} // namespace homp
