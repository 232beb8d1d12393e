#include "hw/machine_config.hpp"

#include "hw/dispatch_policy.hpp"
#include "hw/errors.hpp"
#include "hw/machine_models.hpp"

namespace mmsim {

void validate(const MachineConfig& c) {
  const MachineModel* model = find_machine_model(c.model);
  if (!model) throw ConfigError("model", "unknown machine model '" + c.model + "'");
  if (c.width < 1) throw ConfigError("width", "the width w must be at least 1");
  if (c.latency < 1) throw ConfigError("latency", "the latency l must be at least 1");
  if (c.super_warp < 1) throw ConfigError("super_warp", "the super warp size s must be at least 1");
  if (!model->super_warps && c.super_warp != 1)
    throw ConfigError("super_warp", "model " + c.model +
                                        " dispatches single warps: super_warp must be 1 (got " +
                                        std::to_string(c.super_warp) + ")");
  const std::uint64_t unit = std::uint64_t{c.width} * c.super_warp;
  if (c.threads == 0) throw ConfigError("threads", "the number of threads p must be at least 1");
  if (c.threads % unit != 0)
    throw ConfigError("threads",
                      "p = " + std::to_string(c.threads) + " is not a multiple of " +
                          (c.super_warp == 1 ? "w = " + std::to_string(c.width)
                                             : "s*w = " + std::to_string(unit)));
  if (c.memory_words > kMaxMemoryWords)
    throw ConfigError("memory", "memory of " + std::to_string(c.memory_words) +
                                    " words exceeds the limit of 2^32 words");
  bool known_policy = false;
  for (const PolicyInfo& policy : dispatch_policies()) known_policy |= policy.name == c.dispatch;
  if (!known_policy) throw ConfigError("dispatch", "unknown dispatch policy '" + c.dispatch + "'");
}

}  // namespace mmsim
