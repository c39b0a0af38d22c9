//===-- Transfers.cpp - Device storage and copies of array parts ----------===//

#include "Transfers.h"

#include "Devices.h"

#include <omp.h>

namespace homp {

bool allocateStorage(int Device, const ArrayShape &Shape, Range Span,
                     Storage &Out, std::string &Error) {
  Out = Storage();
  Out.Device = Device;
  Out.Span = Span;
  size_t Bytes = static_cast<size_t>(Span.size() * Shape.ElementSize);
  if (Bytes == 0)
    return true;
  Out.Ptr = injectedFault(Device, FaultSpec::Alloc)
                ? nullptr
                : omp_target_alloc(Bytes, Device);
  if (!Out.Ptr) {
    Error = "device " + std::to_string(Device) + " cannot allocate " +
            std::to_string(Bytes) + " bytes";
    return false;
  }
  return true;
}

void freeStorage(Storage &S) {
  if (S.Ptr)
    omp_target_free(S.Ptr, S.Device);
  S.Ptr = nullptr;
}

void *deviceAddress(const ArrayShape &Shape, const char *Host, const Storage &S,
                    const void *HostAddr) {
  intptr_t FromElement0 = static_cast<const char *>(HostAddr) - Host;
  return static_cast<char *>(S.Ptr) + FromElement0 -
         S.Span.Begin * Shape.ElementSize;
}

bool copyElements(Direction Dir, const ArrayShape &Shape, char *Host,
                  const Storage &S, const ProductSet &Elements,
                  int64_t &Bytes) {
  const int HostId = omp_get_initial_device();
  const int64_t ES = Shape.ElementSize;
  bool Ok = Elements.empty() || !injectedFault(S.Device, FaultSpec::Copy);
  Elements.forEachBox([&](const Box &B) {
    if (!Ok || B.empty())
      return;
    // Dimensions from Inner on are copied as one run: every dimension
    // after Inner covers its whole row, so their elements lie back to back.
    unsigned Inner = Shape.Rank - 1;
    while (Inner > 0 && B.Dims[Inner] == Range{0, Shape.Extent[Inner]})
      --Inner;
    int64_t RunElements = 1;
    for (unsigned D = Inner; D < Shape.Rank; ++D)
      RunElements *= B.Dims[D].size();
    size_t RunBytes = static_cast<size_t>(RunElements * ES);
    Index I{};
    for (unsigned D = 0; D < Shape.Rank; ++D)
      I[D] = B.Dims[D].Begin;
    // Walk the dimensions before Inner like an odometer.
    while (Ok) {
      char *H = Host + Shape.offset(I) * ES;
      char *Dev = static_cast<char *>(deviceAddress(Shape, Host, S, H));
      int Rc = Dir == Direction::ToDevice
                   ? omp_target_memcpy(Dev, H, RunBytes, 0, 0, S.Device, HostId)
                   : omp_target_memcpy(H, Dev, RunBytes, 0, 0, HostId, S.Device);
      if (Rc != 0) {
        Ok = false;
        return;
      }
      Bytes += static_cast<int64_t>(RunBytes);
      unsigned D = Inner;
      while (D > 0) {
        --D;
        if (++I[D] < B.Dims[D].End)
          break;
        I[D] = B.Dims[D].Begin;
        if (D == 0)
          return;
      }
      if (Inner == 0)
        return;
    }
  });
  return Ok;
}

} // namespace homp
