//===-- Messages.h - homp's messages on stderr ------------------*- C++ -*-===//
//
// Errors, warnings and HOMP_INFO's reports come from any thread: the
// program's, the devices' proxies. Each is written whole, and never while
// stderr goes nowhere for a GPU runtime's start-up (quietly), which lost a
// region's error once: the thread that first asked for the devices' types
// had stderr on /dev/null while another wrote the error and ended the
// program.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_LIBOMPTARGET_PLUGIN_MESSAGES_H
#define HOMP_LIBOMPTARGET_PLUGIN_MESSAGES_H

#include <functional>
#include <string>

namespace homp {

/// Writes one of homp's messages (printf's Format and arguments) to
/// stderr.
[[gnu::format(printf, 1, 2)]] void message(const char *Format, ...);

/// From now on each line of homp's messages says which rank of an MPI job
/// wrote it: 'homp[rank R]:' where it says 'homp:'.
void setMessageRank(int Rank);

/// Keeps Text, a message about work the program did not wait for (HOMP_INFO's
/// report of an asynchronous kernel, made by the proxy that finished it),
/// until the program next waits for its devices (printDeferred): then it
/// comes where the program's output shows the work done, in the same place
/// in every run, not wherever a proxy happened to finish.
void deferMessage(std::string Text);

/// Writes the deferred messages, in the order they were made. Called where
/// the calling thread has waited for devices (runOnDevices) and at exit.
void printDeferred();

/// Runs Fn with stderr going nowhere; homp's messages from other threads
/// wait until it is back.
void quietly(const std::function<void()> &Fn);

/// HOMP_MPI_DRY_RUN prints each construct's rank plan once: whether the
/// construct at Where (its location, with what sets it apart, e.g. the
/// array of a halo update) is yet to be printed; it then counts as printed.
bool firstDryRun(const std::string &Where);

} // namespace homp

#endif // HOMP_LIBOMPTARGET_PLUGIN_MESSAGES_H
