// The profile (--profile, outputs.profile: docs/statistics.md, "Profile"): every instruction
// counted at its site (hw/observers/profile.hpp), in the report and the statistics, with the
// tables the program draws from it.
#include <optional>

#include "hw/observers/profile.hpp"
#include "testbench/run/output_part.hpp"

namespace mmsim {
namespace {

class ProfilePart final : public OutputPart {
 public:
  void attach(SimulationOptions& options, std::vector<std::function<void()>>&) override {
    options.dispatch.recorders.push_back(&profile_);
  }
  void finish(Simulation&, RunOutcome& outcome, const WarpProgram& program) override {
    outcome.profile = profile_.table();
    for (ProgramTable& t : program.profile_tables(*outcome.profile))
      outcome.tables.push_back(std::move(t));
  }

 private:
  Profile profile_;
};

void add_options(CLI::App& run, OutputRequest& request) {
  run.add_flag("--profile", request.on,
               "count every instruction at its source line (or trace line): the report's top "
               "locations, the statistics' profile (as outputs.profile: true)");
}

std::unique_ptr<OutputPart> make(const PartContext& context) {
  if (!context.asked({}).asked()) return nullptr;
  return std::make_unique<ProfilePart>();
}

}  // namespace

OutputPartInfo profile_part() {
  return {.name = "profile", .add_options = add_options, .make = make};
}

}  // namespace mmsim
