//===-- EnvironmentTest.cpp - homp's environment variables ----------------===//

#include "homp/Environment.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

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
  // Unrelated variables change nothing.
  S = read({{"HOMP_INFOS", "1"}, {"OMP_TARGET_OFFLOADS", "mandatory"}});
  ASSERT_TRUE(S);
  EXPECT_FALSE(S->Info);
  EXPECT_EQ(S->Offload, OffloadPolicy::Default);
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
