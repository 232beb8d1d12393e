// What every run of a built-in program must show, for the tests of the programs: the right
// result, no race, no barrier divergence, every exact figure met and no lower bound beaten.
#pragma once

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "support/testbench_text.hpp"

namespace mmsim::test {

inline const Bound& bound(const RunOutcome& o, const std::string& key) {
  const Bound* b = find_bound(o, key);
  if (!b) throw std::runtime_error("no bound " + key);
  return *b;
}

// `where` names the run in the failures.
inline void expect_sound(const RunOutcome& o, const std::string& where) {
  EXPECT_TRUE(o.verified.value_or(false)) << where << ": " << o.first_mismatch;
  EXPECT_TRUE(o.program_checked) << where;
  EXPECT_EQ(o.race_count, 0u) << where;
  EXPECT_TRUE(o.errors.empty() && o.warnings.empty()) << where;
  for (const Bound& b : o.bounds) {
    if (b.kind == Bound::Kind::exact) {
      EXPECT_EQ(measured(o, b), b.value) << where << ": " << b.key;
    } else if (b.kind == Bound::Kind::lower) {
      EXPECT_GE(measured(o, b), b.value) << where << ": " << b.key;
    }
  }
}

// The stage groups of the largest dispatch to any shared memory of a hierarchical machine.
inline std::uint64_t largest_shared_dispatch(const RunOutcome& o) {
  std::uint64_t largest = 0;
  for (std::size_t i = 1; i < o.result.memories.size(); ++i)
    largest = std::max(largest, o.result.memories[i].counters.max_stages);
  return largest;
}

// The message of the InputError a testbench raises, after its "file:" prefix ("no error" if it
// raises none).
inline std::string input_error_of(const std::string& yaml) {
  try {
    run_yaml(yaml);
  } catch (const InputError& e) {
    const std::string located = e.describe();
    return located.substr(located.find(':'));
  }
  return "no error";
}

}  // namespace mmsim::test
