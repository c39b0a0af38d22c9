//===-- OffloadTransport.h - The offload runtime's transport ----*- C++ -*-===//
//
// libhomp's transport (homp/Transport.h): memory from omp_target_alloc,
// copies by omp_target_memcpy and omp_target_memcpy_rect (synchronous: a
// copy's ticket is over when it starts), staging in a host buffer per
// thread. HOMP_FAULT's failures are injected here, in the transport of the
// program's data (transport()); homp's own bookkeeping (calibration, the
// devices' chunk copies, device discovery) uses the transport beneath them.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_OFFLOADTRANSPORT_H
#define HOMP_LIBOMPTARGET_PLUGIN_OFFLOADTRANSPORT_H

#include "homp/Transport.h"

#include <string>

namespace homp {

/// The offload runtime's transport.
Transport &offloadTransport();

/// The transport of the program's data: offloadTransport, with the
/// allocations and copies HOMP_FAULT names failing. A copy counts as the
/// operation of its end that is not the host (of a copy between two
/// devices, its destination).
Transport &transport();

/// Whether Device's storage lies in the host's pages (a CPU offload device),
/// where homp places it (allocateStorage's PageOffset, storageColors).
bool placedInHostPages(int Device);

/// The error for a host that would hold halo cells past the ends of Name:
/// it works on the array in place.
std::string edgeHalosOnHost(const std::string &Name, bool SharedMemory = false);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_OFFLOADTRANSPORT_H
