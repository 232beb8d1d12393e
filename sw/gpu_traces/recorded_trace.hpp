// What reading a GPU trace gives (either format): its kernels with their totals, its sites (the
// static instructions: kernel, PC, opcode), the opcodes counted but not run, the words touched,
// and the kept instructions of the selected kernels regrouped per (CTA, warp) on disk.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sw/gpu_traces/compressed_input.hpp"
#include "sw/gpu_traces/opcode_map.hpp"
#include "sw/gpu_traces/touched_granules.hpp"
#include "sw/gpu_traces/trace_format.hpp"
#include "sw/gpu_traces/warp_store.hpp"

namespace mmsim {

// A static instruction of a kernel: where each instruction a warp issues comes from, for
// reports and profiles (docs/gpu_traces.md, "Sites").
struct TraceSite {
  std::uint32_t kernel = 0;
  std::optional<std::uint64_t> pc;           // Accel-Sim records the PC; mem_trace does not
  std::optional<std::uint64_t> source_line;  // Accel-Sim with -enable lineinfo = 1
  std::string opcode;                        // as recorded, with its modifiers
  unsigned bytes = 4;                        // per lane
  bool has_addresses = false;                // the record carries lane addresses
  OpcodeMapping mapping;
};

struct TraceKernel {
  std::uint64_t number = 0;  // 1-based, in the order of the file (or of the kernels list)
  std::string name;
  std::uint64_t launch = 0;              // mem_trace: its grid launch id; Accel-Sim: its kernel id
  SourceLocation where;                  // its LAUNCH line, or its trace file
  std::array<std::uint32_t, 3> grid{};   // 0: not recorded
  std::array<std::uint32_t, 3> block{};  // 0: not recorded
  bool selected = false;
  bool read = false;  // its instructions were read (not an unselected kernel of a list)
  std::uint32_t warps_per_cta = 0;  // K: ceil(threads per block / 32), or the most seen
  std::uint64_t ctas = 0;           // CTAs recorded (selected kernels)
  std::uint64_t first_cta = 0;      // in the WarpStore's table of CTAs
  // Totals of recorded instructions: all, reads/writes/atomics of each memory, barriers,
  // others (not run), and the active lanes of the memory instructions.
  std::uint64_t instructions = 0;
  std::uint64_t global = 0;
  std::uint64_t shared = 0;
  std::uint64_t barriers = 0;
  std::uint64_t other = 0;
  std::uint64_t lanes = 0;
  TouchedGranules shared_words;  // the shared memory words its warps touch (recorded words)
};

// Which kernels run (the program's `kernel` parameter): all, the N-th (from 1), or those of a
// name (the recorded name, or its part before '(').
class KernelSelection {
 public:
  explicit KernelSelection(std::string spec);
  bool matches(std::uint64_t number, std::string_view name) const;
  const std::string& spec() const { return spec_; }

 private:
  std::string spec_;
  std::optional<std::uint64_t> number_;
};

struct RecordedTrace {
  std::filesystem::path file;
  TraceFormat format = TraceFormat::nvbit;
  unsigned word_shift = 2;  // log2(word_bytes)
  // The most text of other lines the readers skip in a row (compressed_input.hpp).
  std::uint64_t skipped_limit = kMaxSkippedBytes;
  std::vector<TraceKernel> kernels;
  std::vector<TraceSite> sites;
  // Instructions of the selected kernels counted but not run, by opcode (without modifiers)
  // and reason.
  std::map<std::pair<std::string, std::string>, std::uint64_t> not_mapped;
  TouchedGranules global_words;  // global memory words the selected kernels touch
  std::unique_ptr<WarpStore> store;
  std::uint64_t lines = 0;          // of the trace file(s)
  std::uint64_t skipped_lines = 0;  // mem_trace: lines that are not its (the program's output)
  Compression compression = Compression::none;
  double read_seconds = 0;
  double decompress_seconds = 0;

  // "kernel 2 (transpose)"
  std::string kernel_label(std::uint32_t kernel) const;
  // "kernel 1 (name), CTA (3,0,0), warp 1, instruction 17 (trace.txt:812)"
  std::string describe(std::uint32_t kernel, const CtaEntry& cta, const WarpEntry& warp,
                       const RecordedInstruction& in) const;
};

// What both readers do with each instruction they read: interns its site, counts it towards its
// kernel's totals and the opcodes not run, collects the words a selected kernel touches, and
// says whether it is kept (run): a memory instruction or a barrier of a selected kernel.
class TraceRecorder {
 public:
  explicit TraceRecorder(RecordedTrace& trace) : trace_(trace) {}

  std::uint32_t site(std::uint32_t kernel, std::optional<std::uint64_t> pc,
                     std::optional<std::uint64_t> source_line, std::string_view opcode,
                     unsigned bytes, bool has_addresses);
  // `in.site`, `in.mask` and `in.address` set.
  bool count(const RecordedInstruction& in);

 private:
  RecordedTrace& trace_;
  std::unordered_map<std::string, std::uint32_t> sites_;
  std::unordered_map<std::uint64_t, std::uint32_t> by_pc_;  // the site a PC had last
  static constexpr std::size_t kRecentSites = 16;
  std::vector<std::uint32_t> recent_;  // the first sites without a PC
  std::string key_;
};

// Whether base + count * step (step signed, as Accel-Sim writes strides and deltas) lies in
// [0, 2^64).
bool stays_in_range(std::uint64_t base, std::int64_t step, std::uint64_t count);

// The first active lane of `in` whose access of `bytes` bytes passes the last byte address,
// 2^64 - 1, or kTraceLanes when none does: words no memory has, which a reader refuses at that
// lane's place in the line with past_end's message.
unsigned lane_past_end(const RecordedInstruction& in, unsigned bytes);
std::string past_end(const RecordedInstruction& in, unsigned lane, unsigned bytes);

}  // namespace mmsim
