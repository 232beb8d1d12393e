// The profile (--profile, outputs.profile: docs/statistics.md, "Profile"): every instruction
// counted at its site (hw/observers/profile.hpp), in the report and the statistics, with the
// tables the program draws from it.
#include <optional>

#include "hw/observers/profile.hpp"
#include "testbench/run/output_part.hpp"
#include "testbench/run/profile_report.hpp"

namespace mmsim {
namespace {

class ProfilePart final : public OutputPart {
 public:
  explicit ProfilePart(ProfileView view) : view_(view) {}

  void attach(SimulationOptions& options, std::vector<std::function<void()>>&) override {
    options.dispatch.recorders.push_back(&profile_);
  }
  void finish(Simulation&, RunOutcome& outcome, const WarpProgram& program) override {
    outcome.profile = profile_.table();
    outcome.profile_view = view_;
    for (ProgramTable& t : program.profile_tables(*outcome.profile))
      outcome.tables.push_back(std::move(t));
  }

 private:
  ProfileView view_;
  Profile profile_;
};

void add_options(CLI::App& run, OutputRequest& request) {
  run.add_flag("--profile{time}", request.shown,
               "count every instruction at its source line (or trace line): the report's top "
               "locations, the statistics' profile (as outputs.profile: true); "
               "--profile=KEY,ROWS,memories orders the report's rows by KEY (time, stages, mean, "
               "max), shows ROWS of them (default 10, or all), and each memory of the hmm apart "
               "(else each shared-memory line once)");
}

std::unique_ptr<OutputPart> make(const PartContext& context) {
  const auto given = context.options.outputs.find(context.name);
  const std::string shown =
      given == context.options.outputs.end() ? std::string() : given->second.shown;
  if (shown.empty() && !context.asked({}).asked()) return nullptr;
  return std::make_unique<ProfilePart>(profile_view(shown, {"--profile", 0, 0}));
}

}  // namespace

OutputPartInfo profile_part() {
  return {.name = "profile", .add_options = add_options, .make = make};
}

}  // namespace mmsim
