#include "testbench/run/output_parts.hpp"

#include "testbench/input/option_checks.hpp"

namespace mmsim {

// Each output's entry, made by its part's file (testbench/run/*_part.cpp).
OutputPartInfo waveform_part();
OutputPartInfo timeline_part();
OutputPartInfo stats_part();
OutputPartInfo resolved_part();
OutputPartInfo profile_part();
OutputPartInfo time_series_part();
OutputPartInfo race_part();

const std::vector<OutputPartInfo>& output_parts() {
  static const std::vector<OutputPartInfo> parts = {
      waveform_part(), timeline_part(),    stats_part(), resolved_part(),
      profile_part(),  time_series_part(), race_part(),
  };
  return parts;
}

void add_file_option(CLI::App& run, const std::string& option, OutputRequest& request,
                     const std::string& help) {
  run.add_option_function<std::string>(
         option,
         [&request](const std::string& file) {
           request.file = file;
           request.on = true;
         },
         help)
      ->check(output_name());
}

void add_number_option(CLI::App& run, const std::string& option,
                       std::optional<std::uint64_t>& value, std::uint64_t min, std::uint64_t max,
                       const std::string& help) {
  run.add_option(option, value, help)
      ->type_name("INT|2^k")
      ->transform(integer_in(min, max))
      ->default_str("");
}

void add_windowed_file_options(CLI::App& run, const OutputOptions& options, OutputRequest& request,
                               const std::string& help) {
  constexpr std::uint64_t max = std::uint64_t{1} << 62;
  const std::string kept = " " + options.unit + " the " + options.noun + " keeps";
  add_file_option(run, options.file, request, help);
  add_number_option(run, options.from, request.from, 0, max, "first" + kept);
  add_number_option(run, options.to, request.to, 0, max, "last" + kept);
  add_number_option(run, options.limit, request.limit, 1, max,
                    "refuse a " + options.noun +
                        " estimated, or grown while written, larger than this many bytes "
                        "(default 2^30)");
}

OutputParts::OutputParts(const Testbench& testbench, const RunOptions& options) {
  for (const OutputPartInfo& info : output_parts())
    if (std::unique_ptr<OutputPart> part = info.make(PartContext{testbench, options, info.name}))
      parts_.push_back(std::move(part));
}

std::vector<NamedFile> OutputParts::files() const {
  std::vector<NamedFile> files;
  for (const auto& part : parts_)
    for (NamedFile& file : part->files()) files.push_back(std::move(file));
  return files;
}

void OutputParts::open() {
  for (const auto& part : parts_) part->open();
}

std::vector<MemoryEstimate::Part> OutputParts::memory(const MachineConfig& machine) const {
  std::vector<MemoryEstimate::Part> memory;
  for (const auto& part : parts_)
    for (MemoryEstimate::Part& p : part->memory(machine)) memory.push_back(std::move(p));
  return memory;
}

void OutputParts::check_size(const RunPlan& plan) {
  for (const auto& part : parts_) part->check_size(plan);
}

SimulationOptions OutputParts::simulation_options(bool progress,
                                                  const std::function<void()>& heartbeat) {
  SimulationOptions options;
  for (const auto& part : parts_) part->attach(options, watch_);
  if (heartbeat) watch_.push_back(heartbeat);
  if (progress) progress_ = std::make_unique<ProgressLine>();
  if (progress_ || !watch_.empty())
    options.dispatch.progress = [this](Cycle now) {
      if (progress_) progress_->update(now);
      for (const auto& check : watch_) check();
    };
  return options;
}

void OutputParts::start(Simulation& simulation, const RunPlan& plan) {
  for (const auto& part : parts_) part->start(simulation, plan);
}

void OutputParts::finish(Simulation& simulation, RunOutcome& outcome, const WarpProgram& program) {
  for (const auto& part : parts_) part->finish(simulation, outcome, program);
}

void OutputParts::write(RunOutcome& outcome) {
  for (const auto& part : parts_) part->render(outcome);
  for (const auto& part : parts_) part->commit(outcome);
  for (const auto& part : parts_) part->write_standard_output(outcome);
}

}  // namespace mmsim
