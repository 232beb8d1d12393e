// The keys a sorting program sorts (params n, seed, file, input, key_bits) and the check of its
// output: sorted, and a permutation of the input.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "hw/mmu/mmu.hpp"
#include "hw/support/types.hpp"
#include "sw/program/params.hpp"
#include "sw/program/verification.hpp"

namespace mmsim {

// How many distinct keys `input: few` draws.
inline constexpr unsigned kFewDistinctKeys = 8;

// The parameters every sorting program takes.
std::vector<ParamSpec> sort_input_params();

// n >= 1 keys of key_bits (32 or 64) bits, signed: from params.file (relative to `base_dir`; n = 0
// takes them all; a key outside the key_bits range is refused at its line and column), or drawn
// from a generator seeded with params.seed and arranged as params.input says: random (uniform),
// sorted, reversed, equal (one key n times) or few (kFewDistinctKeys distinct keys). Known before
// they are made: the constructor checks the parameters and counts a file's keys (keeping none);
// make() makes them once the run's memory has been accepted (WarpProgram::prepare).
class SortKeys {
 public:
  // Throws ParamError or InputError.
  SortKeys(const ParamValues& params, const std::filesystem::path& base_dir);

  std::uint64_t size() const { return count_; }
  std::vector<Word> make() const;

 private:
  std::uint64_t count_ = 0;
  std::uint64_t seed_ = 0;
  unsigned key_bits_ = 32;
  std::string input_;
  std::filesystem::path file_;  // empty: generated
};

// SortKeys(params, base_dir).make().
std::vector<Word> sort_keys(const ParamValues& params, const std::filesystem::path& base_dir);

// Checks m[base .. base + n) against `sorted` (the input, sorted) element by element: the output
// is sorted and a permutation of the input exactly when every element matches.
void verify_sorted(Verification& verification, const Mmu& memory, Address base,
                   const std::vector<Word>& sorted);

}  // namespace mmsim
