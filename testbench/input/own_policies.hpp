// Dispatch policies of one's own (docs/own_policies.md): machine.dispatch naming a Python class
// ({file, class, params}) or a C++ plugin's policy ({library, name, params}), as
// machine.address_map names a map of one's own and `program:` a program from outside the tree.
// A loader per kind turns the code into an OwnPolicyCode; the code is loaded, and its params read
// against what it declares, when the machine is built (its first memory), not while the
// testbench is read.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/dispatch/dispatch_policy.hpp"
#include "hw/dispatch/own_policy.hpp"
#include "sw/program/external_program.hpp"
#include "sw/program/params.hpp"
#include "testbench/input/param_input.hpp"

namespace mmsim {

// What names a policy of one's own: its code, its params as written.
struct OwnPolicyRef {
  std::string key;       // where it is named: "machine.dispatch"
  SourceLocation where;  // of its value
  ExternalProgram code;  // the file (Python) or library (C++), the class or the policy's name
  WrittenParams params;  // where: of params, or of the value when it gives none
};

// A policy's code, loaded.
struct OwnPolicyCode {
  std::string name;
  std::string description;
  std::string source;  // its file or library
  std::string site;    // where its choice is made, for errors: file:line of choose, or the library
  std::vector<ParamSpec> params;
  // One memory's policy; its errors (the user's) are located at `ref`.
  std::function<std::unique_ptr<OwnPolicy>(const OwnPolicyArgs& args, const ParamValues& params,
                                           const OwnPolicyRef& ref)>
      make;
};

// The loaders of one kind of code (Python, C++ plugin).
struct PolicyLoader {
  // The policy `ref` names (InputError at ref's places: no such class, ...).
  std::function<std::shared_ptr<const OwnPolicyCode>(const OwnPolicyRef& ref)> load;
  // Every policy of ref's file or library (mmsim list policies --file, --library).
  std::function<std::vector<std::shared_ptr<const OwnPolicyCode>>(const OwnPolicyRef& ref)> list;
};

// Replaces the loader of `kind`.
void register_policy_loader(ExternalProgram::Kind kind, PolicyLoader loader);
// The loader of ref's kind, or InputError at ref (a missing file, a kind this process cannot
// load).
const PolicyLoader& policy_loader(const OwnPolicyRef& ref);

// The policy `ref` names, as the machine is built with it: its code loaded when the first
// memory's policy is made, one object per memory.
std::shared_ptr<const PolicyInfo> own_dispatch_policy(OwnPolicyRef ref);

}  // namespace mmsim
