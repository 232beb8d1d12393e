// Reading a trace in either format: the table on top of the two readers (nvbit_reader.hpp,
// accelsim_reader.hpp), which fill the RecordedTrace that recorded_trace.hpp declares.
#pragma once

#include <filesystem>

#include "sw/gpu_traces/recorded_trace.hpp"
#include "sw/gpu_traces/trace_format.hpp"

namespace mmsim {

// Reads `file` in `format` (either reader), keeping the kernels `selection` names: throws
// InputError at the first malformed line, ParamError("kernel") when no kernel matches.
RecordedTrace read_recorded_trace(const std::filesystem::path& file, TraceFormat format,
                                  const KernelSelection& selection, unsigned word_shift);

}  // namespace mmsim
