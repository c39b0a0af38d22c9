//===-- Environment.cpp - homp's environment variables --------------------===//

#include "homp/Environment.h"

#include <algorithm>
#include <cctype>

namespace homp {

static std::string lower(std::string S) {
  std::transform(S.begin(), S.end(), S.begin(),
                 [](unsigned char C) { return std::tolower(C); });
  return S;
}

/// A switch's value: 1/0, true/false, on/off, yes/no in any case; empty is
/// off. std::nullopt for anything else.
static std::optional<bool> parseSwitch(const char *V) {
  std::string Value = lower(V);
  if (Value == "1" || Value == "true" || Value == "on" || Value == "yes")
    return true;
  if (Value == "0" || Value == "false" || Value == "off" || Value == "no" ||
      Value.empty())
    return false;
  return std::nullopt;
}

/// Reads the switch Name, whose value V is set, into Out; false with Error
/// (which says what 1 means) when V is not a switch's value.
static bool readSwitch(const char *Name, const char *V, const char *OnMeans,
                       bool &Out, std::string &Error) {
  std::optional<bool> On = parseSwitch(V);
  if (!On) {
    Error = std::string(Name) + "='" + V + "' is not valid; expected 1 (" +
            OnMeans + ") or 0";
    return false;
  }
  Out = *On;
  return true;
}

std::optional<std::vector<FaultSpec>> parseFaults(const std::string &Text,
                                                  std::string &Error) {
  std::vector<FaultSpec> Out;
  auto Bad = [&](const std::string &Item) {
    Error = "HOMP_FAULT='" + Text + "' is not valid: '" + Item +
            "' is not 'device:alloc', 'device:copy' or 'device:launch', "
            "optionally followed by ':after=N'";
    return std::nullopt;
  };
  // A number of decimal digits only, within range.
  auto Number = [](const std::string &S, int64_t &V) {
    if (S.empty() || S.size() > 18 ||
        S.find_first_not_of("0123456789") != std::string::npos)
      return false;
    V = std::stoll(S);
    return true;
  };
  size_t Start = 0;
  while (true) {
    size_t Comma = Text.find(',', Start);
    std::string Item = Text.substr(Start, Comma - Start);
    std::vector<std::string> Parts;
    for (size_t P = 0, Colon; P <= Item.size(); P = Colon + 1) {
      Colon = std::min(Item.find(':', P), Item.size());
      Parts.push_back(Item.substr(P, Colon - P));
    }
    FaultSpec F;
    int64_t Dev = 0;
    if (Parts.size() < 2 || Parts.size() > 3 || !Number(Parts[0], Dev) ||
        Dev > 1 << 20)
      return Bad(Item);
    if (Parts[1] == "alloc")
      F.Op = FaultSpec::Alloc;
    else if (Parts[1] == "copy")
      F.Op = FaultSpec::Copy;
    else if (Parts[1] == "launch")
      F.Op = FaultSpec::Launch;
    else
      return Bad(Item);
    if (Parts.size() == 3 && (Parts[2].rfind("after=", 0) != 0 ||
                              !Number(Parts[2].substr(6), F.After)))
      return Bad(Item);
    F.Device = static_cast<int>(Dev);
    Out.push_back(F);
    if (Comma == std::string::npos)
      break;
    Start = Comma + 1;
  }
  return Out;
}

std::optional<Settings>
readSettings(const std::function<const char *(const char *)> &GetEnv,
             std::string &Error) {
  Settings S;
  if (const char *V = GetEnv("HOMP_INFO");
      V && !readSwitch("HOMP_INFO", V,
                       "print each region's devices, ranges, bytes and times",
                       S.Info, Error))
    return std::nullopt;
  if (const char *V = GetEnv("HOMP_HALO_ROUTE")) {
    std::string Value = lower(V);
    if (Value == "auto" || Value.empty())
      S.HaloRoute = HaloRouteSetting::Auto;
    else if (Value == "staged")
      S.HaloRoute = HaloRouteSetting::Staged;
    else if (Value == "peer")
      S.HaloRoute = HaloRouteSetting::Peer;
    else {
      Error = "HOMP_HALO_ROUTE='" + std::string(V) +
              "' is not valid; expected auto, staged or peer";
      return std::nullopt;
    }
  }
  if (const char *V = GetEnv("HOMP_TRACE"))
    S.TracePath = V; // opened (and checked) when the first event comes
  if (const char *V = GetEnv("HOMP_PROFILES")) {
    if (!*V) {
      Error = "HOMP_PROFILES='' is not valid; expected the path of a file "
              "to keep AUTO's profiles in across runs, or off";
      return std::nullopt;
    }
    S.ProfilesByDefault = false;
    if (lower(V) != "off") // a file named off: ./off
      S.ProfilesPath = V;  // read at the first AUTO loop, written at exit
  }
  if (const char *V = GetEnv("HOMP_MPI_DRY_RUN")) {
    const std::string T = V;
    if (T.empty() || T.size() > 7 ||
        T.find_first_not_of("0123456789") != std::string::npos ||
        std::stol(T) < 1 || std::stol(T) > MaxDryRunRanks) {
      Error = "HOMP_MPI_DRY_RUN='" + T +
              "' is not valid; expected a number of ranks from 1 to " +
              std::to_string(MaxDryRunRanks);
      return std::nullopt;
    }
    S.MpiDryRun = static_cast<int>(std::stol(T));
  }
  if (const char *V = GetEnv("HOMP_MPI")) {
    const std::string T = lower(V);
    if (T == "1" || T == "on")
      S.Mpi = Settings::MpiMode::On;
    else if (T == "0" || T == "off")
      S.Mpi = Settings::MpiMode::Off;
    else {
      Error = "HOMP_MPI='" + std::string(V) +
              "' is not valid; expected 1 (the constructs span the MPI job's "
              "ranks) or 0 (each rank runs them alone)";
      return std::nullopt;
    }
  }
  // Open MPI's mpirun, then MPICH's (and Slurm's PMI).
  for (const char *Name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char *V = GetEnv(Name)) {
      const std::string T = V;
      if (!T.empty() && T.size() < 8 &&
          T.find_first_not_of("0123456789") == std::string::npos) {
        S.LaunchedRanks = static_cast<int>(std::stol(T));
        S.LaunchVariable = Name;
      }
      break;
    }
  if (const char *V = GetEnv("HOMP_DEVICES")) {
    S.Devices = parseDeviceFilter(V, Error);
    if (!S.Devices)
      return std::nullopt;
  }
  if (const char *V = GetEnv("HOMP_FAULT")) {
    std::optional<std::vector<FaultSpec>> F = parseFaults(V, Error);
    if (!F)
      return std::nullopt;
    S.Faults = std::move(*F);
  }
  // HOMP's own name for the schedule comes second, but is checked too.
  for (const char *Name : {"HOMP_SCHEDULE", "LOOP_DIST_POLICY"}) {
    const char *V = GetEnv(Name);
    if (!V)
      continue;
    std::optional<ScheduleSetting> Read = parseSchedule(V, Error);
    if (!Read) {
      Error = std::string(Name) + "='" + V + "' is not valid; " + Error;
      return std::nullopt;
    }
    if (!S.Schedule) {
      S.Schedule = Read;
      S.ScheduleVariable = Name;
    }
  }
  if (const char *V = GetEnv("HOMP_CUTOFF")) {
    std::optional<abi::Cutoff> C = parseCutoffText(V);
    if (!C) {
      Error = "HOMP_CUTOFF='" + std::string(V) +
              "' is not valid; expected a ratio in [0, 1), a percentage "
              "below 100 ('15%') or 'auto'";
      return std::nullopt;
    }
    S.Cut = *C;
  }
  if (const char *V = GetEnv("HOMP_EMULATE")) {
    std::optional<std::vector<Emulation>> E = parseEmulate(V, Error);
    if (!E) {
      Error = "HOMP_EMULATE: " + Error;
      return std::nullopt;
    }
    S.Emulate = std::move(*E);
  }
  for (const char *Name : {"HOMP_MACHINE", "OMP_DEV_SPEC_FILE"}) {
    const char *V = GetEnv(Name);
    if (!V || !S.MachineFile.empty())
      continue;
    if (!*V) {
      Error = std::string(Name) + "='' is not valid; expected the path of a "
                                  "machine file (HOMP's INI format)";
      return std::nullopt;
    }
    S.MachineFile = V; // read (and checked) when the model is first needed
    S.MachineVariable = Name;
  }
  // Empty is unset.
  if (const char *V = GetEnv("HOMP_BIND"); V && *V) {
    if (!readSwitch("HOMP_BIND", V,
                    "bind each CPU device's proxy to its share of the cores",
                    S.Bind, Error))
      return std::nullopt;
  } else {
    // The program places OpenMP's threads itself: homp leaves them be.
    const char *ProcBind = GetEnv("OMP_PROC_BIND");
    if ((ProcBind && lower(ProcBind) != "false") || GetEnv("OMP_PLACES") ||
        GetEnv("KMP_AFFINITY") || GetEnv("GOMP_CPU_AFFINITY"))
      S.Bind = false;
  }
  // OpenMP's own variable; libomptarget rejects bad values itself.
  if (const char *V = GetEnv("OMP_TARGET_OFFLOAD")) {
    std::string Value = lower(V);
    if (Value == "mandatory")
      S.Offload = OffloadPolicy::Mandatory;
    else if (Value == "disabled")
      S.Offload = OffloadPolicy::Disabled;
  }
  return S;
}

} // namespace homp
