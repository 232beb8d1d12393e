// The refusal of a flat machine by the programs that run on the hierarchical machine only (the
// hmm_* programs, the sorts that sort blocks in shared memory).
#pragma once

#include <string_view>

#include "hw/machine/machine_config.hpp"

namespace mmsim {

// Throws ConfigError on `model` where `machine` is flat: "`program` runs on the hierarchical
// machine (model hmm): `needs`; model dmm is flat".
void require_hierarchical(const MachineConfig& machine, std::string_view program,
                          std::string_view needs);

}  // namespace mmsim
