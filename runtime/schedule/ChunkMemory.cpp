//===-- ChunkMemory.cpp - The memorizing-dynamic scheduler ----------------===//

#include "homp/ChunkMemory.h"

#include <algorithm>
#include <cstdio>

namespace homp {

ChunkMemory::ChunkMemory(int64_t Trips, int64_t Chunk, unsigned Positions)
    : Trips(std::max<int64_t>(Trips, 0)), Chunk(std::max<int64_t>(Chunk, 1)),
      Positions(std::max(Positions, 1u)) {
  const int64_t N = (this->Trips + this->Chunk - 1) / this->Chunk;
  Owner.resize(static_cast<size_t>(N));
  // Blocks of whole chunks, the first N % Positions one chunk longer.
  const int64_t Base = N / this->Positions, Extra = N % this->Positions;
  int64_t C = 0;
  for (unsigned P = 0; P < this->Positions; ++P)
    for (int64_t K = 0; K < Base + (P < Extra ? 1 : 0); ++K)
      Owner[static_cast<size_t>(C++)] = P;
}

Range ChunkMemory::chunk(int64_t C) const {
  return {C * Chunk, std::min(Trips, (C + 1) * Chunk)};
}

IndexSet ChunkMemory::owned(unsigned P) const {
  std::lock_guard<std::mutex> Lock(M);
  IndexSet S;
  for (size_t C = 0; C < Owner.size(); ++C)
    if (Owner[C] == P)
      S.add(chunk(static_cast<int64_t>(C)));
  return S;
}

unsigned ChunkMemory::owner(int64_t C) const {
  std::lock_guard<std::mutex> Lock(M);
  return Owner[static_cast<size_t>(C)];
}

uint64_t ChunkMemory::generation() const {
  std::lock_guard<std::mutex> Lock(M);
  return Generation;
}

bool ChunkMemory::following() const {
  std::lock_guard<std::mutex> Lock(M);
  return Follow;
}

std::string ChunkMemory::followWhy() const {
  std::lock_guard<std::mutex> Lock(M);
  return Why;
}

int ChunkMemory::follows() const {
  std::lock_guard<std::mutex> Lock(M);
  return Follows;
}

void ChunkMemory::beginFollow(const std::vector<bool> &Takes) {
  std::lock_guard<std::mutex> Lock(M);
  Queue.assign(Positions, {});
  Front.assign(Positions, 0);
  RanOn.assign(Owner.size(), -1);
  // A position that takes no chunks has its own dealt to the others as
  // their own, round-robin, so that they start on them as on theirs.
  std::vector<unsigned> Takers;
  Taking.assign(Positions, 0);
  for (unsigned P = 0; P < Positions; ++P)
    if (Takes.empty() || (P < Takes.size() && Takes[P])) {
      Takers.push_back(P);
      Taking[P] = 1;
    }
  size_t Deal = 0;
  for (size_t C = 0; C < Owner.size(); ++C) {
    unsigned P = Owner[C];
    if (std::find(Takers.begin(), Takers.end(), P) == Takers.end())
      P = Takers.empty() ? P : Takers[Deal++ % Takers.size()];
    Queue[P].push_back(static_cast<int64_t>(C));
  }
  if (Takers.empty())
    Queue.assign(Positions, {});
}

std::optional<ChunkMemory::Taken> ChunkMemory::next(unsigned P) {
  std::lock_guard<std::mutex> Lock(M);
  if (P >= Queue.size() || !Taking[P])
    return std::nullopt;
  auto Left = [&](unsigned Q) { return Queue[Q].size() - Front[Q]; };
  if (Left(P) > 0) {
    int64_t C = Queue[P][Front[P]++];
    return Taken{C, Owner[static_cast<size_t>(C)]};
  }
  // The device with the most chunks left gives up its last one (the
  // first such device: the same choice in every run).
  unsigned Victim = P;
  for (unsigned Q = 0; Q < Queue.size(); ++Q)
    if (Left(Q) > (Victim == P ? 0 : Left(Victim)))
      Victim = Q;
  if (Victim == P)
    return std::nullopt;
  int64_t C = Queue[Victim].back();
  Queue[Victim].pop_back();
  return Taken{C, Owner[static_cast<size_t>(C)]};
}

void ChunkMemory::ran(int64_t C, unsigned P) {
  std::lock_guard<std::mutex> Lock(M);
  if (C >= 0 && static_cast<size_t>(C) < RanOn.size())
    RanOn[static_cast<size_t>(C)] = static_cast<int>(P);
}

std::vector<ChunkMemory::Move> ChunkMemory::endFollow() {
  std::lock_guard<std::mutex> Lock(M);
  std::vector<Move> Moved;
  for (size_t C = 0; C < RanOn.size() && C < Owner.size(); ++C)
    if (RanOn[C] >= 0 && static_cast<unsigned>(RanOn[C]) != Owner[C]) {
      Moved.push_back(
          {static_cast<int64_t>(C), Owner[C], static_cast<unsigned>(RanOn[C])});
      Owner[C] = static_cast<unsigned>(RanOn[C]);
    }
  if (!Moved.empty())
    ++Generation;
  Queue.clear();
  Front.clear();
  RanOn.clear();
  Follow = false;
  Drifts = 0;
  ++Follows;
  return Moved;
}

double ChunkMemory::observe(const std::vector<double> &Seconds) {
  std::lock_guard<std::mutex> Lock(M);
  std::vector<char> Has(Positions, 0);
  for (unsigned O : Owner)
    Has[O] = 1;
  double Sum = 0, Max = 0;
  int Count = 0;
  for (unsigned P = 0; P < Positions && P < Seconds.size(); ++P)
    if (Has[P]) {
      Sum += Seconds[P];
      Max = std::max(Max, Seconds[P]);
      ++Count;
    }
  const double Ratio = Count > 1 && Sum > 0 ? Max / (Sum / Count) : 1;
  if (Ratio > DriftRatio) {
    if (++Drifts >= DriftsToFollow) {
      Follow = true;
      char Text[120];
      std::snprintf(Text, sizeof Text,
                    "the devices' times drifted apart (the slowest %.2gx the "
                    "mean, %d executions in a row)",
                    Ratio, Drifts);
      Why = Text;
    }
  } else {
    Drifts = 0;
  }
  return Ratio;
}

std::string ChunkMemory::chunkList(unsigned P) const {
  // At most this many runs of chunks are named; the rest are counted.
  constexpr int Named = 8;
  std::string Out;
  int Runs = 0;
  int64_t Unnamed = 0;
  for (size_t C = 0; C < Owner.size();) {
    if (Owner[C] != P) {
      ++C;
      continue;
    }
    size_t E = C;
    while (E + 1 < Owner.size() && Owner[E + 1] == P)
      ++E;
    if (Runs++ < Named) {
      Out += (Out.empty() ? "" : ", ") + std::to_string(C);
      if (E > C)
        Out += "-" + std::to_string(E);
    } else {
      Unnamed += static_cast<int64_t>(E - C + 1);
    }
    C = E + 1;
  }
  if (Unnamed)
    Out += " and " + std::to_string(Unnamed) + " more";
  return Out.empty() ? "no chunks" : "chunks " + Out;
}

} // namespace homp
