// Every example testbench in configs/ runs and verifies (most check the papers' figures with an
// expect: section).
#include <gtest/gtest.h>

#include "support/command.hpp"

namespace mmsim::test {
namespace {

std::vector<std::string> example_testbenches() {
  std::vector<std::string> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(MMSIM_SOURCE_DIR) + "/configs"))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

class Example : public ::testing::TestWithParam<std::string> {};

TEST_P(Example, RunsAndVerifies) {
  const CommandResult r = mmsim("run " + std::string(MMSIM_SOURCE_DIR) + "/configs/" + GetParam());
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("  verified     yes"), std::string::npos) << r.out;
}

INSTANTIATE_TEST_SUITE_P(Configs, Example, ::testing::ValuesIn(example_testbenches()),
                         [](const auto& info) {
                           std::string name = info.param.substr(0, info.param.size() - 5);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace mmsim::test
