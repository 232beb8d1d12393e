// Dispatch policies of one's own (docs/own_policies.md): machine.dispatch naming a Python class
// or a C++ plugin's policy, code of one's own (own_code.hpp). A loader per language turns the
// code into an OwnPolicyCode; it is loaded, and its params read, when the machine is built (its
// first memory).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/dispatch/dispatch_policy.hpp"
#include "hw/dispatch/own_policy.hpp"
#include "testbench/input/own_code.hpp"

namespace mmsim {

// A policy's code, loaded.
struct OwnPolicyCode {
  std::string name;
  std::string description;
  std::string source;  // its file or library
  std::string site;    // where its choice is made, for errors: file:line of choose, or the library
  std::vector<ParamSpec> params;
  // One memory's policy; its errors (the user's) are located at `ref`.
  std::function<std::unique_ptr<OwnPolicy>(const OwnPolicyArgs& args, const ParamValues& params,
                                           const OwnCodeRef& ref)>
      make;
};

// The loaders of policies, by language.
OwnCodeLoaders<OwnPolicyCode>& policy_loaders();

// The policy `ref` names, as the machine is built with it: its code loaded when the first
// memory's policy is made, one object per memory.
std::shared_ptr<const PolicyInfo> own_dispatch_policy(OwnCodeRef ref);

}  // namespace mmsim
