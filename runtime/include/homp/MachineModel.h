//===-- homp/MachineModel.h - What the devices can do -----------*- C++ -*-===//
//
// The machine model of the model-based loop distributions (HOMP'16 IV.B):
// per device its compute rate, the bandwidth and latency of its copies to
// and from the host, and whether it needs copies at all. It comes from a
// machine file in HOMP's INI format (HOMP_MACHINE, OMP_DEV_SPEC_FILE) or
// from calibration, cached in the same format.
//
// The format is HOMP's (its runtime reads it with iniparser): one section
// per group of devices, keys and section names in any case, lines starting
// with '#' or ';' and the rest of a value after '#' or ';' are comments,
// values may be quoted. Keys: type, num (default 1), sysid, ncores, flopss
// (GFLOP/s), bandwidth (MB/s, 1 MB = 10^6 bytes), latency (us) and memory
// (shared: the device works on the host's memory, no copies; discrete;
// default). homp adds memsize (the device's memory in MB; schedulers keep a
// device's share within it), which HOMP ignores. HOMP's old key 'id' is
// accepted and ignored; other unknown keys are ignored too, as HOMP does,
// and reported as notes.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_MACHINEMODEL_H
#define HOMP_MACHINEMODEL_H

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace homp {

/// One section of a machine file: Num devices of one type alike.
struct DeviceGroup {
  enum MemoryKind { MemoryDefault, MemoryShared, MemoryDiscrete };

  std::string Name;  ///< the section name, lower-case
  std::string Type;  ///< cpu, nvgpu, amdgpu, thsim, itlmic or itlgpu
  bool Host = false; ///< the host's group: [host...] or type = hostcpu
  int Num = 1;
  int SysId = -1;          ///< -1: not given
  unsigned Cores = 0;      ///< 0: not given
  double Gflops = 0;       ///< 0: unknown
  double BandwidthMBs = 0; ///< 0: unknown
  double LatencyUs = 0;
  double MemoryMB = 0; ///< memsize; 0: unknown
  MemoryKind Memory = MemoryDefault;
  int Line = 0; ///< the line of the section's header
  /// Keys homp does not read, as "'key' (line N)".
  std::vector<std::string> IgnoredKeys;
};

/// What the model knows of one device.
struct DeviceModel {
  std::string Type;        ///< the device's type: CPU, NVGPU, AMDGPU or HOST
  double Gflops = 0;       ///< 0: unknown
  double BandwidthMBs = 0; ///< host <-> device; 0: unknown
  double LatencyUs = 0;    ///< per copy
  unsigned Cores = 0;      ///< 0: unknown
  bool NoCopies = false;   ///< works on the host's memory (the host)
  std::string Group;       ///< the section that described it; "": none
  double MemoryMB = 0;     ///< its memory (memsize); 0: unknown
};

struct MachineModel {
  /// Indexed like the device types it was made for: offload device ids,
  /// then the host.
  std::vector<DeviceModel> Devices;
  std::string Source; ///< "file PATH", "calibrated (cache PATH)", ...
  /// Measured by calibration (Calibrate.h), not given by a machine file:
  /// its compute rates are a probe kernel's, not any program's.
  bool Calibrated = false;
  /// What did not fit: devices no section describes, sections no device
  /// uses, keys homp ignored.
  std::vector<std::string> Notes;
};

/// Parses a machine file. Errors say "FILE:LINE: what is wrong": a line
/// that is no section, key or comment, a key outside a section, a key
/// given twice, a bad or negative number, num < 1, an unknown type or
/// memory kind, a section without type, a file without sections.
bool parseMachineFile(std::string_view Text, const std::string &FileName,
                      std::vector<DeviceGroup> &Out, std::string &Error);

/// Gives each device (DeviceTypes: per offload device id "CPU", "NVGPU" or
/// "AMDGPU", and "HOST" for the host) the numbers of a group's device, in
/// file order:
/// - the host takes the first device of the first cpu group marked as the
///   host, else of the first cpu group of num = 1;
/// - each offload device takes the next unused device of its kind: CPU
///   devices (host threads, HOMP's thsim) cpu and thsim groups, NVGPU
///   devices nvgpu groups, AMDGPU devices amdgpu groups.
/// A device left over gets the numbers of the last device of its kind
/// (never the host's), or unknown numbers if there is none; both are noted in
/// Out.Notes, as are group devices left over. The memory key decides NoCopies;
/// by default only the host needs no copies. Fails if no group describes any
/// device of DeviceTypes, or for a device type it does not know.
bool assignDevices(const std::vector<DeviceGroup> &Groups,
                   const std::vector<std::string> &DeviceTypes,
                   MachineModel &Out, std::string &Error);

/// M as a machine file, one section per device ([hostcpu] for the host,
/// [cpu0], [nvgpu1], ... for device ids), that parseMachineFile and
/// assignDevices read back into M's devices. Header is written first as
/// comment lines.
std::string writeMachineFile(const MachineModel &M, const std::string &Header);

/// The name of the calibration cache for a device set on a node, e.g.
/// "machine-4xCPU+host-1f0c2a9b.ini" or "machine-2xNVGPU+4xCPU+host-….ini"
/// (runs of equal types in id order, then 8 hex digits of a hash of Node,
/// what the rates depend on besides the types; none when Node is empty):
/// nodes of different kinds that share a home directory keep caches of
/// their own.
std::string machineCacheName(const std::vector<std::string> &DeviceTypes,
                             const std::string &Node = "");

/// 8 hex digits of a hash of Text, the same in every build and on every
/// platform (unlike std::hash): the part of a cache file's name that keeps
/// files of different nodes or programs apart.
std::string stableHashText(const std::string &Text);

/// Whether D runs on the host's cores: a CPU offload device or the host
/// (types CPU and HOST).
bool onHostsCores(const DeviceModel &D);

/// Calibration's rule for the devices on the host's cores (onHostsCores): they
/// run on the same cores, so each rate becomes the highest of them (what
/// disturbs a probe on a shared machine only slows it), an unknown one too
/// (a CPU offload device whose probe could not run, ProbeLibrary.h, runs on
/// the cores the host's probe timed); and the CPU offload devices copy within
/// the host's memory, so each known bandwidth becomes the highest of theirs
/// and each known latency the lowest. Unknown copy costs stay unknown, and so
/// does every rate when none is known.
void oneModelOnTheHostsCores(std::vector<DeviceModel> &Devices);

/// How many elements each timed launch of calibration's probe kernel gets,
/// so that one takes about TargetSeconds: Time(N) launches the probe over N
/// elements and says how long it took. From 4096 elements, 16 times more
/// while a launch takes under a tenth of the target (a GPU launches 4096 in
/// about its start-up time, which says nothing of its rate), then scaled to
/// the target; between 4096 and 2^30.
long probeLaunchElements(const std::function<double(long)> &Time,
                         double TargetSeconds);

} // namespace homp

#endif // HOMP_MACHINEMODEL_H
