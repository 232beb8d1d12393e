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

// The first k of 1 .. count at which base + k * step leaves [0, 2^64) (there is one).
std::uint64_t first_step_outside(std::uint64_t base, std::int64_t step, std::uint64_t count) {
  std::uint64_t k = 1;
  while (k < count && stays_in_range(base, step, k)) ++k;
  return k;
}

// Format 1's addresses: the k-th active lane of `in` at base + k * stride (every lane active:
// lane 0's alone, RecordedInstruction).
void strided_addresses(std::uint64_t base, std::uint64_t stride, RecordedInstruction& in) {
  in.strided = true;
  in.stride = stride;
  if (in.mask == 0xffffffffu) {
    in.address[0] = base;
    return;
  }
  for (std::uint32_t m = in.mask; m != 0; m &= m - 1) {
    in.address[static_cast<unsigned>(std::countr_zero(m))] = base;
    base += stride;
  }
}

// The lines of thread blocks and warps; every other line is an instruction's.
bool block_or_warp_line(std::string_view text) {
  switch (text[0]) {
    case '#':
      return text.starts_with("#BEGIN_TB") || text.starts_with("#END_TB");
    case 't':
      return text.starts_with("thread block");
    case 'c':
      return text.starts_with("cluster");
    case 'w':
      return text.starts_with("warp");
    case 'i':
      return text.starts_with("insts");
    default:
      return false;
  }
}

// The fields of an instruction line as the tracer prints them, read from `at` (which moves past
// the field and the one blank after it, if any): numbers without signs of another form, each
// within what the field-by-field parse takes without a doubt. Each returns false where the text
// is in any other form.
class PrintedFields {
 public:
  explicit PrintedFields(std::string_view text)
      : at_(text.data()), end_(text.data() + text.size()) {}
  bool at_end() const { return at_ == end_; }
  // 1 to 18 decimal digits.
  [[gnu::always_inline]] bool decimal(std::uint64_t& value) {
    const char* first = at_;
    value = 0;
    for (; at_ != end_ && static_cast<unsigned char>(*at_ - '0') < 10; ++at_)
      value = value * 10 + static_cast<unsigned>(*at_ - '0');
    return at_ - first >= 1 && at_ - first <= 18 && next();
  }
  bool signed_decimal(std::int64_t& value) {
    const bool negative = at_ != end_ && *at_ == '-';
    if (negative) ++at_;
    std::uint64_t magnitude = 0;
    if (!decimal(magnitude)) return false;
    value = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
    return true;
  }
  // 1 to 16 hexadecimal digits; after "0x" where `prefixed`.
  [[gnu::always_inline]] bool hex(std::uint64_t& value, bool prefixed) {
    if (prefixed) {
      if (end_ - at_ < 2 || at_[0] != '0' || at_[1] != 'x') return false;
      at_ += 2;
    } else if (end_ - at_ >= 2 && at_[0] == '0' && (at_[1] == 'x' || at_[1] == 'X')) {
      return false;
    }
    const char* first = at_;
    value = 0;
    for (unsigned char d; at_ != end_ && (d = kHexDigits[static_cast<unsigned char>(*at_)]) != 16;
         ++at_)
      value = (value << 4) | d;
    return at_ - first >= 1 && at_ - first <= 16 && next();
  }
  // A count of registers (at most 64), then the registers: R and a number each.
  bool registers() {
    std::uint64_t count = 0;
    if (!decimal(count) || count > 64) return false;
    for (std::uint64_t r = 0; r < count; ++r) {
      if (at_ == end_ || *at_ != 'R') return false;
      const char* first = ++at_;
      while (at_ != end_ && static_cast<unsigned char>(*at_ - '0') < 10) ++at_;
      if (at_ == first || !next()) return false;
    }
    return true;
  }
  // A word that starts with a letter.
  bool opcode(std::string_view& word) {
    const char* first = at_;
    if (at_ == end_ || !((*at_ >= 'A' && *at_ <= 'Z') || (*at_ >= 'a' && *at_ <= 'z')))
      return false;
    while (at_ != end_ && *at_ != ' ' && *at_ != '\t') ++at_;
    word = std::string_view(first, static_cast<std::size_t>(at_ - first));
    return next();
  }

 private:
  // Past the field's one blank; or at the end.
  [[gnu::always_inline]] bool next() {
    if (at_ == end_) return true;
    if (*at_ != ' ') return false;
    ++at_;
    return at_ == end_ || *at_ != ' ';
  }
  const char* at_;
  const char* end_;
};

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
    std::string_view line, text;
    for (std::size_t read = 0; batch.size < kBatchLines && read < kBatchReadLines; ++read) {
      std::string pending;  // the header's last line, read and taken already
      if (pending_) {
        pending = std::move(*pending_);
        pending_.reset();
        line = pending;
        text = without_blanks(line);
        if (text.empty()) continue;
      } else if (lines_.next(line)) {
        text = without_blanks(line);
        if (text.empty()) continue;
        if (text[0] == '#' && !text.starts_with("#BEGIN_TB") && !text.starts_with("#END_TB"))
          continue;  // a comment
        lines_.took();
      } else {
        more = false;
        break;
      }
      if (batch.size == batch.lines.size()) batch.lines.emplace_back();
      AccelsimLine& out = batch.lines[batch.size];
      out.number = lines_.number();
      out.text = static_cast<std::uint32_t>(batch.text.size());
      out.text_bytes = static_cast<std::uint32_t>(text.size());
      batch.text.append(text);
      out.instruction = !block_or_warp_line(text);
      out.error = nullptr;
      if (out.instruction && !printed_instruction(line, text, out)) {
        try {
          instruction(line, text, out);
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

bool AccelsimLines::printed_instruction(std::string_view line, std::string_view text,
                                        AccelsimLine& out) {
  if (form_.version < kFirstVersionWithoutIds || text.data() != line.data()) return false;
  PrintedFields f(text);
  RecordedInstruction& in = out.in;
  std::uint64_t source_line = 0, pc = 0, mask = 0, width = 0, format = 0;
  std::string_view opcode;
  if ((form_.lineinfo && !f.decimal(source_line)) || !f.hex(pc, false) || !f.hex(mask, false) ||
      mask > 0xffffffffu || !f.registers() || !f.opcode(opcode) || !f.registers() ||
      !f.decimal(width) || width > 4096)
    return false;
  const bool has_addresses = width > 0;
  if (has_addresses && opcode[0] == 'U' &&
      (opcode.starts_with("UTMA") || opcode.starts_with("UBLK")))
    return false;  // a bulk copy: its own addresses
  in.mask = static_cast<std::uint32_t>(mask);
  in.strided = false;
  if (has_addresses) {
    if (!f.decimal(format)) return false;
    std::uint64_t a = 0;
    if (format == 0) {
      for (std::uint32_t m = in.mask; m != 0; m &= m - 1)
        if (!f.hex(in.address[static_cast<unsigned>(std::countr_zero(m))], true)) return false;
    } else if (format == 1) {
      std::int64_t stride = 0;
      if (!f.hex(a, true) || !f.signed_decimal(stride)) return false;
      if (!stays_in_range(a, stride, kTraceLanes - 1) && in.mask != 0 &&
          !stays_in_range(a, stride, static_cast<std::uint64_t>(std::popcount(in.mask)) - 1))
        return false;
      strided_addresses(a, static_cast<std::uint64_t>(stride), in);
    } else if (format == 2) {
      if (!f.hex(a, true)) return false;
      bool first_lane = true;
      for (std::uint32_t m = in.mask; m != 0; m &= m - 1) {
        if (!first_lane) {
          std::int64_t delta = 0;
          if (!f.signed_decimal(delta) || !stays_in_range(a, delta, 1)) return false;
          a += static_cast<std::uint64_t>(delta);
        }
        first_lane = false;
        in.address[static_cast<unsigned>(std::countr_zero(m))] = a;
      }
    } else {
      return false;
    }
  }
  std::int64_t immediate = 0;
  if (form_.version >= kFirstVersionWithImmediate && !f.at_end() && !f.signed_decimal(immediate))
    return false;
  if (!f.at_end()) return false;
  out.bytes = has_addresses ? static_cast<unsigned>(width) : 4;
  if (has_addresses && lane_past_end(in, out.bytes) < kTraceLanes) return false;
  out.source_line.reset();
  if (form_.lineinfo) out.source_line = source_line;
  out.pc = pc;
  out.opcode = out.text + static_cast<std::uint32_t>(opcode.data() - text.data());
  out.opcode_bytes = static_cast<std::uint32_t>(opcode.size());
  out.has_addresses = has_addresses;
  in.has_addresses = has_addresses;
  in.line = out.number;
  return true;
}

void AccelsimLines::instruction(std::string_view line, std::string_view text, AccelsimLine& out) {
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
  // The opcode's place in the batch's text, which holds `text`.
  out.opcode = out.text + static_cast<std::uint32_t>(opcode.data() - text.data());
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
      strided_addresses(a, static_cast<std::uint64_t>(signed_stride), in);
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
