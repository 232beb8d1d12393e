// CSV traces (the trace program's params.file). Expected outcome of a bad input: InputError.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_input.hpp"
#include "sw/program/trace_listing.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = mmsim::fuzz::write_input("trace.csv", data, size);
  try {
    mmsim::read_trace_csv(file);
  } catch (const mmsim::InputError&) {
  }
  return 0;
}
