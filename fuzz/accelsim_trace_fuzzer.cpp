// Accel-Sim traces (the gpu_trace program, format: accelsim): a .traceg, or a kernels list
// naming kernel-N.traceg files beside it (fuzz_input.hpp puts three there). Expected outcome of a
// bad input: InputError, or ParamError when it holds no kernel.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_input.hpp"
#include "sw/gpu_traces/trace_readers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = mmsim::fuzz::write_input("trace.traceg", data, size);
  try {
    mmsim::read_recorded_trace(file, mmsim::TraceFormat::accelsim, mmsim::KernelSelection("all"),
                               2);
  } catch (const mmsim::InputError&) {
  } catch (const mmsim::ParamError&) {
  }
  return 0;
}
