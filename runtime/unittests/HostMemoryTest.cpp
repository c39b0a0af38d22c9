//===-- HostMemoryTest.cpp - The host's memory ----------------------------===//

#include "homp/HostMemory.h"

#include <gtest/gtest.h>

using namespace homp;

TEST(HostMemory, ReadsTotalAndAvailableInKiB) {
  HostMemory M = parseMemInfo("MemTotal:       24576000 kB\n"
                              "MemFree:         1000000 kB\n"
                              "MemAvailable:   20480000 kB\n"
                              "Buffers:          123456 kB\n");
  EXPECT_EQ(M.TotalBytes, int64_t(24576000) * 1024);
  EXPECT_EQ(M.FreeBytes, int64_t(20480000) * 1024); // not MemFree
}

TEST(HostMemory, UnknownWhenAbsentOrMalformed) {
  HostMemory M = parseMemInfo("MemFree: 1000 kB\nMemTotal: lots\n\n");
  EXPECT_EQ(M.TotalBytes, -1);
  EXPECT_EQ(M.FreeBytes, -1);
  EXPECT_EQ(parseMemInfo("").TotalBytes, -1);
}

TEST(HostMemory, ThisHostHasSome) {
  HostMemory M = hostMemory();
  ASSERT_GT(M.TotalBytes, 0);
  EXPECT_GE(M.FreeBytes, 0);
  EXPECT_LE(M.FreeBytes, M.TotalBytes);
}

TEST(HostMemory, FormatsForPeople) {
  EXPECT_EQ(formatBytes(-1), "-");
  EXPECT_EQ(formatBytes(512), "512 B");
  EXPECT_EQ(formatBytes(1536), "1.5 KiB");
  EXPECT_EQ(formatBytes(int64_t(512) << 20), "512 MiB");
  EXPECT_EQ(formatBytes(int64_t(24) << 30), "24.0 GiB");
}
