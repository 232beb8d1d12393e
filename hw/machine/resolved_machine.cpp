#include "hw/machine/resolved_machine.hpp"

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"

namespace mmsim {

ResolvedMachine resolve_machine(MachineConfig config, const DefaultThreads& default_threads) {
  const MachineModel& model = machine_model(config);
  if (model.unit_latency) config.latency = 1;
  if (config.threads == 0 && default_threads) config.threads = default_threads(config);
  if (model.one_unit && config.width > 0 && config.threads % config.width == 0 &&
      config.warps() > 0)
    config.super_warp = static_cast<unsigned>(config.warps());
  validate(config);
  return ResolvedMachine(std::move(config));
}

ResolvedMachine ResolvedMachine::with_memory(const MemorySizes& sizes) const {
  MachineConfig sized = config_;
  sized.memory_words = sizes.words;
  sized.shared.words = sizes.shared_words;
  sized.local_words = sizes.local_words;
  sized.memory_values = sizes.values;
  validate_memory(sized);
  return ResolvedMachine(std::move(sized));
}

}  // namespace mmsim
