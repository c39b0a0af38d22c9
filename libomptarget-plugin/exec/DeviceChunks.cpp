//===-- DeviceChunks.cpp - Each device's copy of a kernel's chunk ---------===//

#include "DeviceChunks.h"

#include "Devices.h"
#include "OffloadTransport.h"

#include <omp.h>


namespace homp {

struct DeviceChunks::Copy {
  std::mutex M; ///< held by the launch using the copy
  void *Address = nullptr;
  bool Failed = false; ///< the device could not allocate it: map instead
  bool Valid = false;  ///< Held is what the device's copy holds
  abi::Chunk Held{};
};

DeviceChunks::DeviceChunks() = default;

// The copies stay on their devices: constructs live as long as the program,
// and a device's memory may already be gone when static objects are
// destroyed.
DeviceChunks::~DeviceChunks() = default;

DeviceChunks::Lease DeviceChunks::acquire(int Device, const abi::Chunk &C,
                                          int64_t &BytesIn) {
  std::call_once(Made, [this] {
    for (int I = 0; I < omp_get_num_devices(); ++I)
      Copies.push_back(std::make_unique<Copy>());
  });
  Lease L;
  if (Device < 0 || static_cast<size_t>(Device) >= Copies.size())
    return L;
  Copy *Cp = Copies[static_cast<size_t>(Device)].get();
  std::unique_lock<std::mutex> Held(Cp->M, std::try_to_lock);
  if (!Held.owns_lock() || Cp->Failed)
    return L;
  if (!Cp->Address) {
    size_t Bytes = sizeof(abi::Chunk);
    Cp->Address = offloadTransport().allocate(Device, Bytes, false);
    if (!Cp->Address) {
      Cp->Failed = true;
      return L;
    }
  }
  if (!Cp->Valid || !abi::sameChunk(Cp->Held, C)) {
    Cp->Valid = false;
    Transport &T = offloadTransport();
    if (!T.wait(
            T.copy(bytesCopy(Cp->Address, Device, &C, hostDevice(), sizeof C))))
      return L;
    Cp->Held = C;
    Cp->Valid = true;
    BytesIn += static_cast<int64_t>(sizeof C);
  }
  L.Held = std::move(Held);
  L.Address = Cp->Address;
  return L;
}

DeviceChunks::Lease DeviceChunks::pass(DeviceArgs &A, unsigned Entry,
                                       int Device, bool InHostMemory,
                                       const abi::Chunk &C, int64_t &BytesIn) {
  Lease L;
  if (!InHostMemory)
    L = acquire(Device, C, BytesIn);
  if (L)
    A.setLiteral(Entry, L.address());
  else
    A.setEntry(Entry, const_cast<abi::Chunk *>(&C));
  return L;
}

} // namespace homp
