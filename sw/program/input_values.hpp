// The n numbers a sum or prefix-sum program adds up: drawn from a seeded generator, or read
// from a text file (params n, seed, file).
#pragma once

#include <filesystem>
#include <functional>
#include <limits>
#include <vector>

#include "hw/support/types.hpp"
#include "sw/program/params.hpp"

namespace mmsim {

// Values drawn uniformly from [-kInputMagnitude, kInputMagnitude]: sums of up to 2^40 of them
// cannot overflow a word.
inline constexpr Word kInputMagnitude = Word{1} << 20;

// The parameters every sum and prefix-sum program takes.
std::vector<ParamSpec> input_value_params();

// `count` values drawn uniformly from [-kInputMagnitude, kInputMagnitude] by a generator seeded
// with `seed`.
std::vector<Word> random_values(std::uint64_t count, std::uint64_t seed);

// The integers of a text file, separated by white space or commas ('#' starts a comment), each
// handed to `take` in order. Throws InputError at the line and column of the first one that is
// malformed or outside [min, max].
void for_each_input_value(const std::filesystem::path& file, Word min, Word max,
                          const std::function<void(Word)>& take);

// The integers of a text file, as for_each_input_value reads them.
std::vector<Word> read_input_file(const std::filesystem::path& file,
                                  Word min = std::numeric_limits<Word>::min(),
                                  Word max = std::numeric_limits<Word>::max());

// The `count` integers of a file counted before (for_each_input_value); a ParamError at
// params.file when it holds another number of them now (it changed since).
std::vector<Word> read_counted_input_file(const std::filesystem::path& file, Word min, Word max,
                                          std::uint64_t count);

// A program's n input numbers, known before they are made: params.file (relative to
// `base_dir`) holds integers separated by white space or commas ('#' starts a comment), n = 0
// meaning "as many as the file holds"; otherwise n >= 1 values come from a generator seeded with
// params.seed. The constructor checks the parameters and counts a file's numbers (keeping none
// of them); make() makes them, once the run's memory has been accepted (WarpProgram::prepare),
// so that a run too large for the machine is refused before it allocates them.
class InputValues {
 public:
  // Throws ParamError or InputError (at the file's line and column).
  InputValues(const ParamValues& params, const std::filesystem::path& base_dir);

  std::uint64_t size() const { return count_; }
  // What make() allocates: 8 bytes per number.
  std::uint64_t bytes() const { return 8 * count_; }
  std::vector<Word> make() const;

 private:
  std::uint64_t count_ = 0;
  std::uint64_t seed_ = 0;
  std::filesystem::path file_;  // empty: generated
};

// InputValues(params, base_dir).make().
std::vector<Word> input_values(const ParamValues& params, const std::filesystem::path& base_dir);

}  // namespace mmsim
