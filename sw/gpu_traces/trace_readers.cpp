#include "sw/gpu_traces/trace_readers.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>

#include "sw/gpu_traces/accelsim_reader.hpp"
#include "sw/gpu_traces/nvbit_reader.hpp"
#include "sw/program/input_error.hpp"

namespace mmsim {

RecordedTrace read_recorded_trace(const std::filesystem::path& file, TraceFormat format,
                                  const KernelSelection& selection, unsigned word_shift) {
  const auto start = std::chrono::steady_clock::now();
  RecordedTrace trace;
  trace.file = file;
  trace.format = format;
  trace.word_shift = word_shift;
  trace.store = std::make_unique<WarpStore>(file.string());
  if (format == TraceFormat::nvbit)
    read_nvbit_trace(file, selection, trace);
  else
    read_accelsim_trace(file, selection, trace);
  trace.store->finish();
  if (std::none_of(trace.kernels.begin(), trace.kernels.end(),
                   [](const TraceKernel& k) { return k.selected; })) {
    std::string listed;
    for (std::uint32_t k = 0; k < trace.kernels.size() && k < 20; ++k)
      listed += (listed.empty() ? "" : ", ") + trace.kernel_label(k);
    if (trace.kernels.size() > 20) listed += ", ...";
    throw ParamError("kernel", "kernel: no kernel of " + file.string() + " is '" +
                                   selection.spec() + "'; it holds " +
                                   (listed.empty() ? std::string("none") : listed));
  }
  trace.read_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return trace;
}

}  // namespace mmsim
