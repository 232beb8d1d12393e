// The timeline (--timeline, outputs.timeline: docs/statistics.md, "Timeline"): Chrome Trace
// Event JSON written while the run goes (hw/observers/timeline.hpp), within its limit.
#include <cstdio>
#include <optional>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/observers/timeline.hpp"
#include "testbench/run/output_part.hpp"

namespace mmsim {
namespace {

// Refused beyond this many bytes unless outputs.timeline.limit or --timeline-limit says more.
constexpr std::uint64_t kDefaultTimelineLimit = std::uint64_t{1} << 30;

const OutputOptions kOptions{.file = "--timeline",
                             .from = "--timeline-from",
                             .to = "--timeline-to",
                             .limit = "--timeline-limit",
                             .noun = "timeline",
                             .unit = "time unit"};

constexpr const char* kNarrow =
    "narrow it to a window of time units (outputs.timeline: {file, from, to}, or "
    "--timeline-from and --timeline-to), or raise the limit (outputs.timeline.limit, or "
    "--timeline-limit)";

unsigned blocks_of(const MachineConfig& machine) {
  return machine_model(machine).hierarchical ? machine.multiprocessors : 1;
}

// The global memory and a shared memory per multiprocessor, or the one memory.
std::uint64_t memories_of(const MachineConfig& machine) {
  return machine_model(machine).hierarchical ? 1 + machine.multiprocessors : 1;
}

class TimelinePart final : public OutputPart {
 public:
  explicit TimelinePart(const AskedOutput& asked)
      : file_(asked.file()),
        window_(asked.window()),
        limit_(asked.limit() ? asked.limit()->value : kDefaultTimelineLimit) {}

  std::vector<NamedFile> files() const override { return {file_}; }
  void open() override { pending_.emplace(file_.path, file_.where); }
  std::vector<MemoryEstimate::Part> memory(const MachineConfig& machine) const override {
    const std::uint64_t lanes = std::uint64_t{machine.width} * machine.super_warp;
    return {{"timeline: its buffer and tables",
             Timeline::memory_bytes(machine.warps(), memories_of(machine), lanes, machine.width),
             ""}};
  }
  // Its likely size from the program's bounds on time: each warp issues at most one instruction
  // per l time units (an instruction takes k + l - 1 >= l), and each memory takes at most one
  // dispatch per time unit.
  void check_size(const RunPlan& plan) override {
    const MachineConfig& machine = plan.machine;
    const std::uint64_t window = window_.kept(plan.cycles.likely);
    if (window == 0) return;
    const std::uint64_t dispatches = window * memories_of(machine);
    const std::uint64_t slices =
        std::min<std::uint64_t>(machine.warps() * (window / std::max(machine.latency, 1u) + 1),
                                dispatches * machine.super_warp);
    const double bytes = static_cast<double>(slices) * kTimelineBytesPerSlice +
                         static_cast<double>(dispatches) * kTimelineBytesPerDispatch;
    const std::string size = "about " + format_bytes(static_cast<std::uint64_t>(bytes)) +
                             " (at most " + std::to_string(slices) + " slices in " +
                             std::to_string(window) + " time units)";
    if (bytes > static_cast<double>(limit_))
      throw InputError(file_.where, "this timeline would take " + size +
                                        " of JSON, more than the limit of " + format_bytes(limit_) +
                                        ": " + kNarrow);
    if (bytes > static_cast<double>(kWaveformNotice))
      std::fprintf(stderr, "mmsim: the timeline may take %s of JSON (limit %s)\n", size.c_str(),
                   format_bytes(limit_).c_str());
  }
  void attach(SimulationOptions& options, std::vector<std::function<void()>>&) override {
    writes_.emplace(*pending_, limit_, file_.where,
                    "this timeline passed the limit of " + format_bytes(limit_) +
                        " of JSON while the run went on: " + kNarrow);
    timeline_.emplace(window_.from, window_.to,
                      [this](std::string_view piece) { writes_->write(piece); });
    options.dispatch.recorders.push_back(&*timeline_);
  }
  void start(Simulation& simulation, const RunPlan& plan) override {
    std::vector<std::string> labels;
    for (MemoryId m = 0; m < simulation.machine().memory_count(); ++m)
      labels.push_back(simulation.memory(m).label());
    timeline_->start(blocks_of(plan.machine), std::move(labels));
  }
  void render(const RunOutcome&) override { timeline_->finish(); }
  void commit(RunOutcome& outcome) override {
    pending_->commit();
    outcome.written.push_back({"timeline", file_.path + "  (open it in ui.perfetto.dev)"});
  }

 private:
  NamedFile file_;
  TimeWindow window_;
  std::uint64_t limit_;
  std::optional<PendingFile> pending_;
  std::optional<BoundedWriter> writes_;
  std::optional<Timeline> timeline_;
};

void add_options(CLI::App& run, OutputRequest& request) {
  add_windowed_file_options(run, kOptions, request,
                            "write the run as Chrome Trace Event JSON (open it in "
                            "ui.perfetto.dev): a track per warp, a slice per instruction; one "
                            "time unit = 1 us");
}

std::unique_ptr<OutputPart> make(const PartContext& context) {
  const AskedOutput asked = context.asked(kOptions);
  asked.check();
  if (asked.file().path.empty()) return nullptr;
  return std::make_unique<TimelinePart>(asked);
}

}  // namespace

OutputPartInfo timeline_part() {
  return {
      .name = "timeline", .folder_file = "timeline.json", .add_options = add_options, .make = make};
}

}  // namespace mmsim
