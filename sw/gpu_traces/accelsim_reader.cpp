#include "sw/gpu_traces/accelsim_reader.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "sw/gpu_traces/line_fields.hpp"

namespace mmsim {
namespace {

// A block of 1024 threads has 32 warps; a header claiming far more is not a GPU's.
constexpr std::uint32_t kMaxWarpsPerCta = 1024;
// Accel-Sim's tracer writes the thread block and warp in front of every instruction in its
// versions before 3 (its own parser skips them there).
constexpr unsigned kFirstVersionWithoutIds = 3;
// From version 5 on an instruction line ends with its immediate.
constexpr unsigned kFirstVersionWithImmediate = 5;

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

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The value after "key = " of a header or block line.
std::string_view value_of(std::string_view line) {
  const std::size_t eq = line.find('=');
  return eq == std::string_view::npos ? std::string_view{} : trimmed(line.substr(eq + 1));
}

// The warp a .traceg is at.
struct WarpBeingRead {
  std::uint32_t number = 0;
  std::uint64_t expected = 0;  // insts = n
  SourceLocation insts_where;
  WarpEntry entry;
  RecordPosition position;
};

class TraceGReader {
 public:
  TraceGReader(const std::filesystem::path& file, RecordedTrace& trace, TraceRecorder& recorder)
      : lines_(file, "Accel-Sim trace file", kMaxTraceLineBytes, trace.skipped_limit),
        trace_(trace),
        recorder_(recorder) {}

  // Reads the header lines up to the first thread block; the kernel is added to the trace.
  std::uint32_t read_header(std::uint64_t number, const KernelSelection& selection);
  // Reads every thread block of `kernel`.
  void read_blocks(std::uint32_t kernel);
  const TraceLines& lines() const { return lines_; }

 private:
  void begin_warp(std::uint32_t kernel, std::uint32_t q);
  void end_warp();
  void end_block(std::uint32_t kernel);
  void read_instruction(std::uint32_t kernel, std::string_view line);
  [[noreturn]] void fail(const std::string& message) const {
    throw InputError(lines_.where(), message);
  }

  TraceLines lines_;
  RecordedTrace& trace_;
  TraceRecorder& recorder_;
  std::string pending_;  // the first line after the header
  bool has_pending_ = false;
  unsigned version_ = 0;
  bool lineinfo_ = false;
  std::uint32_t warps_ = 0;  // K
  // The thread block being read.
  bool in_block_ = false;
  bool has_id_ = false;
  CtaEntry cta_;
  SourceLocation block_where_;
  std::vector<WarpEntry> block_warps_;
  std::vector<bool> seen_;
  std::optional<WarpBeingRead> warp_;
  RecordedInstruction in_;
  std::array<std::size_t, kTraceLanes> lane_columns_;  // of the line read last, format 0
  std::string encoded_;
};

std::uint32_t TraceGReader::read_header(std::uint64_t number, const KernelSelection& selection) {
  TraceKernel kernel;
  kernel.number = number;
  kernel.where = {lines_.file(), 0, 0};
  kernel.name = "kernel-" + std::to_string(number);
  bool has_block = false;
  bool has_name = false;
  std::string_view line;
  while (lines_.next(line)) {
    const std::string_view text = trimmed(line);
    if (text.empty()) continue;
    if (text[0] != '-') {
      if (text[0] == '#' && !text.starts_with("#BEGIN_TB")) continue;  // "#traces format = ..."
      lines_.took();
      pending_ = std::string(line);
      has_pending_ = true;
      break;
    }
    lines_.took();
    const auto header = [&](std::string_view key) { return text.starts_with(key); };
    const auto number_value = [&](std::string_view what) {
      const std::string_view v = value_of(text);
      std::uint64_t value = 0;
      const auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), value);
      if (v.empty() || error != std::errc() || end != v.data() + v.size())
        fail("expected '" + std::string(what) + " = <integer>', got '" + std::string(text) + "'");
      return value;
    };
    if (header("-kernel name")) {
      kernel.name = std::string(value_of(text));
      has_name = true;
    } else if (header("-kernel id")) {
      kernel.launch = number_value("-kernel id");
    } else if (header("-grid dim") || header("-block dim")) {
      const bool grid = header("-grid dim");
      std::array<std::uint32_t, 3>& size = grid ? kernel.grid : kernel.block;
      if (!parse_triple(value_of(text), size))
        fail(std::string("expected '") + (grid ? "-grid" : "-block") + " dim = (x,y,z)', got '" +
             std::string(text) + "'");
      if (std::find(size.begin(), size.end(), 0u) != size.end())
        fail(
            "'" + std::string(text) + "': a " +
            (grid ? "grid has at least one thread block" : "thread block has at least one thread") +
            " in each dimension");
      has_block = has_block || !grid;
    } else if (header("-accelsim tracer version")) {
      version_ = static_cast<unsigned>(number_value("-accelsim tracer version"));
    } else if (header("-enable lineinfo")) {
      lineinfo_ = number_value("-enable lineinfo") != 0;
    }  // the other header lines (shmem, nregs, versions, base addresses) do not matter here
  }
  if (has_pending_ && !has_name)
    fail(
        "expected the header of an Accel-Sim trace ('-kernel name = ...', '-grid dim = ...', "
        "...), got '" +
        pending_.substr(0, 40) + "'");
  if (!has_pending_ && !has_name)
    fail(
        "the file ends without the header of an Accel-Sim trace ('-kernel name = ...', "
        "'-grid dim = ...', ...): an empty trace?");
  if (has_pending_ && !has_block)
    fail(
        "no '-block dim = (x,y,z)' line before the first thread block: the warps of a block "
        "are not known");
  if (has_block) {
    const std::uint64_t threads =
        std::uint64_t{kernel.block[0]} * kernel.block[1] * kernel.block[2];
    const std::uint64_t warps = (threads + kTraceLanes - 1) / kTraceLanes;
    if (warps == 0 || warps > kMaxWarpsPerCta)
      throw InputError(kernel.where, "-block dim = (" + std::to_string(kernel.block[0]) + "," +
                                         std::to_string(kernel.block[1]) + "," +
                                         std::to_string(kernel.block[2]) + "): expected 1 to " +
                                         std::to_string(kMaxWarpsPerCta * kTraceLanes) +
                                         " threads per block");
    warps_ = static_cast<std::uint32_t>(warps);
  }
  kernel.warps_per_cta = warps_;
  kernel.selected = selection.matches(kernel.number, kernel.name);
  trace_.kernels.push_back(std::move(kernel));
  return static_cast<std::uint32_t>(trace_.kernels.size() - 1);
}

void TraceGReader::begin_warp(std::uint32_t kernel, std::uint32_t q) {
  if (q >= warps_)
    fail("warp " + std::to_string(q) + ": a block of " +
         std::to_string(trace_.kernels[kernel].block[0]) + "x" +
         std::to_string(trace_.kernels[kernel].block[1]) + "x" +
         std::to_string(trace_.kernels[kernel].block[2]) + " threads has " +
         std::to_string(warps_) + " warps");
  if (seen_[q]) fail("warp " + std::to_string(q) + " appears twice in this thread block");
  seen_[q] = true;
  warp_.emplace();
  warp_->number = q;
  warp_->entry.warp = q;
  warp_->entry.offset = trace_.store->data_bytes();
}

void TraceGReader::end_warp() {
  if (!warp_) return;
  WarpBeingRead& w = *warp_;
  if (w.entry.instructions != w.expected)
    throw InputError(w.insts_where, "insts = " + std::to_string(w.expected) + ", but warp " +
                                        std::to_string(w.number) + " has " +
                                        std::to_string(w.entry.instructions) +
                                        " instruction lines");
  w.entry.bytes = trace_.store->data_bytes() - w.entry.offset;
  cta_.max_barriers = std::max(cta_.max_barriers, w.entry.barriers);
  block_warps_[w.number] = w.entry;
  warp_.reset();
}

void TraceGReader::end_block(std::uint32_t kernel) {
  end_warp();
  if (!has_id_)
    throw InputError(block_where_, "a thread block without its 'thread block = x,y,z' line");
  cta_.first_warp = trace_.store->warps();
  cta_.warps = warps_;
  for (std::uint32_t q = 0; q < warps_; ++q) {
    if (!seen_[q]) block_warps_[q].warp = q;
    trace_.store->add_warp(block_warps_[q]);
  }
  trace_.store->add_cta(cta_);
  ++trace_.kernels[kernel].ctas;
  in_block_ = false;
}

void TraceGReader::read_blocks(std::uint32_t kernel) {
  TraceKernel& k = trace_.kernels[kernel];
  k.read = true;
  k.first_cta = trace_.store->ctas();
  std::string_view line;
  bool first = true;
  while (true) {
    if (first && has_pending_) {
      line = pending_;
    } else if (!lines_.next(line)) {
      break;
    }
    first = false;
    const std::string_view text = trimmed(line);
    if (text.empty()) continue;
    if (text[0] == '#' && !text.starts_with("#BEGIN_TB") && !text.starts_with("#END_TB"))
      continue;  // a comment
    lines_.took();
    // Instruction lines start with a (hexadecimal or decimal) number; the others with a word.
    if (kHexDigits[static_cast<unsigned char>(text[0])] != 16 && !text.starts_with("cluster") &&
        in_block_ && warp_ && !warp_->insts_where.file.empty()) {
      read_instruction(kernel, line);
      continue;
    }
    if (text.starts_with("#BEGIN_TB")) {
      if (in_block_) fail("#BEGIN_TB before the #END_TB of the thread block before");
      in_block_ = true;
      has_id_ = false;
      cta_ = CtaEntry{};
      block_where_ = lines_.where();
      block_warps_.assign(warps_, WarpEntry{});
      seen_.assign(warps_, false);
    } else if (text.starts_with("#END_TB")) {
      if (!in_block_) fail("#END_TB without its #BEGIN_TB");
      end_block(kernel);
    } else if (!in_block_) {
      fail("expected #BEGIN_TB, got '" + std::string(text.substr(0, 40)) +
           "' (a raw kernel-N.trace? Accel-Sim's post-traces-processing makes the .traceg)");
    } else if (text.starts_with("thread block")) {
      std::array<std::uint32_t, 3> id{};
      if (!parse_triple(value_of(text), id))
        fail("expected 'thread block = x,y,z', got '" + std::string(text) + "'");
      for (unsigned i = 0; i < 3; ++i) {
        if (k.grid[i] != 0 && id[i] >= k.grid[i])
          fail("thread block (" + std::to_string(id[0]) + "," + std::to_string(id[1]) + "," +
               std::to_string(id[2]) + ") lies outside the grid (" + std::to_string(k.grid[0]) +
               "," + std::to_string(k.grid[1]) + "," + std::to_string(k.grid[2]) + ")");
        cta_.id[i] = id[i];
      }
      has_id_ = true;
    } else if (text.starts_with("cluster")) {
      continue;  // thread block clusters (tracer version 5): not modelled
    } else if (text.starts_with("warp")) {
      end_warp();
      std::uint64_t q = 0;
      const std::string_view v = value_of(text);
      const auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), q);
      if (v.empty() || error != std::errc() || end != v.data() + v.size() || q > kMaxWarpsPerCta)
        fail("expected 'warp = <number>', got '" + std::string(text) + "'");
      begin_warp(kernel, static_cast<std::uint32_t>(q));
    } else if (text.starts_with("insts")) {
      if (!warp_ || warp_->entry.instructions > 0 || !warp_->insts_where.file.empty())
        fail("'insts = n' belongs right after 'warp = q'");
      const std::string_view v = value_of(text);
      const auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), warp_->expected);
      if (v.empty() || error != std::errc() || end != v.data() + v.size())
        fail("expected 'insts = <number>', got '" + std::string(text) + "'");
      warp_->insts_where = lines_.where();
    } else {
      if (!warp_ || warp_->insts_where.file.empty())
        fail("an instruction before 'warp = q' and 'insts = n'");
      read_instruction(kernel, line);
    }
  }
  if (in_block_)
    throw InputError(block_where_,
                     "the file ends inside this thread block (no #END_TB): a truncated trace?");
  if (k.ctas == 0)
    fail(trace_.kernel_label(kernel) +
         ": the file ends without a thread block (#BEGIN_TB ... #END_TB): an empty trace?");
}

void TraceGReader::read_instruction(std::uint32_t kernel, std::string_view line) {
  LineFields f(line, lines_);
  WarpBeingRead& w = *warp_;
  if (version_ < kFirstVersionWithoutIds)
    for (const char* what : {"the thread block's x", "its y", "its z", "the warp"}) f.decimal(what);
  std::optional<std::uint64_t> source_line;
  if (lineinfo_) source_line = f.decimal("the source line (-enable lineinfo = 1)");
  const std::uint64_t pc = f.hex("the PC");
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
  const std::string_view opcode_field = f.next();
  if (opcode_field.empty() || !((opcode_field[0] >= 'A' && opcode_field[0] <= 'Z') ||
                                (opcode_field[0] >= 'a' && opcode_field[0] <= 'z')))
    f.fail("expected an opcode, got " + LineFields::shown(opcode_field));
  const std::string_view opcode = opcode_field;
  registers("the source registers' count");
  const std::uint64_t width = f.decimal("the memory width in bytes");
  if (width > 4096) f.fail("the memory width " + std::to_string(width) + " bytes is not a lane's");
  bool has_addresses = width > 0;
  // Bulk copies (TMA) list their own addresses, not one per lane (opcode_map.cpp).
  const bool bulk = has_addresses && (opcode.starts_with("UTMA") || opcode.starts_with("UBLK"));
  in_.mask = static_cast<std::uint32_t>(mask);
  in_.strided = false;
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
      for (std::uint32_t m = in_.mask; m != 0; m &= m - 1) {
        const auto lane = static_cast<unsigned>(std::countr_zero(m));
        in_.address[lane] = f.hex("a lane's address");
        lane_columns_[lane] = f.column();
      }
    } else if (format == 1) {
      std::uint64_t a = f.hex("the base address");
      base_column = f.column();
      const std::int64_t signed_stride = f.signed_decimal("the stride");
      const auto stride = static_cast<std::uint64_t>(signed_stride);
      in_.strided = true;
      in_.stride = stride;
      // The k-th active lane is at base + k * stride: the last one's decides (first tried as
      // if all 32 were active, which clears almost every line without counting them).
      if (!stays_in_range(a, signed_stride, kTraceLanes - 1) && in_.mask != 0) {
        const auto steps = static_cast<std::uint64_t>(std::popcount(in_.mask)) - 1;
        if (!stays_in_range(a, signed_stride, steps)) {
          std::uint32_t m = in_.mask;
          for (std::uint64_t i = first_step_outside(a, signed_stride, steps); i > 0; --i)
            m &= m - 1;
          wrapped = static_cast<unsigned>(std::countr_zero(m));
        }
      }
      if (in_.mask == 0xffffffffu) {
        for (unsigned lane = 0; lane < kTraceLanes; ++lane) in_.address[lane] = a + lane * stride;
      } else {
        for (std::uint32_t m = in_.mask; m != 0; m &= m - 1) {
          in_.address[static_cast<unsigned>(std::countr_zero(m))] = a;
          a += stride;
        }
      }
    } else if (format == 2) {
      std::uint64_t a = f.hex("the base address");
      base_column = f.column();
      bool first_lane = true;
      for (std::uint32_t m = in_.mask; m != 0; m &= m - 1) {
        const auto lane = static_cast<unsigned>(std::countr_zero(m));
        if (!first_lane) {
          const std::int64_t delta = f.signed_decimal("a lane's delta");
          if (!wrapped && !stays_in_range(a, delta, 1)) wrapped = lane;
          a += static_cast<std::uint64_t>(delta);
        }
        first_lane = false;
        in_.address[lane] = a;
      }
    } else {
      f.fail("the address format is " + std::to_string(format) +
             ": expected 0 (list), 1 (base and stride) or 2 (base and deltas)");
    }
  }
  if (version_ >= kFirstVersionWithImmediate && !bulk && !f.at_end())
    f.signed_decimal("the immediate");
  if (!f.at_end()) {
    const std::string_view extra = f.next();
    f.fail("unexpected " + LineFields::shown(extra) + " at the end of the instruction");
  }
  in_.site = recorder_.site(kernel, pc, source_line, opcode,
                            width > 0 ? static_cast<unsigned>(width) : 4, has_addresses);
  if (wrapped)
    throw InputError(lines_.where(column_of(*wrapped)),
                     "lane " + std::to_string(*wrapped) +
                         "'s address, made from the base address and the lanes' offsets, lies "
                         "below 0 or past 0xffffffffffffffff: no memory has it");
  if (has_addresses)
    if (const unsigned lane = recorder_.lane_past_end(in_); lane < kTraceLanes)
      throw InputError(lines_.where(column_of(lane)), recorder_.past_end(in_, lane));
  in_.has_addresses = has_addresses;
  in_.index = w.entry.instructions;
  in_.line = lines_.number();
  ++w.entry.instructions;
  if (!recorder_.count(in_)) return;
  if (trace_.sites[in_.site].mapping.operation == TraceOperation::barrier) ++w.entry.barriers;
  encoded_.clear();
  encode_record(in_, w.position, encoded_);
  trace_.store->append_records(encoded_);
  ++w.entry.records;
}

}  // namespace

void read_accelsim_trace(const std::filesystem::path& file, const KernelSelection& selection,
                         RecordedTrace& trace) {
  TraceRecorder recorder(trace);
  // A kernels list names .traceg files; a .traceg starts with its header.
  std::vector<std::pair<std::filesystem::path, SourceLocation>> kernels;
  {
    TraceLines list(file, "Accel-Sim trace file", kMaxTraceLineBytes, trace.skipped_limit);
    trace.compression = list.compression();
    std::string_view line;
    bool is_list = false;
    bool blank = true;  // so far
    while (list.next(line)) {
      const std::string_view text = trimmed(line);
      if (text.empty()) continue;
      blank = false;
      if (!is_list && (text[0] == '-' || text[0] == '#')) break;  // a .traceg
      list.took();
      if (text.starts_with("kernel")) {
        is_list = true;
        kernels.emplace_back(file.parent_path() / std::string(text), list.where());
      } else if (text.starts_with("Memcpy")) {
        is_list = true;  // a copy between host and device: nothing for the memory machines
      } else {
        throw InputError(list.where(1),
                         is_list ? "expected a kernel's trace file (kernel-N.traceg) or a "
                                   "MemcpyHtoD line, got '" +
                                       std::string(text.substr(0, 40)) + "'"
                                 : "neither an Accel-Sim trace (starting with '-kernel name = "
                                   "...') nor a kernels list (kernelslist.g)");
      }
    }
    if (blank)
      throw InputError({file.string(), 0, 0},
                       "the file is empty" +
                           std::string(list.number() > 0 ? " (blank lines only)" : "") +
                           ": expected an Accel-Sim trace (a kernel-N.traceg, starting with "
                           "'-kernel name = ...') or a kernels list (kernelslist.g)");
    if (is_list && kernels.empty())
      throw InputError({file.string(), 0, 0},
                       "the kernels list names no kernel (no kernel-N.traceg line)");
    if (!is_list) kernels.emplace_back(file, SourceLocation{});
  }
  std::uint64_t number = 0;
  for (const auto& [path, listed_at] : kernels) {
    try {
      TraceGReader reader(path, trace, recorder);
      const std::uint32_t kernel = reader.read_header(++number, selection);
      if (trace.kernels[kernel].selected) reader.read_blocks(kernel);
      trace.lines += reader.lines().number();
      trace.decompress_seconds += reader.lines().decompress_seconds();
      if (path != file) trace.compression = reader.lines().compression();
    } catch (const InputError& e) {
      if (listed_at.file.empty() || e.where().line > 0) throw;
      // A listed file that cannot be opened: at its line of the list.
      throw InputError(listed_at, path.string() + ": " + e.what());
    }
  }
}

}  // namespace mmsim
