//===-- SavedProfiles.h - AUTO's profiles kept across runs ------*- C++ -*-===//
//
// What AUTO learned of each region (its balanced split and the times of
// its trials, per device set and size class) is written to a file at exit
// and read back by the next run, which then starts from it instead of
// sampling and trying again: the program's own file in the cache folder
// (profilesCacheName), or HOMP_PROFILES=FILE (off: none). One profile per
// line:
//
//   profile devices=0,1,2,3 class=17 learned=9 split=0.4,0.2,0.2,0.2
//           trials=0.00121,0.0031,-,0.0102 region=FILE:LINE:COL
//
// (on one line), the trial times in seconds in AutoTrial's order (balanced,
// model, dynamic, alone; '-': not run), the region last: its file name may
// hold spaces.
//
//===----------------------------------------------------------------------===//

#ifndef HOMP_SAVEDPROFILES_H
#define HOMP_SAVEDPROFILES_H

#include <array>
#include <string>
#include <vector>

namespace homp {

struct SavedProfile {
  std::string Region; ///< the construct's FILE:LINE:COL
  std::vector<int> Devices;
  int SizeClass = 0; ///< the bit length of the loop's trip count
  int Learned = 0;   ///< executions the split learned from
  std::vector<double> Split; ///< per device, summing to 1
  /// The typical time of each AutoTrial (seconds); +infinity: not run.
  std::array<double, 4> Trials{};

  bool operator==(const SavedProfile &O) const;
};

/// The name of Program's profiles file in the cache folder, for the node
/// Node (what rates depend on: nodeFacts), e.g.
/// "profiles-jacobi-1f0c2a9b.txt": the program's file name, then a hash of
/// its whole path and of Node, so that programs of one name in different
/// folders, and nodes of different kinds sharing a home directory, keep
/// files of their own.
std::string profilesCacheName(const std::string &Program,
                              const std::string &Node);

/// The text of a profiles file holding Profiles.
std::string writeProfiles(const std::vector<SavedProfile> &Profiles);

/// Reads a profiles file's Text into Profiles; false with Error (naming the
/// line) when it is not one.
bool readProfiles(const std::string &Text, std::vector<SavedProfile> &Profiles,
                  std::string &Error);

} // namespace homp

#endif // HOMP_SAVEDPROFILES_H
