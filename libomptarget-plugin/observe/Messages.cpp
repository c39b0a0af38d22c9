//===-- Messages.cpp - homp's messages on stderr ---------------------------===//

#include "Messages.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <deque>
#include <fcntl.h>
#include <mutex>
#include <set>
#include <string>
#include <unistd.h>

namespace homp {

namespace {

/// Held while homp writes a message, and while stderr goes nowhere.
std::mutex &messageLock() {
  static auto *M = new std::mutex; // messages may come at exit
  return *M;
}

/// The deferred messages (never freed: proxies may defer while the process
/// exits), and whether there are any (read at every wait for devices).
struct Deferred {
  std::mutex M;
  std::deque<std::string> Texts;
  std::atomic<bool> Any{false};
};

Deferred &deferred() {
  static auto *D = new Deferred;
  return *D;
}

/// 'homp[rank R]:' under an MPI job (setMessageRank); empty: 'homp:'.
std::string &rankPrefix() {
  static auto *P = new std::string;
  return *P;
}

/// Text with each line's 'homp:' saying the rank.
std::string withRank(std::string Text) {
  const std::string &P = rankPrefix();
  if (P.empty())
    return Text;
  static const std::string Plain = "homp:";
  for (size_t At = 0; At < Text.size();) {
    if (Text.compare(At, Plain.size(), Plain) == 0) {
      Text.replace(At, Plain.size(), P);
      At += P.size();
    }
    size_t End = Text.find('\n', At);
    if (End == std::string::npos)
      break;
    At = End + 1;
  }
  return Text;
}

} // namespace

void setMessageRank(int Rank) {
  std::lock_guard<std::mutex> Lock(messageLock());
  rankPrefix() = "homp[rank " + std::to_string(Rank) + "]:";
}

void deferMessage(std::string Text) {
  Deferred &D = deferred();
  std::lock_guard<std::mutex> Lock(D.M);
  D.Texts.push_back(std::move(Text));
  D.Any.store(true, std::memory_order_release);
}

void printDeferred() {
  Deferred &D = deferred();
  if (!D.Any.load(std::memory_order_acquire))
    return;
  std::deque<std::string> Texts;
  {
    std::lock_guard<std::mutex> Lock(D.M);
    Texts.swap(D.Texts);
    D.Any.store(false, std::memory_order_release);
  }
  std::lock_guard<std::mutex> Lock(messageLock());
  for (const std::string &T : Texts)
    std::fputs(withRank(T).c_str(), stderr);
}

void message(const char *Format, ...) {
  std::lock_guard<std::mutex> Lock(messageLock());
  va_list Args;
  va_start(Args, Format);
  if (rankPrefix().empty()) {
    std::vfprintf(stderr, Format, Args);
  } else {
    va_list Again;
    va_copy(Again, Args);
    const int N = std::vsnprintf(nullptr, 0, Format, Args);
    std::string Text(N > 0 ? N : 0, '\0');
    std::vsnprintf(Text.data(), Text.size() + 1, Format, Again);
    va_end(Again);
    std::fputs(withRank(std::move(Text)).c_str(), stderr);
  }
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

bool firstDryRun(const std::string &Where) {
  static std::mutex Lock;
  static std::set<std::string> Printed;
  std::lock_guard<std::mutex> Guard(Lock);
  return Printed.insert(Where).second;
}

} // namespace homp
