//===-- ApiTest.cpp - libhomp's C interface -------------------------------===//

#include "homp/Version.h"

#include <gtest/gtest.h>

#include <cstring>

extern "C" const char *homp_version(void);

TEST(Api, VersionMatchesTheBuild) {
  EXPECT_STREQ(homp_version(), homp::Version);
  EXPECT_GT(std::strlen(homp_version()), 0u);
}
