//===-- SavedProfiles.cpp - AUTO's profiles kept across runs --------------===//

#include "homp/SavedProfiles.h"

#include "homp/MachineModel.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace homp {

namespace {

constexpr const char *Header = "# homp profiles 1";

std::string number(double V) {
  if (!std::isfinite(V))
    return "-";
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.9g", V);
  return Text;
}

/// Splits Text at commas.
std::vector<std::string> fields(const std::string &Text) {
  std::vector<std::string> Out;
  std::string::size_type Begin = 0;
  while (true) {
    std::string::size_type Comma = Text.find(',', Begin);
    Out.push_back(Text.substr(Begin, Comma - Begin));
    if (Comma == std::string::npos)
      return Out;
    Begin = Comma + 1;
  }
}

bool readDouble(const std::string &Text, bool AllowMissing, double &Out) {
  if (AllowMissing && Text == "-") {
    Out = std::numeric_limits<double>::infinity();
    return true;
  }
  char *End = nullptr;
  Out = std::strtod(Text.c_str(), &End);
  return !Text.empty() && *End == '\0' && std::isfinite(Out) && Out >= 0;
}

bool readInt(const std::string &Text, int &Out) {
  char *End = nullptr;
  long V = std::strtol(Text.c_str(), &End, 10);
  if (Text.empty() || *End != '\0' || V < -1 || V > 1'000'000'000)
    return false;
  Out = static_cast<int>(V);
  return true;
}

/// One profile line, without its "profile " word.
bool readLine(const std::string &Line, SavedProfile &P, std::string &Why) {
  std::string::size_type Region = Line.find(" region=");
  if (Line.rfind("region=", 0) == 0)
    Region = std::string::npos; // no other field before it
  if (Region == std::string::npos) {
    Why = "no region";
    return false;
  }
  P.Region = Line.substr(Region + 8);
  if (P.Region.empty()) {
    Why = "an empty region";
    return false;
  }
  std::istringstream In(Line.substr(0, Region));
  std::string Word;
  bool Seen[5] = {};
  const char *Keys[5] = {"devices=", "class=", "learned=", "split=",
                         "trials="};
  while (In >> Word) {
    int K = 0;
    while (K < 5 && Word.rfind(Keys[K], 0) != 0)
      ++K;
    if (K == 5 || Seen[K]) {
      Why = K == 5 ? "unknown field '" + Word + "'"
                   : "'" + std::string(Keys[K]) + "' twice";
      return false;
    }
    Seen[K] = true;
    std::string Value = Word.substr(std::string(Keys[K]).size());
    bool Ok = true;
    switch (K) {
    case 0:
      for (const std::string &F : fields(Value)) {
        int Id;
        Ok &= readInt(F, Id);
        P.Devices.push_back(Id);
      }
      break;
    case 1:
      Ok = readInt(Value, P.SizeClass) && P.SizeClass >= 0 &&
           P.SizeClass <= 64;
      break;
    case 2:
      Ok = readInt(Value, P.Learned) && P.Learned >= 0;
      break;
    case 3:
      for (const std::string &F : fields(Value)) {
        double R;
        Ok &= readDouble(F, false, R);
        P.Split.push_back(R);
      }
      break;
    case 4: {
      std::vector<std::string> F = fields(Value);
      Ok = F.size() == P.Trials.size();
      for (size_t I = 0; Ok && I < F.size(); ++I)
        Ok = readDouble(F[I], true, P.Trials[I]);
      break;
    }
    }
    if (!Ok) {
      Why = "bad value in '" + Word + "'";
      return false;
    }
  }
  for (int K = 0; K < 5; ++K)
    if (!Seen[K]) {
      Why = "no '" + std::string(Keys[K]) + "'";
      return false;
    }
  double Sum = 0;
  for (double R : P.Split)
    Sum += R;
  if (P.Split.size() != P.Devices.size() || !(Sum > 0)) {
    Why = "the split does not give each device a share";
    return false;
  }
  return true;
}

} // namespace

std::string profilesCacheName(const std::string &Program,
                              const std::string &Node) {
  std::string Base = Program.substr(Program.find_last_of('/') + 1);
  // A name of the program's own, safe in any file system: letters, digits,
  // '.', '_' and '-' kept, anything else '_'.
  for (char &C : Base)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '.' && C != '_' &&
        C != '-')
      C = '_';
  if (Base.empty())
    Base = "program";
  return "profiles-" + Base.substr(0, 64) + "-" +
         stableHashText(Program + "\n" + Node) + ".txt";
}

bool SavedProfile::operator==(const SavedProfile &O) const {
  return Region == O.Region && Devices == O.Devices &&
         SizeClass == O.SizeClass && Learned == O.Learned &&
         Split == O.Split && Trials == O.Trials;
}

std::string writeProfiles(const std::vector<SavedProfile> &Profiles) {
  std::string Text = std::string(Header) + "\n";
  for (const SavedProfile &P : Profiles) {
    if (P.Region.find('\n') != std::string::npos)
      continue; // a region no line can hold
    Text += "profile devices=";
    for (size_t I = 0; I < P.Devices.size(); ++I)
      Text += (I ? "," : "") + std::to_string(P.Devices[I]);
    Text += " class=" + std::to_string(P.SizeClass) +
            " learned=" + std::to_string(P.Learned) + " split=";
    for (size_t I = 0; I < P.Split.size(); ++I)
      Text += (I ? "," : "") + number(P.Split[I]);
    Text += " trials=";
    for (size_t I = 0; I < P.Trials.size(); ++I)
      Text += (I ? "," : "") + number(P.Trials[I]);
    Text += " region=" + P.Region + "\n";
  }
  return Text;
}

bool readProfiles(const std::string &Text, std::vector<SavedProfile> &Profiles,
                  std::string &Error) {
  Profiles.clear();
  std::istringstream In(Text);
  std::string Line;
  int Number = 0;
  while (std::getline(In, Line)) {
    ++Number;
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back(); // a file that went through Windows
    if (Number == 1 && Line != Header) {
      Error = "line 1: expected '" + std::string(Header) + "'";
      return false;
    }
    if (Line.empty() || Line[0] == '#')
      continue;
    SavedProfile P;
    std::string Why;
    if (Line.rfind("profile ", 0) != 0)
      Why = "expected 'profile ...'";
    else
      readLine(Line.substr(8), P, Why);
    if (!Why.empty()) {
      Error = "line " + std::to_string(Number) + ": " + Why;
      return false;
    }
    Profiles.push_back(std::move(P));
  }
  // An empty file ('mktemp', 'touch') holds no profiles yet.
  return true;
}

} // namespace homp
