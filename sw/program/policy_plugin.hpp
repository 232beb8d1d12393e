// A C++ plugin's dispatch policies (docs/own_policies.md): a shared library built outside the
// tree against the installed mmsim, as a plugin's programs are (sw/program/plugin.hpp), whose
// policies `machine.dispatch: {library: libmine.so, name: ..., params: {...}}` names. A policy is
// an OwnPolicy (hw/dispatch/own_policy.hpp): mmsim makes one per memory and calls its
// choose(time, ready) whenever the memory can accept a dispatch and units are ready. In the
// plugin's source, at namespace scope:
//   MMSIM_PLUGIN_POLICIES(my_policy(), my_other_policy())
// (a library may hold programs too: MMSIM_PLUGIN_PROGRAMS beside it).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/dispatch/own_policy.hpp"
#include "sw/program/params.hpp"

namespace mmsim {

struct PluginPolicy {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
  // One memory's policy: the memory, its units and the seed (args), the declared parameters,
  // each given or its default (params).
  std::function<std::unique_ptr<OwnPolicy>(const OwnPolicyArgs& args, const ParamValues& params)>
      make;
};

// Changes whenever PluginPolicy, OwnPolicyArgs or OwnPolicy change in a way a built plugin would
// not survive: a plugin built for another ABI is refused by name.
inline constexpr int kPolicyPluginAbi = 1;

}  // namespace mmsim

#define MMSIM_PLUGIN_POLICIES(...)                                                     \
  extern "C" [[gnu::visibility("default")]] int mmsim_plugin_policies_abi() {          \
    return ::mmsim::kPolicyPluginAbi;                                                  \
  }                                                                                    \
  extern "C" [[gnu::visibility("default")]] const std::vector<::mmsim::PluginPolicy>* \
  mmsim_plugin_policies() {                                                            \
    static const std::vector<::mmsim::PluginPolicy> policies = {__VA_ARGS__};          \
    return &policies;                                                                  \
  }
