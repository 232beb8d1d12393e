// Integers of the command line: lists "16,32,64", ranges "1-10", powers "2^20"
// (parse_integer_list) and single values (parse_integer_option), within the bounds mmsim's
// options use. Expected outcome of a bad input: InputError. A value outside the bounds that is
// accepted traps.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_input.hpp"
#include "sw/program/input_error.hpp"
#include "testbench/input/integer_list.hpp"

namespace {

struct Bounds {
  std::uint64_t min;
  std::uint64_t max;
};

constexpr Bounds kBounds[] = {
    {.min = 1, .max = std::uint64_t{1} << 16},  // --width
    {.min = 0, .max = ~std::uint64_t{0}},       // --seed
    {.min = 1, .max = std::uint64_t{1} << 32},  // --array
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(mmsim::fuzz::as_text(data, size));
  for (const Bounds& b : kBounds) {
    try {
      for (const std::uint64_t v : mmsim::parse_integer_list("--list", text, b.min, b.max))
        if (v < b.min || v > b.max) __builtin_trap();
    } catch (const mmsim::InputError&) {
    }
    try {
      const std::uint64_t v = mmsim::parse_integer_option("--option", text, b.min, b.max);
      if (v < b.min || v > b.max) __builtin_trap();
    } catch (const mmsim::InputError&) {
    }
  }
  return 0;
}
