#include "sw/gpu_traces/accelsim_reader.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <string>
#include <vector>

#include "sw/gpu_traces/accelsim_lines.hpp"
#include "sw/gpu_traces/line_fields.hpp"
#include "sw/gpu_traces/read_ahead.hpp"

namespace mmsim {
namespace {

// A block of 1024 threads has 32 warps; a header claiming far more is not a GPU's.
constexpr std::uint32_t kMaxWarpsPerCta = 1024;

// The value after "key = " of a header or block line.
std::string_view value_of(std::string_view line) {
  const std::size_t eq = line.find('=');
  return eq == std::string_view::npos ? std::string_view{} : without_blanks(line.substr(eq + 1));
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
  // Records the instruction `line` (or throws why it could not be parsed).
  void record(std::uint32_t kernel, AccelsimLine& line, std::string_view opcode);
  // Throws `message` at the line being read (the header's) or recorded (the blocks').
  [[noreturn]] void fail(const std::string& message) const {
    throw InputError(recording_ ? recording_->where() : lines_.where(), message);
  }

  TraceLines lines_;
  RecordedTrace& trace_;
  TraceRecorder& recorder_;
  std::string pending_;  // the first line after the header
  bool has_pending_ = false;
  AccelsimForm form_;
  std::optional<TraceLinePlace> recording_;  // the line read_blocks records
  std::uint32_t warps_ = 0;                  // K
  // The thread block being read.
  bool in_block_ = false;
  bool has_id_ = false;
  CtaEntry cta_;
  SourceLocation block_where_;
  std::vector<WarpEntry> block_warps_;
  std::vector<bool> seen_;
  std::optional<WarpBeingRead> warp_;
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
    const std::string_view text = without_blanks(line);
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
      form_.version = static_cast<unsigned>(number_value("-accelsim tracer version"));
    } else if (header("-enable lineinfo")) {
      form_.lineinfo = number_value("-enable lineinfo") != 0;
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
  const std::string& file = lines_.file();
  AccelsimLines lines(lines_, form_,
                      has_pending_ ? std::optional<std::string>(pending_) : std::nullopt);
  std::uint64_t lines_read = lines_.number();
  {
    ReadAhead<AccelsimBatch> batches([&lines](AccelsimBatch& batch) { return lines.fill(batch); },
                                     lines_.regular() && read_ahead_allowed());
    while (AccelsimBatch* batch = batches.next()) {
      for (std::size_t i = 0; i < batch->size; ++i) {
        AccelsimLine& line = batch->lines[i];
        recording_ = TraceLinePlace{&file, line.number};
        const std::string_view text = batch->text_of(line);
        // Instruction lines start with a (hexadecimal or decimal) number; the others with a word.
        if (kHexDigits[static_cast<unsigned char>(text[0])] != 16 && !text.starts_with("cluster") &&
            in_block_ && warp_ && !warp_->insts_where.file.empty()) {
          record(kernel, line, batch->opcode_of(line));
          continue;
        }
        if (text.starts_with("#BEGIN_TB")) {
          if (in_block_) fail("#BEGIN_TB before the #END_TB of the thread block before");
          in_block_ = true;
          has_id_ = false;
          cta_ = CtaEntry{};
          block_where_ = recording_->where();
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
          for (unsigned d = 0; d < 3; ++d) {
            if (k.grid[d] != 0 && id[d] >= k.grid[d])
              fail("thread block (" + std::to_string(id[0]) + "," + std::to_string(id[1]) + "," +
                   std::to_string(id[2]) + ") lies outside the grid (" + std::to_string(k.grid[0]) +
                   "," + std::to_string(k.grid[1]) + "," + std::to_string(k.grid[2]) + ")");
            cta_.id[d] = id[d];
          }
          has_id_ = true;
        } else if (text.starts_with("cluster")) {
          continue;  // thread block clusters (tracer version 5): not modelled
        } else if (text.starts_with("warp")) {
          end_warp();
          std::uint64_t q = 0;
          const std::string_view v = value_of(text);
          const auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), q);
          if (v.empty() || error != std::errc() || end != v.data() + v.size() ||
              q > kMaxWarpsPerCta)
            fail("expected 'warp = <number>', got '" + std::string(text) + "'");
          begin_warp(kernel, static_cast<std::uint32_t>(q));
        } else if (text.starts_with("insts")) {
          if (!warp_ || warp_->entry.instructions > 0 || !warp_->insts_where.file.empty())
            fail("'insts = n' belongs right after 'warp = q'");
          const std::string_view v = value_of(text);
          const auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), warp_->expected);
          if (v.empty() || error != std::errc() || end != v.data() + v.size())
            fail("expected 'insts = <number>', got '" + std::string(text) + "'");
          warp_->insts_where = recording_->where();
        } else {
          if (!warp_ || warp_->insts_where.file.empty())
            fail("an instruction before 'warp = q' and 'insts = n'");
          record(kernel, line, batch->opcode_of(line));
        }
      }
      lines_read = batch->lines_read;
      if (batch->error) std::rethrow_exception(batch->error);
    }
  }
  recording_ = TraceLinePlace{&file, lines_read};
  if (in_block_)
    throw InputError(block_where_,
                     "the file ends inside this thread block (no #END_TB): a truncated trace?");
  if (k.ctas == 0)
    fail(trace_.kernel_label(kernel) +
         ": the file ends without a thread block (#BEGIN_TB ... #END_TB): an empty trace?");
}

void TraceGReader::record(std::uint32_t kernel, AccelsimLine& line, std::string_view opcode) {
  if (line.error) std::rethrow_exception(line.error);
  WarpBeingRead& w = *warp_;
  RecordedInstruction& in = line.in;
  in.site =
      recorder_.site(kernel, line.pc, line.source_line, opcode, line.bytes, line.has_addresses);
  in.index = w.entry.instructions;
  ++w.entry.instructions;
  if (!recorder_.count(in)) return;
  if (trace_.sites[in.site].mapping.operation == TraceOperation::barrier) ++w.entry.barriers;
  encoded_.clear();
  encode_record(in, w.position, encoded_);
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
      const std::string_view text = without_blanks(line);
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
