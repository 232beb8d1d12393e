// The counters every N time units (--stats-interval N: the statistics' time_series, a line of
// the report), sampled by the dispatcher (hw/observers/time_series.hpp).
#include "testbench/run/output_part.hpp"

namespace mmsim {
namespace {

class TimeSeriesPart final : public OutputPart {
 public:
  explicit TimeSeriesPart(Cycle interval) : interval_(interval) {}
  void attach(SimulationOptions& options, std::vector<std::function<void()>>&) override {
    options.dispatch.sample_interval = interval_;
  }

 private:
  Cycle interval_;
};

void add_options(CLI::App& run, OutputRequest& request) {
  add_number_option(run, "--stats-interval", request.interval, 1, std::uint64_t{1} << 40,
                    "add the counters every N time units to the statistics (time_series)");
}

std::unique_ptr<OutputPart> make(const PartContext& context) {
  const auto interval = context.asked({}).interval();
  if (!interval) return nullptr;
  return std::make_unique<TimeSeriesPart>(interval->value);
}

}  // namespace

OutputPartInfo time_series_part() {
  return {.name = "time_series", .add_options = add_options, .make = make};
}

}  // namespace mmsim
