// Dispatch policies of one's own in C++ (docs/own_policies.md): the built-in lowest_ready and
// oldest_ready written against the installed mmsim, as a plugin that
// `machine.dispatch: {library: build/libready_policies.so, name: lowest}` names.
#include <algorithm>
#include <memory>

#include "sw/program/policy_plugin.hpp"

namespace {

// The ready unit with the lowest number: `ready` is in increasing order.
class Lowest final : public mmsim::OwnPolicy {
 public:
  mmsim::UnitId choose(mmsim::Cycle, std::span<const mmsim::UnitId> ready) override {
    return ready.front();
  }
};

// The unit ready for the longest time (since), ties to the lowest number.
class Oldest final : public mmsim::OwnPolicy {
 public:
  mmsim::UnitId choose(mmsim::Cycle, std::span<const mmsim::UnitId> ready) override {
    return *std::min_element(ready.begin(), ready.end(), [this](auto a, auto b) {
      return since(a) < since(b) || (since(a) == since(b) && a < b);
    });
  }
};

template <class Policy>
mmsim::PluginPolicy policy(const char* name, const char* description) {
  return {.name = name,
          .description = description,
          .params = {},
          .make = [](const mmsim::OwnPolicyArgs&, const mmsim::ParamValues&) {
            return std::unique_ptr<mmsim::OwnPolicy>(std::make_unique<Policy>());
          }};
}

}  // namespace

MMSIM_PLUGIN_POLICIES(policy<Lowest>("lowest", "the ready unit with the lowest number"),
                      policy<Oldest>("oldest", "the unit ready for the longest time"))
