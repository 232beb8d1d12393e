// Testbenches written inline in tests, loaded through the real loader.
#pragma once

#include <string>
#include <vector>

#include "support/temp_dir.hpp"
#include "testbench/input/testbench.hpp"
#include "testbench/run/runner.hpp"

namespace mmsim::test {

inline RunOutcome run_yaml(const std::string& yaml,
                           const std::vector<std::string>& overrides = {}) {
  TempDir dir;
  return run_testbench(load_testbench(dir.write("testbench.yaml", yaml), overrides));
}

inline const Bound* find_bound(const RunOutcome& outcome, const std::string& key) {
  for (const Bound& b : outcome.bounds)
    if (b.key == key) return &b;
  return nullptr;
}

}  // namespace mmsim::test
