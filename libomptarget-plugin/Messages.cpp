//===-- Messages.cpp - homp's messages on stderr ---------------------------===//

#include "Messages.h"

#include <cstdarg>
#include <cstdio>
#include <fcntl.h>
#include <mutex>
#include <unistd.h>

namespace homp {

namespace {

/// Held while homp writes a message, and while stderr goes nowhere.
std::mutex &messageLock() {
  static auto *M = new std::mutex; // messages may come at exit
  return *M;
}

} // namespace

void message(const char *Format, ...) {
  std::lock_guard<std::mutex> Lock(messageLock());
  va_list Args;
  va_start(Args, Format);
  std::vfprintf(stderr, Format, Args);
  va_end(Args);
}

void quietly(const std::function<void()> &Fn) {
  std::lock_guard<std::mutex> Lock(messageLock());
  std::fflush(stderr);
  int Saved = dup(STDERR_FILENO);
  int Null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (Saved >= 0 && Null >= 0)
    dup2(Null, STDERR_FILENO);
  Fn();
  if (Saved >= 0) {
    dup2(Saved, STDERR_FILENO);
    close(Saved);
  }
  if (Null >= 0)
    close(Null);
}

} // namespace homp
