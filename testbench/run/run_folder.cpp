#include "testbench/run/run_folder.hpp"

#include "testbench/run/output_parts.hpp"

namespace mmsim {

void put_outputs_in(const OutputFolder& folder, const std::string& option, RunOptions& options,
                    Testbench& tb) {
  options.outputs_option = option;
  for (const OutputPartInfo& part : output_parts()) {
    if (part.folder_file.empty()) continue;
    OutputRequest& asked = tb.outputs[part.name];
    if (part.always_in_folder || !asked.file.empty())
      options.ask(part.name, (folder.path() / part.folder_file).string());
    asked.file.clear();
  }
}

}  // namespace mmsim
