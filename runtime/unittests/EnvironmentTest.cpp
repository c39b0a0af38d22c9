//===-- EnvironmentTest.cpp - homp's environment variables ----------------===//
//
// readSettings with the environment answered from a map: HOMP_INFO, HOMP_BIND,
// HOMP_DEVICES and OMP_TARGET_OFFLOAD, their accepted spellings, and the
// messages for values that are not.
//
//===----------------------------------------------------------------------===//

#include "homp/Environment.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace homp;

namespace {

using Env = std::map<std::string, std::string>;

/// readSettings with getenv answered from Vars.
std::optional<Settings> read(const Env &Vars, std::string &Error) {
  return readSettings(
      [&](const char *Name) -> const char * {
        auto It = Vars.find(Name);
        return It == Vars.end() ? nullptr : It->second.c_str();
      },
      Error);
}

std::optional<Settings> read(const Env &Vars) {
  std::string Error;
  std::optional<Settings> S = read(Vars, Error);
  EXPECT_TRUE(S.has_value()) << Error;
  return S;
}

} // namespace

TEST(Environment, Defaults) {
  std::optional<Settings> S = read({});
  ASSERT_TRUE(S);
  EXPECT_FALSE(S->Info);
  EXPECT_EQ(S->Offload, OffloadPolicy::Default);
  EXPECT_FALSE(S->Devices.has_value()) << "every device may be used";
  // Unrelated variables change nothing.
  S = read({{"HOMP_INFOS", "1"},
            {"OMP_TARGET_OFFLOADS", "mandatory"},
            {"HOMP_DEVICE", "x"}});
  ASSERT_TRUE(S);
  EXPECT_FALSE(S->Info);
  EXPECT_EQ(S->Offload, OffloadPolicy::Default);
  EXPECT_FALSE(S->Devices.has_value());
}

TEST(Environment, InfoOn) {
  for (const char *V : {"1", "true", "TRUE", "True", "on", "ON", "On", "yes",
                        "YES", "yEs", "tRuE"}) {
    std::optional<Settings> S = read({{"HOMP_INFO", V}});
    ASSERT_TRUE(S) << V;
    EXPECT_TRUE(S->Info) << V;
  }
}

TEST(Environment, InfoOff) {
  for (const char *V : {"0", "false", "FALSE", "False", "off", "OFF", "Off",
                        "no", "NO", "nO", ""}) {
    std::optional<Settings> S = read({{"HOMP_INFO", V}});
    ASSERT_TRUE(S) << "'" << V << "'";
    EXPECT_FALSE(S->Info) << "'" << V << "'";
  }
}

TEST(Environment, InfoInvalid) {
  for (const char *V : {"2", "maybe", "-1", "10", "y", "n", "tru", "enable",
                        " 1", "1 ", "yes please"}) {
    std::string Error;
    std::optional<Settings> S = read({{"HOMP_INFO", V}}, Error);
    EXPECT_FALSE(S.has_value()) << "'" << V << "'";
    EXPECT_NE(Error.find("HOMP_INFO"), std::string::npos) << Error;
    EXPECT_NE(Error.find(V), std::string::npos) << Error;
  }
}

TEST(Environment, TargetOffload) {
  const std::pair<const char *, OffloadPolicy> Values[] = {
      {"mandatory", OffloadPolicy::Mandatory},
      {"MANDATORY", OffloadPolicy::Mandatory},
      {"Mandatory", OffloadPolicy::Mandatory},
      {"disabled", OffloadPolicy::Disabled},
      {"DISABLED", OffloadPolicy::Disabled},
      {"default", OffloadPolicy::Default},
      {"DEFAULT", OffloadPolicy::Default},
      {"", OffloadPolicy::Default}};
  for (const auto &[V, Policy] : Values) {
    std::optional<Settings> S = read({{"OMP_TARGET_OFFLOAD", V}});
    ASSERT_TRUE(S) << V;
    EXPECT_EQ(S->Offload, Policy) << V;
    EXPECT_FALSE(S->Info);
  }
}

TEST(Environment, BothVariables) {
  std::optional<Settings> S =
      read({{"HOMP_INFO", "yes"}, {"OMP_TARGET_OFFLOAD", "disabled"}});
  ASSERT_TRUE(S);
  EXPECT_TRUE(S->Info);
  EXPECT_EQ(S->Offload, OffloadPolicy::Disabled);
}

TEST(Environment, DevicesNarrowedToIdsAndTypes) {
  std::optional<Settings> S = read({{"HOMP_DEVICES", "0,2"}});
  ASSERT_TRUE(S && S->Devices);
  EXPECT_EQ(S->Devices->Ids, (std::vector<int>{0, 2}));
  EXPECT_EQ(S->Devices->Types, 0u);
  S = read({{"HOMP_DEVICES", " nvgpu , host,3"}});
  ASSERT_TRUE(S && S->Devices);
  EXPECT_EQ(S->Devices->Ids, (std::vector<int>{3}));
  EXPECT_EQ(S->Devices->Types,
            unsigned(homp::abi::TypeNVGPU | homp::abi::TypeHost));
}

TEST(Environment, DevicesInvalid) {
  for (const char *V : {"", "gpu2", "0,", "-1", "all devices"}) {
    std::string Error;
    std::optional<Settings> S = read({{"HOMP_DEVICES", V}}, Error);
    EXPECT_FALSE(S.has_value()) << "'" << V << "'";
    EXPECT_NE(Error.find("HOMP_DEVICES='" + std::string(V) + "'"),
              std::string::npos)
        << Error;
  }
}

TEST(Environment, AllVariablesTogether) {
  std::optional<Settings> S = read({{"HOMP_INFO", "on"},
                                    {"HOMP_DEVICES", "CPU"},
                                    {"OMP_TARGET_OFFLOAD", "MANDATORY"}});
  ASSERT_TRUE(S && S->Devices);
  EXPECT_TRUE(S->Info);
  EXPECT_EQ(S->Devices->Types, unsigned(homp::abi::TypeCPU));
  EXPECT_EQ(S->Offload, OffloadPolicy::Mandatory);
}

// An invalid HOMP_DEVICES is an error even when the other variables are
// fine; an invalid HOMP_INFO is reported first.
TEST(Environment, OneInvalidVariableIsEnough) {
  std::string Error;
  EXPECT_FALSE(read({{"HOMP_INFO", "1"}, {"HOMP_DEVICES", "x"}}, Error));
  EXPECT_NE(Error.find("HOMP_DEVICES"), std::string::npos) << Error;
  EXPECT_FALSE(read({{"HOMP_INFO", "2"}, {"HOMP_DEVICES", "x"}}, Error));
  EXPECT_NE(Error.find("HOMP_INFO"), std::string::npos) << Error;
}

TEST(Environment, NoFaultsUnlessAsked) {
  std::optional<Settings> S = read({});
  ASSERT_TRUE(S);
  EXPECT_TRUE(S->Faults.empty());
}

TEST(Environment, FaultsOfEachKind) {
  std::optional<Settings> S =
      read({{"HOMP_FAULT", "0:alloc,3:copy:after=2,1:launch:after=0"}});
  ASSERT_TRUE(S);
  ASSERT_EQ(S->Faults.size(), 3u);
  EXPECT_EQ(S->Faults[0].Device, 0);
  EXPECT_EQ(S->Faults[0].Op, FaultSpec::Alloc);
  EXPECT_EQ(S->Faults[0].After, 0);
  EXPECT_EQ(S->Faults[1].Device, 3);
  EXPECT_EQ(S->Faults[1].Op, FaultSpec::Copy);
  EXPECT_EQ(S->Faults[1].After, 2);
  EXPECT_EQ(S->Faults[2].Device, 1);
  EXPECT_EQ(S->Faults[2].Op, FaultSpec::Launch);
  EXPECT_EQ(S->Faults[2].After, 0);
}

TEST(Environment, FaultsInvalid) {
  for (const char *V :
       {"", "x", "1", "1:", "alloc", "1:Copy", "1:allocate",
        "1:alloc:", "1:alloc:after=", "1:alloc:after=-1", "1:alloc:after=2x",
        "1:alloc:before=2", "-1:alloc", "1:alloc,", ",1:alloc", "1;alloc",
        " 1:alloc", "1:alloc:after= 3", "1:alloc:after=99999999999999999999",
        "99999999999999999999:copy", "1:alloc:after=3:x"}) {
    std::string Error;
    std::optional<Settings> S = read({{"HOMP_FAULT", V}}, Error);
    EXPECT_FALSE(S.has_value()) << "'" << V << "'";
    EXPECT_NE(Error.find("HOMP_FAULT='" + std::string(V) + "' is not valid"),
              std::string::npos)
        << Error;
  }
}

TEST(Environment, HaloRoute) {
  EXPECT_EQ(read({})->HaloRoute, HaloRouteSetting::Auto);
  EXPECT_EQ(read({{"HOMP_HALO_ROUTE", "auto"}})->HaloRoute,
            HaloRouteSetting::Auto);
  EXPECT_EQ(read({{"HOMP_HALO_ROUTE", "Staged"}})->HaloRoute,
            HaloRouteSetting::Staged);
  EXPECT_EQ(read({{"HOMP_HALO_ROUTE", "PEER"}})->HaloRoute,
            HaloRouteSetting::Peer);
  std::string Error;
  EXPECT_FALSE(read({{"HOMP_HALO_ROUTE", "direct"}}, Error));
  EXPECT_EQ(Error, "HOMP_HALO_ROUTE='direct' is not valid; expected auto, "
                   "staged or peer");
}

TEST(Environment, MpiDryRun) {
  EXPECT_EQ(read({})->MpiDryRun, 0);
  EXPECT_EQ(read({{"HOMP_MPI_DRY_RUN", "3"}})->MpiDryRun, 3);
  EXPECT_EQ(read({{"HOMP_MPI_DRY_RUN", "1048576"}})->MpiDryRun, 1 << 20);
  for (const char *V : {"", "0", "-2", "2x", " 4", "1048577", "99999999"}) {
    std::string Error;
    EXPECT_FALSE(read({{"HOMP_MPI_DRY_RUN", V}}, Error)) << "'" << V << "'";
    EXPECT_EQ(Error, "HOMP_MPI_DRY_RUN='" + std::string(V) +
                         "' is not valid; expected a number of ranks from 1 "
                         "to 1048576");
  }
}

TEST(Environment, Mpi) {
  using Mode = Settings::MpiMode;
  EXPECT_EQ(read({})->Mpi, Mode::Auto);
  EXPECT_EQ(read({})->LaunchedRanks, 0);
  EXPECT_EQ(read({{"HOMP_MPI", "1"}})->Mpi, Mode::On);
  EXPECT_EQ(read({{"HOMP_MPI", "ON"}})->Mpi, Mode::On);
  EXPECT_EQ(read({{"HOMP_MPI", "0"}})->Mpi, Mode::Off);
  EXPECT_EQ(read({{"HOMP_MPI", "off"}})->Mpi, Mode::Off);
  for (const char *V : {"", "2", "yes", " 1"}) {
    std::string Error;
    EXPECT_FALSE(read({{"HOMP_MPI", V}}, Error)) << "'" << V << "'";
    EXPECT_EQ(Error, "HOMP_MPI='" + std::string(V) +
                         "' is not valid; expected 1 (the constructs span the "
                         "MPI job's ranks) or 0 (each rank runs them alone)");
  }
  // The launcher's count: Open MPI's first, MPICH's else; nonsense is none.
  std::optional<Settings> S =
      read({{"OMPI_COMM_WORLD_SIZE", "3"}, {"PMI_SIZE", "5"}});
  EXPECT_EQ(S->LaunchedRanks, 3);
  EXPECT_EQ(S->LaunchVariable, "OMPI_COMM_WORLD_SIZE");
  S = read({{"PMI_SIZE", "5"}});
  EXPECT_EQ(S->LaunchedRanks, 5);
  EXPECT_EQ(S->LaunchVariable, "PMI_SIZE");
  EXPECT_EQ(read({{"PMI_SIZE", "x"}})->LaunchedRanks, 0);
}

TEST(Environment, TracePath) {
  EXPECT_EQ(read({})->TracePath, "");
  EXPECT_EQ(read({{"HOMP_TRACE", "/tmp/a b.json"}})->TracePath,
            "/tmp/a b.json");
}

TEST(Environment, ProfilesPath) {
  EXPECT_EQ(read({})->ProfilesPath, "") << "the program's file in the cache";
  EXPECT_TRUE(read({})->ProfilesByDefault);
  EXPECT_EQ(read({{"HOMP_PROFILES", "/tmp/my runs/p.txt"}})->ProfilesPath,
            "/tmp/my runs/p.txt");
  EXPECT_FALSE(read({{"HOMP_PROFILES", "p.txt"}})->ProfilesByDefault);
  for (const char *Off : {"off", "OFF", "Off"}) {
    std::optional<Settings> S = read({{"HOMP_PROFILES", Off}});
    EXPECT_EQ(S->ProfilesPath, "") << "profiles live within a run";
    EXPECT_FALSE(S->ProfilesByDefault);
  }
  EXPECT_EQ(read({{"HOMP_PROFILES", "./off"}})->ProfilesPath, "./off");
  std::string Error;
  EXPECT_FALSE(read({{"HOMP_PROFILES", ""}}, Error));
  EXPECT_EQ(Error, "HOMP_PROFILES='' is not valid; expected the path of a "
                   "file to keep AUTO's profiles in across runs, or off");
}

TEST(Environment, MachineFile) {
  EXPECT_EQ(read({})->MachineFile, "") << "no file: calibrate";
  std::optional<Settings> S = read({{"OMP_DEV_SPEC_FILE", "/m/fornax.ini"}});
  EXPECT_EQ(S->MachineFile, "/m/fornax.ini");
  EXPECT_EQ(S->MachineVariable, "OMP_DEV_SPEC_FILE");
  // homp's own name wins over HOMP's.
  S = read({{"OMP_DEV_SPEC_FILE", "/m/a.ini"}, {"HOMP_MACHINE", "b.ini"}});
  EXPECT_EQ(S->MachineFile, "b.ini");
  EXPECT_EQ(S->MachineVariable, "HOMP_MACHINE");
  std::string Error;
  EXPECT_FALSE(read({{"HOMP_MACHINE", ""}, {"OMP_DEV_SPEC_FILE", "a"}}, Error));
  EXPECT_EQ(Error, "HOMP_MACHINE='' is not valid; expected the path of a "
                   "machine file (HOMP's INI format)");
  EXPECT_FALSE(read({{"OMP_DEV_SPEC_FILE", ""}}, Error));
  EXPECT_EQ(Error.rfind("OMP_DEV_SPEC_FILE='' is not valid", 0), 0u) << Error;
}

TEST(Environment, Bind) {
  // Bound by default, and when asked.
  EXPECT_TRUE(read({})->Bind);
  for (const char *V : {"1", "true", "ON", "yes", ""})
    EXPECT_TRUE(read({{"HOMP_BIND", V}})->Bind) << "'" << V << "'";
  for (const char *V : {"0", "false", "OFF", "no"})
    EXPECT_FALSE(read({{"HOMP_BIND", V}})->Bind) << V;
  // A program that places OpenMP's threads itself is left to do it...
  for (const char *Var :
       {"OMP_PROC_BIND", "OMP_PLACES", "KMP_AFFINITY", "GOMP_CPU_AFFINITY"})
    EXPECT_FALSE(read({{Var, "close"}})->Bind) << Var;
  EXPECT_TRUE(read({{"OMP_PROC_BIND", "false"}})->Bind);
  EXPECT_TRUE(read({{"OMP_PROC_BIND", "FALSE"}})->Bind);
  // ... unless HOMP_BIND says otherwise.
  EXPECT_TRUE(read({{"OMP_PLACES", "cores"}, {"HOMP_BIND", "1"}})->Bind);
  for (const char *V : {"2", "cores", "maybe", " 1"}) {
    std::string Error;
    EXPECT_FALSE(read({{"HOMP_BIND", V}}, Error).has_value()) << V;
    EXPECT_NE(Error.find("HOMP_BIND='" + std::string(V) + "'"),
              std::string::npos)
        << Error;
  }
}
