// The mmsim command line, the same for every subcommand: integers as 2^k and no negative ones
// wrapped, a mistyped name answered with the nearest valid one, every default and the exit
// statuses in --help.
#include <gtest/gtest.h>

#include "support/command.hpp"

namespace mmsim::test {
namespace {

TEST(CommandLine, AMistypedSubcommandGetsTheNearestOne) {
  const CommandResult r = mmsim("rn x.yaml");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "mmsim: unknown command 'rn' (did you mean 'run'?) (see --help)\n");
  EXPECT_EQ(mmsim("plna --n 16").err,
            "mmsim: unknown command 'plna' (did you mean 'plan'?) (see --help)\n");
  EXPECT_EQ(mmsim("frobnicate").err,
            "mmsim: unknown command 'frobnicate' (expected one of: run, congestion, list, plan, "
            "profile, sweep) (see --help)\n");
}

TEST(CommandLine, AMistypedOptionGetsTheNearestOne) {
  const CommandResult r = mmsim("run --stat x.json x.yaml");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "mmsim: run: unknown option '--stat' (did you mean '--stats'?) (see --help)\n");
  EXPECT_EQ(mmsim("congestion --widht 16").err,
            "mmsim: congestion: unknown option '--widht' (did you mean '--width'?) (see --help)\n");
  EXPECT_EQ(mmsim("plan --n 16 --width 4 --permutaton=identity").err,
            "mmsim: plan: unknown option '--permutaton' (did you mean '--permutation'?) (see "
            "--help)\n");
}

TEST(CommandLine, AMistypedListGetsTheNearestOne) {
  const CommandResult r = mmsim("list polices");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "mmsim: list: unknown list 'polices' (did you mean 'policies'?)\n");
}

TEST(CommandLine, IntegerOptionsTakePowersOfTwoAndRefuseNegatives) {
  const CommandResult powers = mmsim("plan --n 2^8 --width 2^2 --seed 2^40");
  EXPECT_EQ(powers.status, 0) << powers.err;
  EXPECT_NE(powers.out.find("random permutation of n = 256 for the dmm with w = 4"),
            std::string::npos)
      << powers.out;
  EXPECT_EQ(mmsim("plan --n -5 --width 4").err,
            "mmsim: --n: expected an integer from 1 to 4294967296, got '-5' (see --help)\n");
  EXPECT_EQ(mmsim("plan --n 16 --width 4 --seed -1").err,
            "mmsim: --seed: expected an integer from 0 to 18446744073709551615, got '-1' (see "
            "--help)\n");
  EXPECT_EQ(mmsim("plan --n 2^33 --width 4").status, 2);
  EXPECT_EQ(mmsim("plan --n 16 --width 0").status, 2);
}

TEST(CommandLine, AMistypedPermutationKeywordGetsTheKeyword) {
  const CommandResult r = mmsim("plan --n 16 --width 4 --permutation bitreversal");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "mmsim: --permutation: 'bitreversal' is no permutation (did you mean 'bit_reversal'?) "
            "and no file either\n");
}

TEST(CommandLine, HelpShowsEveryDefaultAndTheExitStatuses) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> defaults = {
      {"plan",
       {"--permutation TEXT=random", "--seed INT|2^k=1", "--machine TEXT=dmm",
        "--algorithm TEXT=automatic", "--n INT|2^k REQUIRED"}},
      {"congestion",
       {"--width TEXT=16,32,64,128,256", "--super-warp TEXT=1-10", "--rounds TEXT=1000000",
        "--map TEXT=random_shift", "--threads TEXT=0"}},
      {"run", {"testbench TEXT REQUIRED", "--stats TEXT"}},
      {"sweep", {"sweep TEXT REQUIRED"}},
      {"list", {"what TEXT"}},
      {"profile", {"stats TEXT REQUIRED"}},
  };
  for (const auto& [command, shown] : defaults) {
    const CommandResult r = mmsim(command + " --help");
    EXPECT_EQ(r.status, 0);
    for (const std::string& option : shown)
      EXPECT_NE(r.out.find(option), std::string::npos) << command << ": " << option;
    EXPECT_NE(r.out.find("Exit status: 0 "), std::string::npos) << command;
  }
  EXPECT_NE(mmsim("--help").out.find("Exit status: 0 success, 1 a verification failed, 2 invalid"),
            std::string::npos);
}

}  // namespace
}  // namespace mmsim::test
