// The waveform (--vcd, outputs.vcd: docs/waveforms.md) and its GTKWave view: SystemC traces the
// machine into a pipe that copies it, cut to its window and within its limit, into the file.
#include <filesystem>
#include <optional>

#include "testbench/run/output_part.hpp"
#include "testbench/waveforms/gtkwave_view.hpp"
#include "testbench/waveforms/waveform_pipe.hpp"
#include "testbench/waveforms/waveform_scopes.hpp"

namespace mmsim {
namespace {

const OutputOptions kOptions{.file = "--vcd",
                             .from = "--vcd-from",
                             .to = "--vcd-to",
                             .scopes = "--vcd-scope",
                             .limit = "--vcd-limit",
                             .noun = "waveform",
                             .unit = "cycle"};

class WaveformPart final : public OutputPart {
 public:
  explicit WaveformPart(WaveformPlan plan)
      : plan_(std::move(plan)), scopes_(std::make_shared<ScopeSelection>(plan_.scopes)) {}

  std::vector<NamedFile> files() const override {
    std::vector<NamedFile> files = {plan_.file};
    for (const NamedFile& view : plan_.view_files()) files.push_back(view);
    return files;
  }
  void open() override {
    file_.emplace(plan_.file.path, plan_.file.where);
    for (const NamedFile& view : plan_.view_files())
      view_files_.push_back(std::make_unique<PendingFile>(view.path, view.where));
  }
  void attach(SimulationOptions& options, std::vector<std::function<void()>>& watch) override {
    pipe_.emplace(*file_, plan_.file.where, plan_.window, plan_.format, waveform_limit(plan_));
    options.vcd_base = pipe_->systemc_base();
    options.dispatch.trace_from = plan_.window.from;
    options.dispatch.trace_to = plan_.window.to;
    if (!plan_.scopes.empty())
      options.trace_selection = [scopes = scopes_](const std::string& name) {
        return (*scopes)(name);
      };
    watch.push_back([this] { pipe_->check(); });
  }
  void start(Simulation& simulation, const RunPlan& plan) override {
    if (const auto unmatched = scopes_->unmatched())
      throw InputError(plan_.scope_where[*unmatched],
                       "scope '" + plan_.scopes[*unmatched] +
                           "' matches no signal of this machine (names look like "
                           "machine.warp_3.state, machine.memory.bank_0.entry_address: "
                           "docs/waveforms.md)");
    check_waveform_size(
        plan_, estimate_waveform(simulation.traced_signals().size(), plan.cycles, plan_.window));
  }
  void finish(Simulation& simulation, RunOutcome& outcome, const WarpProgram&) override {
    if (plan_.view)
      view_ = gtkwave_view(simulation.machine(), simulation.traced_signals(), *plan_.view,
                           plan_.window.from, std::min(outcome.result.cycles(), plan_.window.to));
  }
  // SystemC has closed its file (the simulation is gone): the copy ends.
  void render(const RunOutcome&) override {
    pipe_->finish();
    for (std::size_t i = 0; i < view_.size(); ++i) view_files_[i]->write(view_[i].contents);
  }
  void commit(RunOutcome& outcome) override {
    file_->commit();
    for (const auto& view : view_files_) view->commit();
    std::string text = plan_.file.path;
    if (plan_.view)
      text += "  (gtkwave " + plan_.file.path + " " +
              std::filesystem::path(plan_.file.path).replace_extension(".gtkw").string() + ")";
    outcome.written.push_back({"waveform", text});
  }

 private:
  WaveformPlan plan_;
  std::shared_ptr<ScopeSelection> scopes_;  // shared with the tracer's selection
  std::optional<PendingFile> file_;
  std::vector<std::unique_ptr<PendingFile>> view_files_;
  std::optional<WaveformPipe> pipe_;  // outlives the Simulation, which closes the trace file
  std::vector<GtkwaveViewFile> view_;
};

void add_options(CLI::App& run, OutputRequest& request) {
  add_windowed_file_options(run, kOptions, request,
                            "write a waveform to this file: VCD, or FST / LXT2 by the extension "
                            ".fst / .lxt2 (its limit counts bytes of VCD); a GTKWave save file "
                            "(.gtkw) is written beside it");
  run.add_option(kOptions.scopes, request.scopes,
                 "show only these scopes (glob patterns, repeatable), e.g. 'machine.warp_[0-3]'")
      ->allow_extra_args(false)
      ->default_str("");
}

std::unique_ptr<OutputPart> make(const PartContext& context) {
  WaveformPlan plan = plan_waveform(context.asked(kOptions));
  if (plan.file.path.empty()) return nullptr;
  return std::make_unique<WaveformPart>(std::move(plan));
}

}  // namespace

OutputPartInfo waveform_part() {
  return {.name = "vcd", .folder_file = "trace.vcd", .add_options = add_options, .make = make};
}

}  // namespace mmsim
