//===-- homp/Environment.h - homp's environment variables -------*- C++ -*-===//
//
// The run-time settings of SPEC.md section 7. Invalid values are errors that
// name the variable and the accepted forms.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_ENVIRONMENT_H
#define HOMP_ENVIRONMENT_H

#include "homp/DeviceSelection.h"
#include "homp/Scheduler.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace homp {

enum class OffloadPolicy { Default, Mandatory, Disabled };

/// HOMP_FAULT: a testing aid that makes one device's operations of a kind
/// fail, all of them after the first After ones.
struct FaultSpec {
  int Device = 0;
  enum OpKind { Alloc, Copy, Launch } Op = Alloc;
  int64_t After = 0;
};

/// Parses HOMP_FAULT ('dev:alloc|copy|launch[:after=N]', several separated
/// by commas); std::nullopt with a message in Error when Text is not valid.
std::optional<std::vector<FaultSpec>> parseFaults(const std::string &Text,
                                                  std::string &Error);

/// HOMP_HALO_ROUTE: how halo copies between two offload devices travel.
enum class HaloRouteSetting {
  Auto,   ///< peer to peer where the devices' plugin can, else staged
  Staged, ///< always through a host buffer
  Peer    ///< always device to device (the offload runtime may stage)
};

/// The most ranks HOMP_MPI_DRY_RUN plans for.
constexpr int MaxDryRunRanks = 1 << 20;

struct Settings {
  bool Info = false;                              ///< HOMP_INFO
  HaloRouteSetting HaloRoute = HaloRouteSetting::Auto; ///< HOMP_HALO_ROUTE
  std::string TracePath; ///< HOMP_TRACE: where to write the trace; empty: none
  OffloadPolicy Offload = OffloadPolicy::Default; ///< OMP_TARGET_OFFLOAD
  std::optional<DeviceFilter> Devices;            ///< HOMP_DEVICES
  std::vector<FaultSpec> Faults;                  ///< HOMP_FAULT
  /// HOMP_SCHEDULE, else LOOP_DIST_POLICY: the kind of AUTO loops, and
  /// the variable it came from.
  std::optional<ScheduleSetting> Schedule;
  std::string ScheduleVariable;
  abi::Cutoff Cut;                ///< HOMP_CUTOFF
  std::vector<Emulation> Emulate; ///< HOMP_EMULATE
  /// HOMP_MACHINE, else OMP_DEV_SPEC_FILE (HOMP's name): the machine file;
  /// empty: none (calibrate). MachineVariable names the one it came from.
  std::string MachineFile;
  std::string MachineVariable;
  /// HOMP_PROFILES: the file AUTO's profiles are read from at start and
  /// written to at exit (SavedProfiles.h). Unset (ProfilesPath empty,
  /// ProfilesByDefault): the program's own file in the cache folder
  /// (profilesCacheName). 'off': none, AUTO learns anew in every run.
  std::string ProfilesPath;
  bool ProfilesByDefault = true;
  /// HOMP_MPI_DRY_RUN: plan each distributed construct for this many ranks
  /// and print the plan (RankPlan.h) at its first execution, which then
  /// runs on this node as usual; 0: none.
  int MpiDryRun = 0;
  /// HOMP_MPI: whether the constructs span the ranks of an MPI job (the MPI
  /// layer, homp/MpiLayer.h). Auto: when an MPI launcher started the
  /// program with more than one rank (LaunchedRanks); On ('1'): always,
  /// and an error when the layer cannot be loaded; Off ('0'): never, each
  /// rank runs every construct alone.
  enum class MpiMode { Auto, Off, On } Mpi = MpiMode::Auto;
  /// The ranks an MPI launcher says the job has (OMPI_COMM_WORLD_SIZE,
  /// else PMI_SIZE), and the variable that said so; 0: no launcher.
  int LaunchedRanks = 0;
  std::string LaunchVariable;
  /// HOMP_BIND: whether the proxies of devices on the host's CPU are bound
  /// to their share of its cores (CoreShares.h). Unset, they are unless
  /// the program asks OpenMP to place threads itself (OMP_PROC_BIND other
  /// than false, OMP_PLACES, KMP_AFFINITY or GOMP_CPU_AFFINITY set).
  bool Bind = true;
};

/// Reads the settings through GetEnv (getenv in libhomp, a map in tests).
/// Returns std::nullopt with a message in Error for an invalid value.
std::optional<Settings>
readSettings(const std::function<const char *(const char *)> &GetEnv,
             std::string &Error);

} // namespace homp

#endif // HOMP_ENVIRONMENT_H
