#include "sw/gpu_traces/read_ahead.hpp"

#include "sw/support/available_cores.hpp"

namespace mmsim {

bool read_ahead_allowed() { return available_cores() >= 2; }

}  // namespace mmsim
