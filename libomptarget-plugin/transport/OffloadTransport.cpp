//===-- OffloadTransport.cpp - The offload runtime's transport ------------===//

#include "OffloadTransport.h"

#include "Devices.h"

#include <omp.h>

#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace homp {

namespace {

/// Reusable blocks (placed storage: CPU offload devices, host memory) that
/// were released, kept
/// for the next allocation of the same size on the same device. Programs
/// make the same data region again and again (a solver's time steps): its
/// storage then comes back without a system call and without a page fault
/// on each page at its first touch (measured: copying a 4 MB part into
/// fresh storage took 2.7 ms, into storage used before 0.5 ms; the first
/// halo exchange of a 2050 x 1026 Jacobi grid on 4 devices took 80 us more
/// than the next ones; AUTO's trials of a rebalanced split, whose parts
/// change size a little, took 3 times as long as the same split with
/// storage used before). At most CacheLimit bytes are kept, the most
/// recently freed; an allocation that fails frees them all and tries again.
class StorageCache {
public:
  static constexpr size_t CacheLimit = size_t(256) << 20;

  /// A block of Device of at least Bytes and at most a quarter more (the
  /// smallest such), or nullptr; Bytes becomes the block's size. A loop
  /// whose split moves a little between executions gets its blocks back.
  void *take(int Device, size_t &Bytes) {
    std::lock_guard<std::mutex> Lock(M);
    auto Best = Blocks.end();
    for (auto It = Blocks.begin(); It != Blocks.end(); ++It)
      if (It->Device == Device && It->Bytes >= Bytes &&
          It->Bytes - Bytes <= Bytes / 4 &&
          (Best == Blocks.end() || It->Bytes < Best->Bytes))
        Best = It;
    if (Best == Blocks.end())
      return nullptr;
    void *Ptr = Best->Ptr;
    Bytes = Best->Bytes;
    Held -= Bytes;
    Blocks.erase(Best);
    return Ptr;
  }

  void give(int Device, size_t Bytes, void *Ptr) {
    std::vector<Block> Evicted;
    {
      std::lock_guard<std::mutex> Lock(M);
      if (Bytes > CacheLimit) {
        Evicted.push_back({Device, Bytes, Ptr});
      } else {
        Blocks.push_back({Device, Bytes, Ptr});
        Held += Bytes;
        while (Held > CacheLimit) {
          Held -= Blocks.front().Bytes;
          Evicted.push_back(Blocks.front());
          Blocks.pop_front();
        }
      }
    }
    for (const Block &B : Evicted)
      omp_target_free(B.Ptr, B.Device);
  }

  /// Frees every block of Device; whether there was any.
  bool flush(int Device) {
    std::vector<Block> Mine;
    {
      std::lock_guard<std::mutex> Lock(M);
      for (auto It = Blocks.begin(); It != Blocks.end();)
        if (It->Device == Device) {
          Held -= It->Bytes;
          Mine.push_back(*It);
          It = Blocks.erase(It);
        } else {
          ++It;
        }
    }
    for (const Block &B : Mine)
      omp_target_free(B.Ptr, B.Device);
    return !Mine.empty();
  }

private:
  struct Block {
    int Device;
    size_t Bytes;
    void *Ptr;
  };
  std::mutex M;
  std::deque<Block> Blocks; ///< oldest first
  size_t Held = 0;
};

StorageCache &storageCache() {
  static auto *C = new StorageCache(); // outlives static destructors
  return *C;
}

/// Whether Device's memory is the host's: the host, or a CPU offload
/// device (the host plugin allocates in the host's memory).
bool hostAddressable(int Device) {
  return Device == hostDevice() || placedInHostPages(Device);
}

class OffloadTransport final : public Transport {
public:
  void *allocate(int Device, size_t &Bytes, bool Reusable) override {
    void *Got = Reusable ? storageCache().take(Device, Bytes) : nullptr;
    if (!Got)
      Got = omp_target_alloc(Bytes, Device);
    if (!Got && Reusable && storageCache().flush(Device))
      Got = omp_target_alloc(Bytes, Device);
    return Got;
  }

  void release(int Device, void *Ptr, size_t Bytes, bool Reusable) override {
    if (Reusable)
      storageCache().give(Device, Bytes, Ptr);
    else
      omp_target_free(Ptr, Device);
  }

  Ticket copy(const BoxCopy &C) override {
    // Between memories the host addresses, the host's memcpy: libomptarget
    // 19 makes a call into the plugin for each run of a rectangle
    // (measured: a column halo of 1026 doubles between two CPU offload
    // devices took 2.5 ms, a row of as many 0.04 ms), and each call
    // looks the devices up first.
    if (hostAddressable(C.DstDevice) && hostAddressable(C.SrcDevice)) {
      copyWithMemcpy(C);
      return {0, false};
    }
    int Rc;
    if (C.Dims == 1) {
      Rc = omp_target_memcpy(C.Dst, C.Src, C.Volume[0] * C.ElementSize, 0, 0,
                             C.DstDevice, C.SrcDevice);
    } else {
      const size_t Zero[MaxRank] = {};
      Rc = omp_target_memcpy_rect(
          C.Dst, C.Src, C.ElementSize, static_cast<int>(C.Dims), C.Volume, Zero,
          Zero, C.DstDims, C.SrcDims, C.DstDevice, C.SrcDevice);
    }
    return {0, Rc != 0};
  }

  bool wait(Ticket T) override { return !T.Failed; }

  char *staging(size_t Bytes) override {
    // It lives on: halo updates repeat.
    thread_local std::unique_ptr<char[]> Buffer;
    thread_local size_t BufferSize = 0;
    if (BufferSize < Bytes) {
      Buffer.reset(new char[Bytes]);
      BufferSize = Bytes;
    }
    return Buffer.get();
  }

  int host() const override { return hostDevice(); }
};

/// HOMP_FAULT's failures over another transport.
class FaultTransport final : public Transport {
public:
  explicit FaultTransport(Transport &Under) : Under(Under) {}

  void *allocate(int Device, size_t &Bytes, bool Reusable) override {
    return injectedFault(Device, FaultSpec::Alloc)
               ? nullptr
               : Under.allocate(Device, Bytes, Reusable);
  }
  void release(int Device, void *Ptr, size_t Bytes, bool Reusable) override {
    Under.release(Device, Ptr, Bytes, Reusable);
  }
  Ticket copy(const BoxCopy &C) override {
    const int Host = host();
    const int Device = C.DstDevice != Host ? C.DstDevice : C.SrcDevice;
    return injectedFault(Device, FaultSpec::Copy) ? Ticket{0, true}
                                                  : Under.copy(C);
  }
  bool wait(Ticket T) override { return Under.wait(T); }
  char *staging(size_t Bytes) override { return Under.staging(Bytes); }
  int host() const override { return Under.host(); }

private:
  Transport &Under;
};

} // namespace

Transport &offloadTransport() {
  static auto *T = new OffloadTransport(); // outlives static destructors
  return *T;
}

Transport &transport() {
  static Transport *T = settings().Faults.empty()
                            ? &offloadTransport()
                            : new FaultTransport(offloadTransport());
  return *T;
}

bool placedInHostPages(int Device) {
  return (deviceTypes().typeOf(Device) & abi::TypeCPU) != 0;
}

std::string edgeHalosOnHost(const std::string &Name, bool SharedMemory) {
  if (SharedMemory)
    return "'" + Name +
           "' has a periodic or reflecting halo, but under "
           "'requires unified_shared_memory' every device works on the "
           "host's array in place, where cells past its ends do not exist";
  return "the host cannot take part in '" + Name +
         "': it works on the array in place, where its periodic or "
         "reflecting halo past the array's ends does not exist (leave the "
         "host out of the device list)";
}

} // namespace homp
