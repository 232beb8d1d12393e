// The n numbers a sum or prefix-sum program adds up: drawn from a seeded generator, or read
// from a text file (params n, seed, file).
#pragma once

#include <filesystem>
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

// The integers of a text file, separated by white space or commas ('#' starts a comment). Throws
// InputError at the line and column of the first one that is malformed or outside [min, max].
std::vector<Word> read_input_file(const std::filesystem::path& file,
                                  Word min = std::numeric_limits<Word>::min(),
                                  Word max = std::numeric_limits<Word>::max());

// params.file (relative to `base_dir`) holds integers separated by white space or commas ('#'
// starts a comment); then n = 0 means "as many as the file holds". Otherwise n >= 1 values come
// from a generator seeded with params.seed. Throws ParamError or InputError (at the file's line
// and column).
std::vector<Word> input_values(const ParamValues& params, const std::filesystem::path& base_dir);

}  // namespace mmsim
