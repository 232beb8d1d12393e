#include "hw/dispatch/dispatch_policy.hpp"

#include "hw/dispatch/adversarial_policy.hpp"
#include "hw/dispatch/lowest_ready_policy.hpp"
#include "hw/dispatch/oldest_ready_policy.hpp"
#include "hw/dispatch/random_ready_policy.hpp"
#include "hw/dispatch/round_robin_policy.hpp"

namespace mmsim {

const std::vector<PolicyInfo>& dispatch_policies() {
  static const std::vector<PolicyInfo> policies = {
      {.name = "round_robin",
       .synchronous = true,
       .description =
           "synchronous: fixed cyclic turn; a unit waiting for its request holds the turn"},
      {.name = "lowest_ready",
       .synchronous = false,
       .description = "asynchronous: the ready unit with the lowest number"},
      {.name = "oldest_ready",
       .synchronous = false,
       .description = "asynchronous: the unit ready for the longest time"},
      {.name = "random",
       .synchronous = false,
       .description = "asynchronous: a ready unit drawn uniformly (machine.seed)"},
      {.name = "adversarial",
       .synchronous = false,
       .description = "asynchronous, laggard last: the ready unit that has issued the fewest "
                      "instructions (ties: the lowest number) goes only alone; the others oldest "
                      "first"},
  };
  return policies;
}

std::unique_ptr<DispatchPolicy> make_dispatch_policy(std::string_view name,
                                                     const PolicyContext& context) {
  if (name == "round_robin") return std::make_unique<RoundRobinPolicy>(context);
  if (name == "lowest_ready") return std::make_unique<LowestReadyPolicy>(context);
  if (name == "oldest_ready") return std::make_unique<OldestReadyPolicy>(context);
  if (name == "random") return std::make_unique<RandomReadyPolicy>(context);
  if (name == "adversarial") return std::make_unique<AdversarialPolicy>(context);
  return nullptr;
}

}  // namespace mmsim
