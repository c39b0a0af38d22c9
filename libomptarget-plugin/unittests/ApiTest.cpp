//===-- ApiTest.cpp - libhomp's C interface -------------------------------===//

#include "homp/Version.h"

#include <gtest/gtest.h>

#include <vector>

#include <algorithm>
#include <cstring>
#include <string>

#include <dlfcn.h>

extern "C" const char *homp_version(void);

// libhomp reports the version the project was configured with (CMake's
// project(homp VERSION ...)), as "major.minor.patch".
TEST(Api, VersionIsTheProjectVersion) {
  std::string V = homp_version();
  EXPECT_EQ(V, HOMP_TEST_PROJECT_VERSION);
  EXPECT_STREQ(homp_version(), homp::Version);
  ASSERT_EQ(std::count(V.begin(), V.end(), '.'), 2);
  for (char C : V)
    EXPECT_TRUE(C == '.' || (C >= '0' && C <= '9')) << V;
}

// libhomp.so exports its C interface and nothing else (exports.map): the
// entry points the plugin and pass call are there, its C++ internals are
// not.
TEST(Api, ExportsOnlyItsInterface) {
  void *Lib = dlopen(HOMP_TEST_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(Lib, nullptr) << dlerror();
  // Every name of EntryPoints.def that libhomp defines.
  std::vector<const char *> Names = {"homp_version"};
#define HOMP_MARKER(Id, Name, DistributedName)                                 \
  Names.push_back(Name);                                                       \
  Names.push_back(DistributedName);
#define HOMP_CALL(Id, Name) Names.push_back(Name);
#define HOMP_REDIRECT(Id, Name, HompName) Names.push_back(HompName);
#include "homp/EntryPoints.def"
  for (const char *Name : Names)
    EXPECT_NE(dlsym(Lib, Name), nullptr) << Name;
  EXPECT_EQ(dlsym(Lib, "_ZN4homp8settingsEv"), nullptr);
  EXPECT_EQ(dlsym(Lib, "_ZN4homp9blockPartEljj"), nullptr);
  // libhomp's own copy of the probe kernel (the probe library exports its).
  EXPECT_EQ(dlsym(Lib, "homp_probe_kernel"), nullptr);
  dlclose(Lib);
}
