#include "hw/dispatch/dispatch_policies.hpp"

#include "hw/dispatch/adversarial_policy.hpp"
#include "hw/dispatch/lowest_ready_policy.hpp"
#include "hw/dispatch/oldest_ready_policy.hpp"
#include "hw/dispatch/random_ready_policy.hpp"
#include "hw/dispatch/round_robin_policy.hpp"

namespace mmsim {
namespace {

template <class Policy>
std::unique_ptr<DispatchPolicy> make(const PolicyContext& context) {
  return std::make_unique<Policy>(context);
}

}  // namespace

const std::vector<PolicyInfo>& dispatch_policies() {
  static const std::vector<PolicyInfo> policies = {
      {.name = "round_robin",
       .description =
           "synchronous: fixed cyclic turn; a unit waiting for its request holds the turn",
       .make = make<RoundRobinPolicy>},
      {.name = "lowest_ready",
       .description = "asynchronous: the ready unit with the lowest number",
       .make = make<LowestReadyPolicy>},
      {.name = "oldest_ready",
       .description = "asynchronous: the unit ready for the longest time",
       .make = make<OldestReadyPolicy>},
      {.name = "random",
       .description = "asynchronous: a ready unit drawn uniformly (machine.seed)",
       .make = make<RandomReadyPolicy>},
      {.name = "adversarial",
       .description = "asynchronous, laggard last: the ready unit that has issued the fewest "
                      "instructions (ties: the lowest number) goes only alone; the others oldest "
                      "first",
       .make = make<AdversarialPolicy>},
  };
  return policies;
}

std::unique_ptr<DispatchPolicy> make_dispatch_policy(std::string_view name,
                                                     const PolicyContext& context) {
  for (const PolicyInfo& policy : dispatch_policies())
    if (policy.name == name) return policy.make(context);
  return nullptr;
}

}  // namespace mmsim
