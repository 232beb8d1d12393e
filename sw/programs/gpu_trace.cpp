#include "sw/programs/gpu_trace.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/support/errors.hpp"
#include "sw/gpu_traces/lane_words.hpp"
#include "sw/gpu_traces/trace_readers.hpp"

namespace mmsim {
namespace {

std::string triple(const std::array<std::uint32_t, 3>& v) {
  if (v[0] == 0) return "-";
  return std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]);
}

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

// A relocation's ranges as table rows: the first few and the last, and how many between.
void relocation_rows(ProgramTable& table, const std::string& memory,
                     const AddressRelocation& relocation, unsigned word_shift) {
  constexpr std::size_t kShown = 6;
  const auto& ranges = relocation.ranges();
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    if (ranges.size() > kShown + 1 && i == kShown) {
      std::string more = std::to_string(ranges.size() - kShown - 1);
      more.insert(0, 1, '(');  // built in place: GCC 12 warns (-Wrestrict) on "(" + string
      more += " ranges more)";
      std::uint64_t words = 0;
      for (; i + 1 < ranges.size(); ++i) words += ranges[i].to - ranges[i].from;
      table.rows.push_back({memory, more, "", words});
    }
    const AddressRelocation::Range& r = ranges[i];
    table.rows.push_back(
        {memory, hex(r.from << word_shift) + " .. " + hex((r.to << word_shift) - 1),
         std::to_string(r.target) + " .. " + std::to_string(r.target + (r.to - r.from) - 1),
         r.to - r.from});
  }
}

}  // namespace

GpuTraceProgram::GpuTraceProgram(const std::filesystem::path& file, const Options& options)
    : options_(options),
      trace_(read_recorded_trace(file, options.format, KernelSelection(options.kernel),
                                 options.word_shift)),
      file_name_(file.filename().string()) {
  // A site's line would be read as a line of the trace: the CUDA source line goes in the label.
  site_labels_.reserve(trace_.sites.size());
  for (const TraceSite& site : trace_.sites)
    site_labels_.push_back(
        "kernel " + std::to_string(trace_.kernels[site.kernel].number) +
        (site.pc ? " PC " + hex(*site.pc) : "") + " " + site.opcode +
        (site.source_line ? " (source line " + std::to_string(*site.source_line) + ")" : ""));
  instruction_sites_.reserve(trace_.sites.size());
  for (const std::string& label : site_labels_)
    instruction_sites_.push_back(Site{file_name_, 0, label});
}

std::string GpuTraceProgram::where(const TraceOrigin& origin) const {
  const TraceKernel& k = trace_.kernels[origin.kernel];
  const CtaEntry cta = trace_.store->cta(k.first_cta + origin.cta);
  WarpEntry warp = trace_.store->warp(cta.first_warp + origin.warp);
  RecordedInstruction in;
  in.index = origin.instruction;
  in.line = origin.line;
  return trace_.describe(origin.kernel, cta, warp, in);
}

std::uint64_t GpuTraceProgram::default_threads(const MachineConfig& machine) const {
  // One CTA of the largest kernel per block at a time.
  std::uint64_t warps = 1;
  for (const TraceKernel& k : trace_.kernels)
    if (k.selected) warps = std::max<std::uint64_t>(warps, k.warps_per_cta);
  const std::uint64_t s = machine.super_warp;
  warps = (warps + s - 1) / s * s;
  return warps * machine.width * machine.multiprocessors;
}

void GpuTraceProgram::configure(const MachineConfig& machine) {
  const MachineModel& model = machine_model(machine);
  hierarchical_ = model.hierarchical;
  width_ = machine.width;
  if (hierarchical_ && machine.super_warp != 1)
    throw ConfigError("super_warp",
                      "gpu_trace on the hierarchical machine dispatches single warps (the warps "
                      "of a super warp would send one step to different memories); leave "
                      "super_warp out");
  const std::uint64_t block_warps = machine.block_warps();
  const unsigned blocks = hierarchical_ ? machine.multiprocessors : 1;
  global_ = AddressRelocation(trace_.global_words,
                              relocation_unit(machine.width, machine.global_words_per_group()), 0);
  const std::uint64_t shared_unit = relocation_unit(machine.width, machine.width);
  runs_.clear();
  std::uint64_t shared_needed = 0;  // per block
  for (std::uint32_t i = 0; i < trace_.kernels.size(); ++i) {
    const TraceKernel& k = trace_.kernels[i];
    if (!k.selected) continue;
    const std::uint32_t warps = std::max<std::uint32_t>(k.warps_per_cta, 1);
    if (warps > block_warps)
      throw ConfigError(
          "threads", trace_.kernel_label(i) + " runs CTAs of " + std::to_string(warps) +
                         " warps, and a CTA's warps run side by side: " +
                         (hierarchical_ ? "an SM" : "the machine") + " has " +
                         std::to_string(block_warps) + " (p = " + std::to_string(machine.threads) +
                         "); threads must be at least " +
                         std::to_string(std::uint64_t{warps} * machine.width * blocks));
    std::vector<std::uint64_t> linear_ids;
    if (options_.placement == CtaPlacement::cta_id) {
      if (k.grid[0] == 0)
        throw ParamError("sm", "sm: cta_id needs each kernel's grid size, which " +
                                   trace_.kernel_label(i) + " does not record");
      for (std::uint64_t c = 0; c < k.ctas; ++c) {
        const CtaEntry cta = trace_.store->cta(k.first_cta + c);
        linear_ids.push_back(cta.id[0] + std::uint64_t{k.grid[0]} *
                                             (cta.id[1] + std::uint64_t{k.grid[1]} * cta.id[2]));
      }
    }
    KernelRun run{
        i, warps, CtaSchedule(k.ctas, warps, blocks, block_warps, options_.placement, linear_ids),
        AddressRelocation(k.shared_words, shared_unit, 0),
        std::vector<std::pair<std::uint64_t, std::uint32_t>>(blocks, {~std::uint64_t{0}, 0})};
    shared_needed = std::max(shared_needed, run.schedule.slots() * run.shared.words());
    runs_.push_back(std::move(run));
  }
  if (hierarchical_) {
    memory_words_ = std::max<std::uint64_t>(global_.words(), 1);
    shared_words_ = shared_needed;
  } else {
    flat_shared_base_ = global_.words();
    memory_words_ = std::max<std::uint64_t>(
        global_.words() + (options_.shared == FlatShared::global ? shared_needed : 0), 1);
    shared_words_ = 0;
  }
  if (memory_words_ > kMaxMemoryWords || shared_words_ > kMaxMemoryWords)
    throw ParamError("file", "the trace touches " +
                                 std::to_string(std::max(memory_words_, shared_words_)) +
                                 " words once relocated: more than a memory's 2^32 (docs/"
                                 "gpu_traces.md: a larger word_bytes, or one kernel)");
  origins_.assign(machine.warps(), TraceOrigin{});
  // Each warp reads its records through a buffer of its own: 4 to 64 KiB, 32 MiB in all.
  cursor_bytes_ = static_cast<std::size_t>(std::clamp<std::uint64_t>(
      (std::uint64_t{32} << 20) / std::max<std::uint64_t>(machine.warps(), 1), 4096, 65536));
}

std::uint64_t GpuTraceProgram::host_bytes() const {
  // Per warp its origin, cursor buffer and word layout; the store's cached blocks; the
  // relocations; what reading kept.
  std::uint64_t bytes = origins_.size() * (sizeof(TraceOrigin) + cursor_bytes_ + 2048) +
                        WarpStore::cache_bytes();
  bytes += global_.ranges().size() * sizeof(AddressRelocation::Range) + trace_.global_words.bytes();
  for (const KernelRun& k : runs_)
    bytes += k.shared.ranges().size() * sizeof(AddressRelocation::Range) +
             trace_.kernels[k.kernel].shared_words.bytes();
  return bytes + trace_.sites.size() * (sizeof(TraceSite) + 32);
}

std::vector<std::filesystem::path> GpuTraceProgram::input_files() const {
  std::vector<std::filesystem::path> files = {trace_.file};
  for (const TraceKernel& k : trace_.kernels)
    if (!k.where.file.empty() && k.where.file != files.back()) files.emplace_back(k.where.file);
  return files;
}

std::uint32_t GpuTraceProgram::barriers_of_round(const KernelRun& k, unsigned block,
                                                 std::uint64_t round) const {
  auto& [cached_round, barriers] = k.round_barriers[block];
  if (cached_round != round) {
    cached_round = round;
    barriers = 0;
    const TraceKernel& kernel = trace_.kernels[k.kernel];
    for (std::uint64_t s = 0; s < k.schedule.slots(); ++s)
      if (const auto cta = k.schedule.cta({block, s, 0}, round))
        barriers = std::max(barriers, trace_.store->cta(kernel.first_cta + *cta).max_barriers);
  }
  return barriers;
}

Task GpuTraceProgram::run(Warp& warp) {
  const WarpId me = warp.index();
  WarpCursor cursor(cursor_bytes_);
  LaneWords words(options_.word_shift, width_);
  RecordedInstruction in;
  const WarpStore& store = *trace_.store;
  bool first_kernel = true;
  for (const KernelRun& k : runs_) {
    if (!first_kernel) co_await warp.grid_sync();  // the next kernel starts when this one ended
    first_kernel = false;
    const std::optional<CtaSchedule::Slot> slot = k.schedule.slot_of(me);
    if (!slot) continue;
    const TraceKernel& kernel = trace_.kernels[k.kernel];
    // A CTA of one warp waits for nobody; the warps of a larger one keep together through the
    // block's barrier (docs/gpu_traces.md, "CTAs on the machine").
    const bool together = k.warps_per_cta > 1;
    const std::uint64_t shared_offset =
        (hierarchical_ ? 0 : flat_shared_base_) + slot->slot * k.shared.words();
    for (std::uint64_t round = 0;; ++round) {
      const std::optional<std::uint64_t> cta_index = k.schedule.cta(*slot, round);
      if (!cta_index) break;
      if (together && round > 0) co_await warp.sync();  // the CTAs of the round before ended
      std::uint32_t barriers_left = together ? barriers_of_round(k, slot->block, round) : 0;
      const CtaEntry cta = store.cta(kernel.first_cta + *cta_index);
      if (slot->warp < cta.warps) {
        cursor.open(store, store.warp(cta.first_warp + slot->warp));
        while (cursor.next(in)) {
          const TraceSite& site = trace_.sites[in.site];
          const Site& issued_at = instruction_sites_[in.site];
          origins_[me] = {in.site, k.kernel, *cta_index, slot->warp, in.index, in.line};
          const OpcodeMapping& mapping = site.mapping;
          if (mapping.operation == TraceOperation::barrier) {
            if (together) {
              --barriers_left;
              co_await warp.sync(issued_at);
            }
            continue;
          }
          const bool shared = mapping.space == Space::shared;
          if (shared && !hierarchical_ && options_.shared == FlatShared::drop) continue;
          const unsigned n = shared ? words.layout(in, site.bytes, k.shared, shared_offset)
                                    : words.layout(in, site.bytes, global_, 0);
          const Space space = shared && hierarchical_ ? Space::shared : Space::global;
          // Else a write, or an atomic (a read-modify-write: one access of the word).
          const bool read = mapping.operation == TraceOperation::read;
          if (const Address run = words.run(); run != kInactive) {  // taken whole by the MMU
            if (read)
              co_await warp.read(LaneRun{run}, space, issued_at);
            else
              co_await warp.write(LaneRun{run}, space, issued_at);
            continue;
          }
          for (unsigned i = 0; i < n; ++i) {
            if (!words.active(i)) continue;
            if (read)
              co_await warp.read(words.instruction(i), space, issued_at);
            else
              co_await warp.write(words.instruction(i), space, issued_at);
          }
        }
      }
      while (barriers_left > 0) {  // as many barriers as the round's other warps pass
        --barriers_left;
        co_await warp.sync();
      }
    }
  }
}

std::vector<ProgramFigure> GpuTraceProgram::figures() const {
  std::uint64_t recorded = 0, memory = 0, barriers = 0, other = 0, shared = 0;
  for (const KernelRun& k : runs_) {
    const TraceKernel& kernel = trace_.kernels[k.kernel];
    recorded += kernel.instructions;
    memory += kernel.global + kernel.shared;
    barriers += kernel.barriers;
    other += kernel.other;
    shared += kernel.shared;
  }
  const std::uint64_t dropped = !hierarchical_ && options_.shared == FlatShared::drop ? shared : 0;
  const auto count = [](std::uint64_t v) { return static_cast<double>(v); };
  return {
      {"trace_instructions", "recorded warp instructions of the kernels run", count(recorded), ""},
      {"trace_memory", "of them memory instructions run", count(memory - dropped), ""},
      {"trace_barriers", "of them barriers", count(barriers), ""},
      {"trace_not_run", "of them not run: see 'instructions counted but not run'",
       count(other + dropped), ""},
      {"read_seconds", "reading the trace, before the run", trace_.read_seconds, "s"},
      {"decompress_seconds",
       "of which reading and decompressing the file (" +
           std::string(to_string(trace_.compression)) + ")",
       trace_.decompress_seconds, "s"},
  };
}

std::vector<ProgramTable> GpuTraceProgram::tables() const {
  std::vector<ProgramTable> out;
  ProgramTable kernels{"trace_kernels",
                       "kernels of " + trace_.file.filename().string() + " (" +
                           std::string(to_string(trace_.format)) + ")",
                       {"#", "kernel", "grid", "block", "CTAs", "instructions", "global", "shared",
                        "barriers", "not run", "lanes", "run"},
                       {},
                       {}};
  for (const TraceKernel& k : trace_.kernels) {
    const auto count = [&k](std::uint64_t v) -> ProgramTable::Cell {
      if (!k.read) return std::string("-");
      return v;
    };
    kernels.rows.push_back({k.number, k.name, triple(k.grid), triple(k.block),
                            k.selected ? ProgramTable::Cell(k.ctas) : ProgramTable::Cell("-"),
                            count(k.instructions), count(k.global), count(k.shared),
                            count(k.barriers), count(k.other), count(k.lanes),
                            std::string(k.selected ? "yes" : "no")});
  }
  kernels.notes.push_back(
      "instructions: recorded; global, shared: memory instructions of "
      "each; lanes: their active lanes; run: kernel: " +
      options_.kernel);
  if (trace_.skipped_lines > 0)
    kernels.notes.push_back(std::to_string(trace_.skipped_lines) +
                            " lines that are not mem_trace's (the program's output) skipped");
  out.push_back(std::move(kernels));

  ProgramTable not_run{"trace_not_run",
                       "instructions counted but not run",
                       {"opcode", "instructions", "why"},
                       {},
                       {}};
  for (const auto& [key, count] : trace_.not_mapped)
    not_run.rows.push_back({key.first, count, key.second});
  if (!hierarchical_ && options_.shared == FlatShared::drop) {
    std::uint64_t shared = 0;
    for (const KernelRun& k : runs_) shared += trace_.kernels[k.kernel].shared;
    if (shared > 0)
      not_run.rows.push_back({"LDS, STS, ATOMS, ...", shared,
                              "shared memory on a flat machine (parameter shared: drop)"});
  }
  if (not_run.rows.empty()) not_run.notes.push_back("none: every instruction ran");
  out.push_back(std::move(not_run));

  ProgramTable relocation{
      "trace_relocation",
      "addresses relocated (word_bytes " + std::to_string(1u << options_.word_shift) + ")",
      {"memory", "recorded bytes", "words", "size"},
      {},
      {}};
  relocation_rows(relocation, "global", global_, options_.word_shift);
  for (const KernelRun& k : runs_)
    if (!k.shared.ranges().empty())
      relocation_rows(relocation,
                      "shared (kernel " + std::to_string(trace_.kernels[k.kernel].number) + ")",
                      k.shared, options_.word_shift);
  relocation.notes.push_back("global memory: " + std::to_string(global_.words()) + " words in " +
                             std::to_string(global_.ranges().size()) + " ranges");
  for (const KernelRun& k : runs_)
    if (k.shared.words() > 0 && (hierarchical_ || options_.shared == FlatShared::global))
      relocation.notes.push_back(
          "shared memory of kernel " + std::to_string(trace_.kernels[k.kernel].number) +
          ": a window of " + std::to_string(k.shared.words()) + " words per CTA, " +
          std::to_string(k.schedule.slots()) + " per block at a time" +
          (hierarchical_ ? "" : ", from word " + std::to_string(flat_shared_base_)));
  relocation.notes.push_back("host memory: 8 bytes per word of the machine's memories");
  out.push_back(std::move(relocation));

  ProgramTable placement{
      "trace_placement",
      "CTAs on the machine",
      {"kernel", "CTAs", "warps per CTA", "CTAs per block G", "rounds", "barriers"},
      {},
      {}};
  for (const KernelRun& k : runs_) {
    std::uint64_t rounds = 0;
    for (unsigned b = 0; b < k.round_barriers.size(); ++b)
      rounds = std::max(rounds, k.schedule.rounds(b));
    const TraceKernel& kernel = trace_.kernels[k.kernel];
    placement.rows.push_back(
        {kernel.number, kernel.ctas, std::uint64_t{k.warps_per_cta}, k.schedule.slots(), rounds,
         std::string(k.warps_per_cta > 1 ? "syncthreads" : "none (one warp)")});
  }
  placement.notes.push_back(
      std::string("CTAs to ") + (hierarchical_ ? "SMs " : "the machine (one block) ") +
      (options_.placement == CtaPlacement::round_robin ? "round robin in recorded order"
                                                       : "by CTA id") +
      "; a block's j-th CTA on slot j mod G, round j div G");
  placement.notes.push_back(
      "a CTA of several warps passes its BARs and the end of its round as the block's "
      "syncthreads; one of one warp waits for nobody");
  out.push_back(std::move(placement));
  return out;
}

ProgramInfo gpu_trace_program() {
  return {
      "gpu_trace",
      "runs a memory trace recorded from a CUDA program (NVBit mem_trace or Accel-Sim): its "
      "memory instructions, barriers and CTAs on the machine",
      "docs/gpu_traces.md",
      {
          {"file", ParamType::string,
           "the trace, relative to the testbench: mem_trace output, an Accel-Sim .traceg or "
           "kernelslist.g; plain, .gz, .xz or .zst",
           std::nullopt},
          {"format", ParamType::string, "nvbit (mem_trace) or accelsim", std::nullopt},
          {"kernel", ParamType::string,
           "all, a kernel's number (from 1, in file order) or its name", "all"},
          {"word_bytes", ParamType::integer, "bytes per memory word (a power of two)", "4"},
          {"shared", ParamType::string,
           "flat machines: drop shared-memory instructions, or run them on the one memory "
           "(global)",
           "drop"},
          {"sm", ParamType::string,
           "CTAs to blocks (SMs): round_robin in recorded order, or by cta_id", "round_robin"},
      },
      [](const ProgramArgs& args) -> std::unique_ptr<WarpProgram> {
        GpuTraceProgram::Options options;
        const std::string& format = args.params.string("format");
        if (format == "nvbit")
          options.format = TraceFormat::nvbit;
        else if (format == "accelsim")
          options.format = TraceFormat::accelsim;
        else
          throw ParamError("format", "format: expected nvbit or accelsim, got '" + format + "'");
        options.kernel = args.params.string("kernel");
        const std::int64_t word_bytes = args.params.integer("word_bytes");
        if (word_bytes < 1 || word_bytes > 4096 ||
            !std::has_single_bit(static_cast<std::uint64_t>(word_bytes)))
          throw ParamError("word_bytes",
                           "word_bytes: expected a power of two from 1 to 4096, "
                           "got " +
                               std::to_string(word_bytes));
        options.word_shift =
            static_cast<unsigned>(std::countr_zero(static_cast<std::uint64_t>(word_bytes)));
        const std::string& shared = args.params.string("shared");
        if (shared == "drop")
          options.shared = FlatShared::drop;
        else if (shared == "global")
          options.shared = FlatShared::global;
        else
          throw ParamError("shared", "shared: expected drop or global, got '" + shared + "'");
        const std::string& sm = args.params.string("sm");
        const std::optional<CtaPlacement> placement = cta_placement(sm);
        if (!placement)
          throw ParamError("sm", "sm: expected round_robin or cta_id, got '" + sm + "'");
        options.placement = *placement;
        const std::string& file = args.params.string("file");
        if (file.empty()) throw ParamError("file", "file: the trace to run");
        return std::make_unique<GpuTraceProgram>(args.base_dir / file, options);
      },
  };
}

}  // namespace mmsim

namespace mmsim {
namespace {

// Sites listed per PC in the report; the statistics' profile has them all.
constexpr std::size_t kShownPcs = 32;

std::vector<ProgramTable::Cell> count_cells(const SiteCounts& c) {
  const std::string mean = c.dispatches == 0
                               ? "-"
                               : fmt::format("{:.2f}", static_cast<double>(c.stages) /
                                                           static_cast<double>(c.dispatches));
  return {c.instructions + c.barriers,
          c.requests,
          c.stages,
          c.max_stages,
          mean,
          c.turn_wait,
          c.memory_wait,
          c.barrier_wait};
}

const std::vector<std::string> kCountColumns = {"instructions", "requests", "stages", "max",
                                                "mean",         "turn",     "memory", "barrier"};

}  // namespace

std::vector<ProgramTable> GpuTraceProgram::profile_tables(const ProfileTable& profile) const {
  // The profile's sites are the trace's own, found again by label (one label, one site).
  std::unordered_map<std::string_view, std::uint32_t> by_label;
  for (std::uint32_t i = 0; i < site_labels_.size(); ++i) by_label.emplace(site_labels_[i], i);
  std::map<std::string, SiteCounts> per_opcode;
  std::map<std::uint32_t, SiteCounts> per_site;
  for (const ProfileRow& row : profile.rows) {
    const SiteInfo& info = profile.sites[row.site];
    const auto it = info.file == file_name_ ? by_label.find(info.label) : by_label.end();
    if (it == by_label.end()) continue;  // the program's own kernel and round barriers
    per_opcode[trace_.sites[it->second].opcode] += row.counts;
    per_site[it->second] += row.counts;
  }
  const std::string note =
      "instructions: warp instructions run (a recorded one of wider words is several; a barrier "
      "counts each warp let through); stages: of the dispatches each led; mean: stages per "
      "dispatch; turn, memory, barrier: time units its warps waited";
  std::vector<std::string> columns = {"opcode"};
  columns.insert(columns.end(), kCountColumns.begin(), kCountColumns.end());
  ProgramTable opcodes{"trace_profile_opcodes", "profile per opcode", columns, {}, {note}};
  for (const auto& [opcode, counts] : per_opcode) {
    std::vector<ProgramTable::Cell> row{opcode};
    for (ProgramTable::Cell& cell : count_cells(counts)) row.push_back(std::move(cell));
    opcodes.rows.push_back(std::move(row));
  }
  std::vector<ProgramTable> out{std::move(opcodes)};
  if (trace_.format != TraceFormat::accelsim) return out;

  std::vector<std::pair<std::uint32_t, SiteCounts>> sites(per_site.begin(), per_site.end());
  std::stable_sort(sites.begin(), sites.end(),
                   [](const auto& a, const auto& b) { return a.second.time() > b.second.time(); });
  columns = {"kernel", "PC", "opcode", "source line"};
  columns.insert(columns.end(), kCountColumns.begin(), kCountColumns.end());
  ProgramTable pcs{"trace_profile_pcs", "profile per PC, by warp time", columns, {}, {note}};
  for (std::size_t i = 0; i < sites.size() && i < kShownPcs; ++i) {
    const TraceSite& site = trace_.sites[sites[i].first];
    std::vector<ProgramTable::Cell> row{
        trace_.kernels[site.kernel].number, site.pc ? hex(*site.pc) : std::string("-"), site.opcode,
        site.source_line ? ProgramTable::Cell(*site.source_line) : ProgramTable::Cell("-")};
    for (ProgramTable::Cell& cell : count_cells(sites[i].second)) row.push_back(std::move(cell));
    pcs.rows.push_back(std::move(row));
  }
  if (sites.size() > kShownPcs)
    pcs.notes.push_back(std::to_string(sites.size() - kShownPcs) +
                        " more PCs: the statistics' profile lists every site");
  out.push_back(std::move(pcs));
  return out;
}

}  // namespace mmsim
