#include "sw/programs/hierarchical_only.hpp"

#include <string>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/support/errors.hpp"

namespace mmsim {

void require_hierarchical(const MachineConfig& machine, std::string_view program,
                          std::string_view needs) {
  if (!machine_model(machine).hierarchical)
    throw ConfigError("model", std::string(program) +
                                   " runs on the hierarchical machine (model hmm): " +
                                   std::string(needs) + "; model " + machine.model + " is flat");
}

}  // namespace mmsim
