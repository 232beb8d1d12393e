// NVBit mem_trace output (the gpu_trace program, format: nvbit), read and regrouped per warp
// through sorted runs (a run every 4 kB of records, read back through small buffers, so that
// inputs reach the merge). Expected outcome of a bad input: InputError, or ParamError when it
// holds no kernel.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_input.hpp"
#include "sw/gpu_traces/nvbit_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = mmsim::fuzz::write_input("trace.txt", data, size);
  try {
    mmsim::RecordedTrace trace;
    trace.file = file;
    trace.store = std::make_unique<mmsim::WarpStore>(file.string());
    mmsim::read_nvbit_trace(file, mmsim::KernelSelection("all"), trace, {4096, 512});
    trace.store->finish();
  } catch (const mmsim::InputError&) {
  }
  return 0;
}
