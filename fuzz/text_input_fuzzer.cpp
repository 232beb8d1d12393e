// Bounded reading of text inputs, under limits small enough for the fuzzer to reach: the lines
// read must be the input (joined with '\n'), and read_text must return the input itself.
// Expected outcome of an input beyond the limits: TextInputError.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz/fuzz_input.hpp"
#include "sw/support/text_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(mmsim::fuzz::as_text(data, size));
  const mmsim::TextLimits limits{.line_bytes = 64, .total_bytes = 2048};
  try {
    std::istringstream in(input);
    mmsim::LineReader reader(in, limits);
    std::string joined;
    std::string line;
    while (reader.next(line)) joined += line + '\n';
    const bool newline_at_end = !input.empty() && input.back() == '\n';
    if (joined != (newline_at_end || input.empty() ? input : input + '\n')) __builtin_trap();
  } catch (const mmsim::TextInputError&) {
  }
  try {
    std::istringstream in(input);
    if (mmsim::read_text(in, limits) != input) __builtin_trap();
  } catch (const mmsim::TextInputError&) {
  }
  if (const auto bad = mmsim::invalid_utf8(input); bad && *bad >= input.size()) __builtin_trap();
  return 0;
}
