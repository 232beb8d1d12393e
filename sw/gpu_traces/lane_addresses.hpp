// mem_trace's 32 lane addresses in the form its tool prints them: "0x", 16 hexadecimal digits
// and a blank, 19 bytes a lane (608 a line, the last blank optional). They are most of a
// trace's text, so they are parsed all at once with vector instructions: 16 digits in one
// 128-bit register (SSE2, any x86-64 CPU), or two lanes in one 256-bit register where the CPU
// and the build hold x86-64-v3 or wider (hw/support/vector_isa.hpp); other CPUs convert eight
// digits at a time. Every variant gives the same addresses. Text in any other form (fewer
// digits, other blanks, a character that is not a digit) is left to the field-by-field parse,
// which locates the error.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "sw/gpu_traces/trace_format.hpp"

namespace mmsim {

inline constexpr std::size_t kLaneAddressBytes = 19;  // "0x" 16 digits, blank

// The addresses of `text` (what follows the opcode's " - ") into `address`, the lanes whose
// address is not zero (mem_trace's active lanes) into `mask`, and true; false, with both
// unspecified, when `text` is not in the printed form.
bool parse_lane_addresses(std::string_view text, std::array<std::uint64_t, kTraceLanes>& address,
                          std::uint32_t& mask);

}  // namespace mmsim
