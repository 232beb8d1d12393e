// The two recordings mmsim reads: NVBit's mem_trace tool (one text line per warp memory
// instruction) and Accel-Sim's tracer (kernel-N.traceg: per thread block and warp, every
// instruction). docs/gpu_traces.md describes both.
#pragma once

#include <string_view>

namespace mmsim {

enum class TraceFormat { nvbit, accelsim };

constexpr std::string_view to_string(TraceFormat format) {
  return format == TraceFormat::nvbit ? "nvbit" : "accelsim";
}

// Lanes of a recorded warp: both tools record warps of 32 threads.
inline constexpr unsigned kTraceLanes = 32;

}  // namespace mmsim
