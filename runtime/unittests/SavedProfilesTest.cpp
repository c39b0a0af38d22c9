//===-- SavedProfilesTest.cpp - AUTO's profiles kept across runs ----------===//

#include "homp/SavedProfiles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace homp {
namespace {

constexpr double Inf = std::numeric_limits<double>::infinity();

std::vector<SavedProfile> someProfiles() {
  SavedProfile A;
  A.Region = "/home/me/my project/jacobi.c:90:1"; // a space in the path
  A.Devices = {0, 1, 2, 3};
  A.SizeClass = 17;
  A.Learned = 9;
  A.Split = {0.4, 0.2, 0.25, 0.15};
  A.Trials = {0.00121, 0.0031, Inf, 0.0102};
  SavedProfile B;
  B.Region = "axpy.c:12:3";
  B.Devices = {2, 4};
  B.SizeClass = 0;
  B.Learned = 1;
  B.Split = {1, 0};
  B.Trials = {1e-6, Inf, Inf, Inf};
  return {A, B};
}

TEST(SavedProfiles, RoundTrip) {
  std::vector<SavedProfile> Want = someProfiles(), Got;
  std::string Text = writeProfiles(Want);
  std::string Error;
  ASSERT_TRUE(readProfiles(Text, Got, Error)) << Error << "\n" << Text;
  EXPECT_EQ(Got, Want);
  EXPECT_EQ(writeProfiles(Got), Text);
  EXPECT_NE(Text.find("trials=0.00121,0.0031,-,0.0102 region=/home/me/my "
                      "project/jacobi.c:90:1\n"),
            std::string::npos)
      << Text;
  // No profiles: a file with its header only.
  ASSERT_TRUE(readProfiles(writeProfiles({}), Got, Error)) << Error;
  EXPECT_TRUE(Got.empty());
}

TEST(SavedProfiles, RegionsNoLineCanHoldAreLeftOut) {
  std::vector<SavedProfile> P = someProfiles(), Got;
  P[0].Region = "odd\nname.c:1:1";
  std::string Error;
  ASSERT_TRUE(readProfiles(writeProfiles(P), Got, Error)) << Error;
  ASSERT_EQ(Got.size(), 1u);
  EXPECT_EQ(Got[0].Region, "axpy.c:12:3");
}

// An empty file (made by mktemp or touch for a run to fill) holds no
// profiles yet, and lines may end in CRLF.
TEST(SavedProfiles, EmptyAndCrlfFilesAreRead) {
  std::vector<SavedProfile> Profiles(1);
  std::string Error;
  EXPECT_TRUE(readProfiles("", Profiles, Error)) << Error;
  EXPECT_TRUE(Profiles.empty());
  std::vector<SavedProfile> Want = someProfiles();
  std::string Text = writeProfiles(Want), Crlf;
  for (char C : Text)
    Crlf += C == '\n' ? std::string("\r\n") : std::string(1, C);
  ASSERT_TRUE(readProfiles(Crlf, Profiles, Error)) << Error;
  EXPECT_EQ(Profiles, Want);
}

TEST(SavedProfiles, MalformedFilesNameTheLine) {
  const std::string H = "# homp profiles 1\n";
  const std::string Good =
      "profile devices=0,1 class=3 learned=2 split=0.5,0.5 "
      "trials=1,-,-,- region=a.c:1:1\n";
  struct Case {
    std::string Text, Error;
  } Cases[] = {
      {"# homp profiles 2\n", "line 1: expected '# homp profiles 1'"},
      {H + Good + "profil devices=0\n", "line 3: expected 'profile ...'"},
      {H + "profile devices=0,1 class=3 learned=2 split=0.5,0.5 "
           "trials=1,-,-,-\n",
       "line 2: no region"},
      {H + "profile devices=0,1 class=3 learned=2 split=0.5,0.5 "
           "trials=1,-,-,- region=\n",
       "line 2: an empty region"},
      {H + "profile devices=0,1 class=3 split=0.5,0.5 trials=1,-,-,- "
           "region=a.c:1:1\n",
       "line 2: no 'learned='"},
      {H + "profile devices=0,x class=3 learned=2 split=0.5,0.5 "
           "trials=1,-,-,- region=a.c:1:1\n",
       "line 2: bad value in 'devices=0,x'"},
      {H + "profile devices=0,1 class=65 learned=2 split=0.5,0.5 "
           "trials=1,-,-,- region=a.c:1:1\n",
       "line 2: bad value in 'class=65'"},
      {H + "profile devices=0,1 class=3 learned=2 split=0.5,-1 "
           "trials=1,-,-,- region=a.c:1:1\n",
       "line 2: bad value in 'split=0.5,-1'"},
      {H + "profile devices=0,1 class=3 learned=2 split=0.5,0.5 "
           "trials=1,-,- region=a.c:1:1\n",
       "line 2: bad value in 'trials=1,-,-'"},
      {H + "profile devices=0,1 class=3 learned=2 split=0.5 "
           "trials=1,-,-,- region=a.c:1:1\n",
       "line 2: the split does not give each device a share"},
      {H + "profile devices=0,1 class=3 learned=2 split=0,0 "
           "trials=1,-,-,- region=a.c:1:1\n",
       "line 2: the split does not give each device a share"},
      {H + "profile devices=0,1 class=3 class=3 learned=2 split=0.5,0.5 "
           "trials=1,-,-,- region=a.c:1:1\n",
       "line 2: 'class=' twice"},
      {H + "profile devices=0,1 color=3 learned=2 split=0.5,0.5 "
           "trials=1,-,-,- region=a.c:1:1\n",
       "line 2: unknown field 'color=3'"},
  };
  for (const Case &C : Cases) {
    std::vector<SavedProfile> Got;
    std::string Error;
    EXPECT_FALSE(readProfiles(C.Text, Got, Error)) << C.Text;
    EXPECT_EQ(Error, C.Error) << C.Text;
  }
  std::vector<SavedProfile> Got;
  std::string Error;
  EXPECT_TRUE(readProfiles(H + Good + "# a comment\n\n", Got, Error)) << Error;
  EXPECT_EQ(Got.size(), 1u);
}

TEST(SavedProfiles, CacheNamesKeepProgramsAndNodesApart) {
  const std::string Node = "model name: X; cores 2; threads 2";
  std::string A = profilesCacheName("/home/u/run 1/jacobi", Node);
  EXPECT_EQ(A.rfind("profiles-jacobi-", 0), 0u) << A;
  EXPECT_EQ(A.size(), std::string("profiles-jacobi-12345678.txt").size());
  EXPECT_EQ(A, profilesCacheName("/home/u/run 1/jacobi", Node)) << "stable";
  EXPECT_NE(A, profilesCacheName("/home/u/run 2/jacobi", Node));
  EXPECT_NE(A, profilesCacheName("/home/u/run 1/jacobi", Node + "; sm_90"));
  // Characters a file name should not hold become '_'; a long name is cut.
  std::string Odd = profilesCacheName("/t/a b:c*d", Node);
  EXPECT_EQ(Odd.rfind("profiles-a_b_c_d-", 0), 0u) << Odd;
  std::string Long = profilesCacheName("/" + std::string(300, 'x'), Node);
  EXPECT_LT(Long.size(), 100u);
  EXPECT_EQ(profilesCacheName("/", Node).rfind("profiles-program-", 0), 0u);
}

} // namespace
} // namespace homp
