// Worker processes: every job in a child of its own, outputs handed back in completion order,
// a crash reported for that job alone.
#include "testbench/process_pool.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <set>

namespace mmsim {
namespace {

TEST(ProcessPool, RunsEveryJobInAChildOfItsOwn) {
  std::map<std::size_t, std::string> outputs;
  std::set<std::string> pids;
  const int signal = ProcessPool(3).run(
      {0, 1, 2, 3, 4, 5, 6, 7},
      [](std::size_t job) {
        std::cout << "noise on stdout that is not the output\n";
        return std::to_string(job * job) + " " + std::to_string(getpid());
      },
      [&](const ProcessPool::Finished& f) {
        ASSERT_TRUE(f.returned()) << f.failure();
        const std::size_t space = f.output.find(' ');
        outputs[f.job] = f.output.substr(0, space);
        pids.insert(f.output.substr(space + 1));
        EXPECT_EQ(f.log, "noise on stdout that is not the output\n");
      },
      [] {});
  EXPECT_EQ(signal, 0);
  ASSERT_EQ(outputs.size(), 8u);
  for (std::size_t job = 0; job < 8; ++job) EXPECT_EQ(outputs[job], std::to_string(job * job));
  EXPECT_EQ(pids.size(), 8u);  // a fresh process each time
  EXPECT_EQ(pids.count(std::to_string(getpid())), 0u);
}

TEST(ProcessPool, ACrashSpoilsOnlyItsOwnJob) {
  std::map<std::size_t, ProcessPool::Finished> finished;
  ProcessPool(2).run(
      {0, 1, 2},
      [](std::size_t job) -> std::string {
        if (job == 1) {
          std::cerr << "about to fail\n";
          std::abort();
        }
        if (job == 2) throw std::runtime_error("a job that throws");
        return "fine";
      },
      [&](const ProcessPool::Finished& f) { finished[f.job] = f; }, [] {});
  ASSERT_EQ(finished.size(), 3u);
  EXPECT_TRUE(finished[0].returned());
  EXPECT_EQ(finished[0].output, "fine");
  EXPECT_FALSE(finished[1].returned());
  EXPECT_EQ(finished[1].output, "");
  EXPECT_EQ(finished[1].failure(), "killed by signal 6 (Aborted): about to fail");
  EXPECT_FALSE(finished[2].returned());
  EXPECT_EQ(finished[2].failure(), "exited with status 70: a job that throws");
}

TEST(ProcessPool, AnExceptionOfTheParentStopsThePool) {
  int finished = 0;
  EXPECT_THROW(ProcessPool(2).run(
                   {0, 1, 2, 3, 4, 5}, [](std::size_t job) { return std::to_string(job); },
                   [&](const ProcessPool::Finished&) {
                     if (++finished == 2) throw std::runtime_error("disk full");
                   },
                   [] {}),
               std::runtime_error);
  EXPECT_EQ(finished, 2);
}

}  // namespace
}  // namespace mmsim
