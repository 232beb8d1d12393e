// machine.dispatch: {library, name}: a C++ plugin's dispatch policies
// (sw/program/policy_plugin.hpp), loaded with dlopen as its programs are (plugin_library.cpp).
// The library stays loaded for the life of the process. An exception its make throws is the
// user's error located at the testbench key (exit status 2); one its choose throws mid-run is
// the policy's failure (ProgramError, exit status 1), as a program's is.
#include <dlfcn.h>

#include <exception>
#include <map>

#include "sw/program/policy_plugin.hpp"
#include "sw/program/program_error.hpp"
#include "sw/support/suggest.hpp"
#include "testbench/input/own_policies.hpp"

namespace mmsim {
namespace {

using PoliciesFunction = const std::vector<PluginPolicy>* (*)();
using AbiFunction = int (*)();

// "libpolicies.so: policy 'lowest'"
std::string policy_place(const OwnPolicyRef& ref, const std::string& name) {
  return ref.code.file.filename().string() + ": policy '" + name + "'";
}

// What the exception being handled says.
std::string current_what() {
  try {
    throw;
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

// The plugin's policy, its choose guarded: what it throws is the policy's failure.
class GuardedPolicy final : public OwnPolicy {
 public:
  GuardedPolicy(std::unique_ptr<OwnPolicy> policy, std::string place)
      : policy_(std::move(policy)), place_(std::move(place)) {}

  UnitId choose(Cycle time, std::span<const UnitId> ready) override {
    if (!given_since_) {  // its since() reads the times this adapter is given
      lend_since(*policy_);
      given_since_ = true;
    }
    try {
      return policy_->choose(time, ready);
    } catch (...) {
      throw ProgramError(place_ + ": choose(" + std::to_string(time) + ", ...) threw: " +
                         current_what());
    }
  }

 private:
  std::unique_ptr<OwnPolicy> policy_;
  std::string place_;
  bool given_since_ = false;
};

const std::vector<PluginPolicy>& plugin_policies(const OwnPolicyRef& ref) {
  static std::map<std::filesystem::path, const std::vector<PluginPolicy>*> loaded;
  if (const auto it = loaded.find(ref.code.file); it != loaded.end()) return *it->second;
  const std::string file = ref.code.file.string();
  void* library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr)
    throw InputError(ref.code.file_where, ref.key + ": cannot load " + file + ": " + dlerror());
  const auto abi = reinterpret_cast<AbiFunction>(dlsym(library, "mmsim_plugin_policies_abi"));
  const auto policies =
      reinterpret_cast<PoliciesFunction>(dlsym(library, "mmsim_plugin_policies"));
  if (abi == nullptr || policies == nullptr)
    throw InputError(ref.code.file_where, ref.key + ": " + file +
                                              " has no dispatch policies (no "
                                              "MMSIM_PLUGIN_POLICIES: sw/program/policy_plugin.hpp)");
  if (abi() != kPolicyPluginAbi)
    throw InputError(ref.code.file_where, ref.key + ": " + file +
                                              " was built for policy plugin ABI " +
                                              std::to_string(abi()) + ", this mmsim has " +
                                              std::to_string(kPolicyPluginAbi) + ": rebuild it");
  return *(loaded[ref.code.file] = policies());
}

std::shared_ptr<const OwnPolicyCode> code_of(const PluginPolicy& policy, const OwnPolicyRef& ref) {
  auto code = std::make_shared<OwnPolicyCode>();
  code->name = policy.name;
  code->description = policy.description;
  code->source = ref.code.file.string();
  code->site = ref.code.file.string();
  code->params = policy.params;
  code->make = [&policy](const OwnPolicyArgs& args, const ParamValues& params,
                         const OwnPolicyRef& at) -> std::unique_ptr<OwnPolicy> {
    const std::string place = policy_place(at, policy.name);
    std::unique_ptr<OwnPolicy> made;
    try {
      made = policy.make(args, params);
    } catch (const ParamError&) {
      throw;  // located at the parameter (own_policies.cpp)
    } catch (...) {
      throw InputError(at.where, at.key + ": " + place + ": make threw: " + current_what());
    }
    if (made == nullptr)
      throw InputError(at.where, at.key + ": " + place + ": make returned null");
    return std::make_unique<GuardedPolicy>(std::move(made), place);
  };
  return code;
}

std::shared_ptr<const OwnPolicyCode> load_plugin_policy(const OwnPolicyRef& ref) {
  std::vector<std::string> names;
  for (const PluginPolicy& policy : plugin_policies(ref)) {
    if (policy.name == ref.code.name) return code_of(policy, ref);
    names.push_back(policy.name);
  }
  throw InputError(ref.code.name_where, ref.key + ".name: " + ref.code.file.filename().string() +
                                            " has no policy '" + ref.code.name + "'" +
                                            suggestion(ref.code.name, names));
}

std::vector<std::shared_ptr<const OwnPolicyCode>> list_plugin_policies(const OwnPolicyRef& ref) {
  std::vector<std::shared_ptr<const OwnPolicyCode>> out;
  for (const PluginPolicy& policy : plugin_policies(ref)) out.push_back(code_of(policy, ref));
  return out;
}

[[maybe_unused]] const bool registered =
    (register_policy_loader(ExternalProgram::Kind::library,
                            {load_plugin_policy, list_plugin_policies}),
     true);

}  // namespace
}  // namespace mmsim
