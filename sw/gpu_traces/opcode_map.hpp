// What a recorded SASS instruction is on the memory machines (docs/gpu_traces.md, "Opcodes"):
// a read, write or atomic of global or shared memory, a barrier, or something mmsim counts and
// lists but does not run, with the reason.
#pragma once

#include <cstdint>
#include <string_view>

#include "hw/support/types.hpp"
#include "sw/gpu_traces/trace_format.hpp"

namespace mmsim {

enum class TraceOperation : std::uint8_t { read, write, atomic, barrier, other };

struct OpcodeMapping {
  TraceOperation operation = TraceOperation::other;
  Space space = Space::global;  // of a read, write or atomic
  std::string_view reason;      // of `other`: why it is not run
  bool memory() const {
    return operation == TraceOperation::read || operation == TraceOperation::write ||
           operation == TraceOperation::atomic;
  }
};

// `opcode` as recorded, with its modifiers ("LDG.E.64.SYS"); `has_addresses`: the record carries
// lane addresses (every mem_trace line does; an Accel-Sim line with mem_width > 0).
OpcodeMapping map_opcode(std::string_view opcode, TraceFormat format, bool has_addresses);

// The opcode without its modifiers: "LDG" of "LDG.E.64.SYS".
std::string_view base_opcode(std::string_view opcode);

// Bytes one lane accesses, from the opcode's modifiers (mem_trace records no width): the first
// modifier that is a bit count 8, 16, 32, 64 or 128, possibly after U, S or F, over 8
// ("LDG.E.64" 8, "STS.U8" 1, "LDS.128" 16); 4 when none is (Accel-Sim's tracer's own rule,
// which also knows no S and F).
unsigned access_bytes(std::string_view opcode);

}  // namespace mmsim
