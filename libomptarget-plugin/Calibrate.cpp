//===-- Calibrate.cpp - Measuring the devices' copies ---------------------===//

#include "Calibrate.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace homp {

namespace {

constexpr size_t SmallBytes = 8;
constexpr size_t LargeBytes = 8 << 20;

/// Times one copy of Bytes; a negative time when it fails.
double timeCopy(void *Dst, const void *Src, size_t Bytes, int DstDevice,
                int SrcDevice) {
  auto Start = std::chrono::steady_clock::now();
  if (omp_target_memcpy(Dst, Src, Bytes, 0, 0, DstDevice, SrcDevice) != 0)
    return -1;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

/// Fills D's latency and bandwidth; "" or what went wrong.
std::string measure(int Device, int Host, DeviceModel &D) {
  std::vector<char> Buffer(LargeBytes, 1);
  void *Storage = omp_target_alloc(LargeBytes, Device);
  if (!Storage)
    return "cannot allocate 8 MiB";
  std::string Problem;
  // The first copy may set the device up; it is not timed.
  if (timeCopy(Storage, Buffer.data(), SmallBytes, Device, Host) < 0)
    Problem = "a copy failed";
  std::vector<double> Small;
  for (int I = 0; I < 9 && Problem.empty(); ++I)
    Small.push_back(timeCopy(Storage, Buffer.data(), SmallBytes, Device, Host));
  double ToDevice = 1e300, FromDevice = 1e300;
  for (int I = 0; I < 3 && Problem.empty(); ++I) {
    ToDevice = std::min(
        ToDevice, timeCopy(Storage, Buffer.data(), LargeBytes, Device, Host));
    FromDevice = std::min(
        FromDevice, timeCopy(Buffer.data(), Storage, LargeBytes, Host, Device));
  }
  omp_target_free(Storage, Device);
  if (!Problem.empty() || ToDevice < 0 || FromDevice < 0 ||
      std::any_of(Small.begin(), Small.end(), [](double T) { return T < 0; }))
    return "a copy failed";
  std::nth_element(Small.begin(), Small.begin() + Small.size() / 2,
                   Small.end());
  double Latency = Small[Small.size() / 2];
  D.LatencyUs = Latency * 1e6;
  // Hockney: a copy of n bytes takes latency + n / bandwidth.
  double Transfer = std::max(ToDevice + FromDevice - 2 * Latency, 1e-9);
  // Whole MB/s: the measurement is not finer than that.
  D.BandwidthMBs = std::max(1.0, std::round(2.0 * LargeBytes / Transfer / 1e6));
  return "";
}

} // namespace

MachineModel calibrate(const DeviceEnvironment &Env) {
  MachineModel M;
  M.Calibrated = true;
  for (int Id = 0; Id < Env.NumDevices; ++Id) {
    DeviceModel D;
    D.Type = deviceTypeName(Env.typeOf(Id));
    std::string Problem = measure(Id, Env.InitialDevice, D);
    if (!Problem.empty())
      M.Notes.push_back("device " + std::to_string(Id) + ": " + Problem +
                        "; its copy costs are unknown");
    M.Devices.push_back(D);
  }
  DeviceModel Host;
  Host.Type = "HOST";
  Host.NoCopies = true;
  M.Devices.push_back(Host);
  return M;
}

} // namespace homp
