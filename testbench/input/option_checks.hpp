// Checks of command-line values (CLI11 validators), shared by the subcommands and the options
// that each output of a run declares (testbench/run/*_part.cpp).
#pragma once

#include <cstdint>

#include <CLI/CLI.hpp>

namespace mmsim {

// Integer options take plain integers or 2^k within [min, max]; a negative number is refused
// (CLI11 alone would wrap it to a huge unsigned value).
CLI::Validator integer_in(std::uint64_t min, std::uint64_t max);

// An output's file name: an empty one is refused (it would silently write nothing).
CLI::Validator output_name();

}  // namespace mmsim
