#include "sw/gpu_traces/opcode_map.hpp"

#include <array>
#include <charconv>

namespace mmsim {
namespace {

struct OpcodeRule {
  std::string_view base;
  OpcodeMapping mapping;
};

constexpr std::string_view kLocal = "local memory (each thread's own): not modelled";
constexpr std::string_view kConstant = "constant memory: not modelled";
constexpr std::string_view kTexture = "texture or surface memory: not modelled";
constexpr std::string_view kBulk = "bulk copy (TMA): not modelled";
constexpr std::string_view kFence = "memory fence or cache control: takes no memory access";
constexpr std::string_view kArrive = "barrier arrival without a wait: no effect on the order";

constexpr OpcodeMapping read(Space space) { return {TraceOperation::read, space, {}}; }
constexpr OpcodeMapping write(Space space) { return {TraceOperation::write, space, {}}; }
constexpr OpcodeMapping atomic(Space space) { return {TraceOperation::atomic, space, {}}; }
constexpr OpcodeMapping other(std::string_view why) {
  return {TraceOperation::other, Space::global, why};
}

// Generic LD, ST and ATOM go to global memory (docs/gpu_traces.md says why).
constexpr std::array kRules = {
    OpcodeRule{"LDG", read(Space::global)},     OpcodeRule{"LD", read(Space::global)},
    OpcodeRule{"STG", write(Space::global)},    OpcodeRule{"ST", write(Space::global)},
    OpcodeRule{"ATOMG", atomic(Space::global)}, OpcodeRule{"ATOM", atomic(Space::global)},
    OpcodeRule{"RED", atomic(Space::global)},   OpcodeRule{"LDS", read(Space::shared)},
    OpcodeRule{"LDSM", read(Space::shared)},    OpcodeRule{"STS", write(Space::shared)},
    OpcodeRule{"ATOMS", atomic(Space::shared)}, OpcodeRule{"LDL", other(kLocal)},
    OpcodeRule{"STL", other(kLocal)},           OpcodeRule{"LDC", other(kConstant)},
    OpcodeRule{"ULDC", other(kConstant)},       OpcodeRule{"TEX", other(kTexture)},
    OpcodeRule{"TLD", other(kTexture)},         OpcodeRule{"TLD4", other(kTexture)},
    OpcodeRule{"TXD", other(kTexture)},         OpcodeRule{"TXQ", other(kTexture)},
    OpcodeRule{"TMML", other(kTexture)},        OpcodeRule{"SULD", other(kTexture)},
    OpcodeRule{"SUST", other(kTexture)},        OpcodeRule{"SURED", other(kTexture)},
    OpcodeRule{"SUATOM", other(kTexture)},      OpcodeRule{"UTMALDG", other(kBulk)},
    OpcodeRule{"UTMASTG", other(kBulk)},        OpcodeRule{"UTMAPF", other(kBulk)},
    OpcodeRule{"UTMAREDG", other(kBulk)},       OpcodeRule{"UBLKCP", other(kBulk)},
    OpcodeRule{"UBLKPF", other(kBulk)},         OpcodeRule{"UBLKRED", other(kBulk)},
    OpcodeRule{"MEMBAR", other(kFence)},        OpcodeRule{"FENCE", other(kFence)},
    OpcodeRule{"CCTL", other(kFence)},          OpcodeRule{"CCTLL", other(kFence)},
    OpcodeRule{"ERRBAR", other(kFence)},        OpcodeRule{"DEPBAR", other(kFence)},
    OpcodeRule{"LDGDEPBAR", other(kFence)},
};

bool has_modifier(std::string_view opcode, std::string_view modifier) {
  std::size_t at = opcode.find('.');
  while (at != std::string_view::npos) {
    const std::size_t next = opcode.find('.', at + 1);
    if (opcode.substr(at + 1, next == std::string_view::npos ? next : next - at - 1) == modifier)
      return true;
    at = next;
  }
  return false;
}

}  // namespace

std::string_view base_opcode(std::string_view opcode) { return opcode.substr(0, opcode.find('.')); }

OpcodeMapping map_opcode(std::string_view opcode, TraceFormat format, bool has_addresses) {
  const std::string_view base = base_opcode(opcode);
  if (base == "BAR")
    return has_modifier(opcode, "ARV") ? other(kArrive)
                                       : OpcodeMapping{TraceOperation::barrier, Space::global, {}};
  if (base == "LDGSTS") {
    if (format == TraceFormat::nvbit)
      return other(
          "asynchronous copy: mem_trace records its shared and its global address as two "
          "lines that cannot be told apart");
    // Accel-Sim's post-processing keeps the line of its global (source) address.
    return has_addresses ? read(Space::global) : other("memory instruction without addresses");
  }
  for (const OpcodeRule& rule : kRules)
    if (rule.base == base) {
      if (rule.mapping.memory() && !has_addresses)
        return other("memory instruction recorded without addresses");
      return rule.mapping;
    }
  if (has_addresses) return other("a memory instruction mmsim does not know");
  return other("not a memory instruction");
}

unsigned access_bytes(std::string_view opcode) {
  std::size_t at = opcode.find('.');
  while (at != std::string_view::npos) {
    const std::size_t next = opcode.find('.', at + 1);
    std::string_view token =
        opcode.substr(at + 1, next == std::string_view::npos ? next : next - at - 1);
    if (!token.empty() && (token[0] == 'U' || token[0] == 'S' || token[0] == 'F'))
      token.remove_prefix(1);
    unsigned bits = 0;
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), bits);
    if (error == std::errc() && end == token.data() + token.size() &&
        (bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128))
      return bits / 8;
    at = next;
  }
  return 4;
}

}  // namespace mmsim
