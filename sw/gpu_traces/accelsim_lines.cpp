#include "sw/gpu_traces/accelsim_lines.hpp"

#include <bit>
#include <climits>

#include "sw/gpu_traces/line_fields.hpp"
#include "sw/gpu_traces/recorded_trace.hpp"

namespace mmsim {
namespace {

// Accel-Sim's tracer writes the thread block and warp in front of every instruction in its
// versions before 3 (its own parser skips them there).
constexpr unsigned kFirstVersionWithoutIds = 3;
// From version 5 on an instruction line ends with its immediate.
constexpr unsigned kFirstVersionWithImmediate = 5;
// A batch: at most this many lines taken, or read (blank lines and comments count), so that a
// batch is filled in about a millisecond and a reader told to stop stops soon.
constexpr std::size_t kBatchLines = 1024;
constexpr std::size_t kBatchReadLines = 16384;

// Whether base + count * step (step signed, as Accel-Sim writes strides and deltas) lies in
// [0, 2^64).
bool stays_in_range(std::uint64_t base, std::int64_t step, std::uint64_t count) {
  std::int64_t offset = 0;
  if (count > INT64_MAX || __builtin_mul_overflow(step, static_cast<std::int64_t>(count), &offset))
    return false;
  std::uint64_t end = 0;
  return offset >= 0 ? !__builtin_add_overflow(base, static_cast<std::uint64_t>(offset), &end)
                     : base >= std::uint64_t{0} - static_cast<std::uint64_t>(offset);
}

// The first k of 1 .. count at which base + k * step leaves [0, 2^64) (there is one).
std::uint64_t first_step_outside(std::uint64_t base, std::int64_t step, std::uint64_t count) {
  std::uint64_t k = 1;
  while (k < count && stays_in_range(base, step, k)) ++k;
  return k;
}

// The lines of thread blocks and warps; every other line is an instruction's.
bool block_or_warp_line(std::string_view text) {
  return text.starts_with("#BEGIN_TB") || text.starts_with("#END_TB") ||
         text.starts_with("thread block") || text.starts_with("cluster") ||
         text.starts_with("warp") || text.starts_with("insts");
}

}  // namespace

std::string_view without_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

AccelsimLines::AccelsimLines(TraceLines& lines, AccelsimForm form,
                             std::optional<std::string> pending)
    : lines_(lines), form_(form), pending_(std::move(pending)) {}

bool AccelsimLines::fill(AccelsimBatch& batch) {
  batch.size = 0;
  batch.text.clear();
  batch.error = nullptr;
  bool more = true;
  try {
    std::string_view line;
    for (std::size_t read = 0; batch.size < kBatchLines && read < kBatchReadLines; ++read) {
      std::string pending;  // the header's last line, read and taken already
      if (pending_) {
        pending = std::move(*pending_);
        pending_.reset();
        line = pending;
      } else if (lines_.next(line)) {
        const std::string_view text = without_blanks(line);
        if (text.empty()) continue;
        if (text[0] == '#' && !text.starts_with("#BEGIN_TB") && !text.starts_with("#END_TB"))
          continue;  // a comment
        lines_.took();
      } else {
        more = false;
        break;
      }
      const std::string_view text = without_blanks(line);
      if (text.empty()) continue;
      if (batch.size == batch.lines.size()) batch.lines.emplace_back();
      AccelsimLine& out = batch.lines[batch.size];
      out.number = lines_.number();
      out.text = static_cast<std::uint32_t>(batch.text.size());
      out.text_bytes = static_cast<std::uint32_t>(text.size());
      batch.text.append(text);
      out.instruction = !block_or_warp_line(text);
      out.error = nullptr;
      if (out.instruction) {
        try {
          instruction(line, out);
        } catch (...) {
          out.error = std::current_exception();
          ++batch.size;
          more = false;
          break;
        }
      }
      ++batch.size;
    }
  } catch (...) {
    batch.error = std::current_exception();
    more = false;
  }
  batch.lines_read = lines_.number();
  return more;
}

void AccelsimLines::instruction(std::string_view line, AccelsimLine& out) {
  LineFields f(line, lines_.place());
  RecordedInstruction& in = out.in;
  if (form_.version < kFirstVersionWithoutIds)
    for (const char* what : {"the thread block's x", "its y", "its z", "the warp"}) f.decimal(what);
  out.source_line.reset();
  if (form_.lineinfo) out.source_line = f.decimal("the source line (-enable lineinfo = 1)");
  out.pc = f.hex("the PC");
  const std::uint64_t mask = f.hex("the active mask");
  if (mask > 0xffffffffu)
    f.fail("the active mask " + LineFields::shown(line.substr(f.column() - 1, 16)) +
           " has more than 32 lanes: a trace for another warp width (Accel-Sim and mmsim read "
           "warps of 32 threads)");
  const auto registers = [&f](const char* what) {
    const std::uint64_t count = f.decimal(what);
    if (count > 64) f.fail(std::string(what) + " is " + std::to_string(count));
    for (std::uint64_t r = 0; r < count; ++r) f.register_name();
  };
  registers("the destination registers' count");
  const std::string_view opcode = f.next();
  if (opcode.empty() ||
      !((opcode[0] >= 'A' && opcode[0] <= 'Z') || (opcode[0] >= 'a' && opcode[0] <= 'z')))
    f.fail("expected an opcode, got " + LineFields::shown(opcode));
  // The opcode's place in the batch's text, which holds the line without its leading blanks.
  out.opcode = out.text + static_cast<std::uint32_t>(opcode.data() - without_blanks(line).data());
  out.opcode_bytes = static_cast<std::uint32_t>(opcode.size());
  registers("the source registers' count");
  const std::uint64_t width = f.decimal("the memory width in bytes");
  if (width > 4096) f.fail("the memory width " + std::to_string(width) + " bytes is not a lane's");
  out.bytes = width > 0 ? static_cast<unsigned>(width) : 4;
  bool has_addresses = width > 0;
  // Bulk copies (TMA) list their own addresses, not one per lane (opcode_map.cpp).
  const bool bulk = has_addresses && (opcode.starts_with("UTMA") || opcode.starts_with("UBLK"));
  in.mask = static_cast<std::uint32_t>(mask);
  in.strided = false;
  // Where a lane's address is written, to locate an address past 2^64: its own field (format
  // 0, lane_columns_), or the base address that it is made from (formats 1 and 2).
  bool listed = false;
  std::size_t base_column = 0;
  const auto column_of = [&](unsigned lane) { return listed ? lane_columns_[lane] : base_column; };
  // Formats 1 and 2: the first lane whose address the base and the stride or deltas take below 0
  // or past 2^64 - 1.
  std::optional<unsigned> wrapped;
  if (bulk) {
    has_addresses = false;  // its own address list, not one per lane: not read
    while (!f.at_end()) f.next();
  } else if (has_addresses) {
    const std::uint64_t format = f.decimal("the address format (0, 1 or 2)");
    if (format == 0) {
      listed = true;
      for (std::uint32_t m = in.mask; m != 0; m &= m - 1) {
        const auto lane = static_cast<unsigned>(std::countr_zero(m));
        in.address[lane] = f.hex("a lane's address");
        lane_columns_[lane] = f.column();
      }
    } else if (format == 1) {
      std::uint64_t a = f.hex("the base address");
      base_column = f.column();
      const std::int64_t signed_stride = f.signed_decimal("the stride");
      const auto stride = static_cast<std::uint64_t>(signed_stride);
      in.strided = true;
      in.stride = stride;
      // The k-th active lane is at base + k * stride: the last one's decides (first tried as
      // if all 32 were active, which clears almost every line without counting them).
      if (!stays_in_range(a, signed_stride, kTraceLanes - 1) && in.mask != 0) {
        const auto steps = static_cast<std::uint64_t>(std::popcount(in.mask)) - 1;
        if (!stays_in_range(a, signed_stride, steps)) {
          std::uint32_t m = in.mask;
          for (std::uint64_t i = first_step_outside(a, signed_stride, steps); i > 0; --i)
            m &= m - 1;
          wrapped = static_cast<unsigned>(std::countr_zero(m));
        }
      }
      if (in.mask == 0xffffffffu) {
        for (unsigned lane = 0; lane < kTraceLanes; ++lane) in.address[lane] = a + lane * stride;
      } else {
        for (std::uint32_t m = in.mask; m != 0; m &= m - 1) {
          in.address[static_cast<unsigned>(std::countr_zero(m))] = a;
          a += stride;
        }
      }
    } else if (format == 2) {
      std::uint64_t a = f.hex("the base address");
      base_column = f.column();
      bool first_lane = true;
      for (std::uint32_t m = in.mask; m != 0; m &= m - 1) {
        const auto lane = static_cast<unsigned>(std::countr_zero(m));
        if (!first_lane) {
          const std::int64_t delta = f.signed_decimal("a lane's delta");
          if (!wrapped && !stays_in_range(a, delta, 1)) wrapped = lane;
          a += static_cast<std::uint64_t>(delta);
        }
        first_lane = false;
        in.address[lane] = a;
      }
    } else {
      f.fail("the address format is " + std::to_string(format) +
             ": expected 0 (list), 1 (base and stride) or 2 (base and deltas)");
    }
  }
  if (form_.version >= kFirstVersionWithImmediate && !bulk && !f.at_end())
    f.signed_decimal("the immediate");
  if (!f.at_end()) {
    const std::string_view extra = f.next();
    f.fail("unexpected " + LineFields::shown(extra) + " at the end of the instruction");
  }
  if (wrapped)
    throw InputError(lines_.where(column_of(*wrapped)),
                     "lane " + std::to_string(*wrapped) +
                         "'s address, made from the base address and the lanes' offsets, lies "
                         "below 0 or past 0xffffffffffffffff: no memory has it");
  if (has_addresses)
    if (const unsigned lane = lane_past_end(in, out.bytes); lane < kTraceLanes)
      throw InputError(lines_.where(column_of(lane)), past_end(in, lane, out.bytes));
  out.has_addresses = has_addresses;
  in.has_addresses = has_addresses;
  in.line = out.number;
}

}  // namespace mmsim
