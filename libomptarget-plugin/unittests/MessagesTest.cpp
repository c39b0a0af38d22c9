//===-- MessagesTest.cpp - homp's messages on stderr ----------------------===//
//
// A message written while another thread has stderr going nowhere still
// arrives: the lost error of a region that failed while the first
// construct of another thread probed the devices' types.
//
//===----------------------------------------------------------------------===//

#include "Messages.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>

using namespace homp;

namespace {

/// What Fn writes to stderr.
template <typename F> std::string stderrOf(F &&Fn) {
  char Path[] = "/tmp/homp-messages-XXXXXX";
  int File = mkstemp(Path);
  EXPECT_GE(File, 0);
  std::fflush(stderr);
  int Saved = dup(STDERR_FILENO);
  dup2(File, STDERR_FILENO);
  Fn();
  std::fflush(stderr);
  dup2(Saved, STDERR_FILENO);
  close(Saved);
  close(File);
  std::ifstream In(Path);
  std::stringstream Text;
  Text << In.rdbuf();
  unlink(Path);
  return Text.str();
}

TEST(Messages, AreWrittenWhole) {
  EXPECT_EQ(stderrOf([] { message("homp: %s %d\n", "warning:", 7); }),
            "homp: warning: 7\n");
}

TEST(Messages, QuietlyHidesWhatItRuns) {
  EXPECT_EQ(stderrOf([] {
              message("before\n");
              quietly([] { std::fprintf(stderr, "a GPU runtime's chatter\n"); });
              message("after\n");
            }),
            "before\nafter\n");
}

TEST(Messages, WaitWhileAnotherThreadIsQuiet) {
  std::string Text = stderrOf([] {
    std::atomic<bool> Quiet{false};
    std::thread Prober([&] {
      quietly([&] {
        Quiet = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      });
    });
    while (!Quiet)
      std::this_thread::yield();
    message("homp: error: region x.c:1:1: said while stderr was quiet\n");
    Prober.join();
  });
  EXPECT_EQ(Text, "homp: error: region x.c:1:1: said while stderr was quiet\n");
}

} // namespace
