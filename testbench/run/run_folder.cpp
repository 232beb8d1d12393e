#include "testbench/run/run_folder.hpp"

namespace mmsim {

void put_outputs_in(const OutputFolder& folder, const std::string& option, RunOptions& options,
                    Testbench& tb) {
  options.stats = (folder.path() / "stats.json").string();
  options.resolved = (folder.path() / "testbench.yaml").string();
  options.outputs_option = option;
  if (!tb.vcd.file.empty()) options.vcd = (folder.path() / "trace.vcd").string();
  if (!tb.timeline.empty()) options.timeline = (folder.path() / "timeline.json").string();
  tb.vcd.file.clear();
  tb.timeline.clear();
  tb.stats.clear();
}

}  // namespace mmsim
