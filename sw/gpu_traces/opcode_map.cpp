#include "sw/gpu_traces/opcode_map.hpp"

#include <charconv>

namespace mmsim {
namespace {

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

// What each opcode (without its modifiers) maps to: the opcodes of a mapping, separated by
// spaces. Generic LD, ST and ATOM go to global memory (docs/gpu_traces.md says why).
struct OpcodeRule {
  std::string_view bases;
  OpcodeMapping mapping;
};
constexpr OpcodeRule kRules[] = {
    {"LDG LD", read(Space::global)},
    {"STG ST", write(Space::global)},
    {"ATOMG ATOM RED", atomic(Space::global)},
    {"LDS LDSM", read(Space::shared)},
    {"STS", write(Space::shared)},
    {"ATOMS", atomic(Space::shared)},
    {"LDL STL", other(kLocal)},
    {"LDC ULDC", other(kConstant)},
    {"TEX TLD TLD4 TXD TXQ TMML SULD SUST SURED SUATOM", other(kTexture)},
    {"UTMALDG UTMASTG UTMAPF UTMAREDG UBLKCP UBLKPF UBLKRED", other(kBulk)},
    {"MEMBAR FENCE CCTL CCTLL ERRBAR DEPBAR LDGDEPBAR", other(kFence)},
};

// Whether f(part) holds for one of the parts of `text` between `separator`s, in order.
template <class F>
bool any_part(std::string_view text, char separator, F f) {
  for (std::size_t at = 0;;) {
    const std::size_t end = text.find(separator, at);
    if (f(text.substr(at, end == std::string_view::npos ? end : end - at))) return true;
    if (end == std::string_view::npos) return false;
    at = end + 1;
  }
}

// Whether f(modifier) holds for one of the opcode's modifiers (after its base, between dots).
template <class F>
bool any_modifier(std::string_view opcode, F f) {
  const std::size_t dot = opcode.find('.');
  return dot != std::string_view::npos && any_part(opcode.substr(dot + 1), '.', f);
}

bool has_modifier(std::string_view opcode, std::string_view modifier) {
  return any_modifier(opcode, [modifier](std::string_view m) { return m == modifier; });
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
    if (any_part(rule.bases, ' ', [base](std::string_view b) { return b == base; })) {
      if (rule.mapping.memory() && !has_addresses)
        return other("memory instruction recorded without addresses");
      return rule.mapping;
    }
  if (has_addresses) return other("a memory instruction mmsim does not know");
  return other("not a memory instruction");
}

unsigned access_bytes(std::string_view opcode) {
  unsigned bytes = 4;
  any_modifier(opcode, [&bytes](std::string_view token) {
    if (!token.empty() && (token[0] == 'U' || token[0] == 'S' || token[0] == 'F'))
      token.remove_prefix(1);
    unsigned bits = 0;
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), bits);
    if (error != std::errc() || end != token.data() + token.size() ||
        (bits != 8 && bits != 16 && bits != 32 && bits != 64 && bits != 128))
      return false;
    bytes = bits / 8;
    return true;
  });
  return bytes;
}

}  // namespace mmsim
