// machine.dispatch: {library, name}: a C++ plugin's dispatch policies
// (sw/program/policy_plugin.hpp), loaded as its programs are (plugin_code.hpp). An exception its
// make throws is the user's error located at the testbench key (exit status 2); one its choose
// throws mid-run is the policy's failure (ProgramError, exit status 1), as a program's is.
#include "sw/program/policy_plugin.hpp"
#include "sw/program/program_error.hpp"
#include "testbench/external/plugin_code.hpp"
#include "testbench/input/own_policies.hpp"

namespace mmsim {
namespace {

// "libpolicies.so: policy 'lowest'"
std::string policy_place(const OwnCodeRef& ref, const std::string& name) {
  return ref.code.file.filename().string() + ": policy '" + name + "'";
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
      throw ProgramError(place_ + ": choose(" + std::to_string(time) +
                         ", ...) threw: " + thrown_text());
    }
  }

 private:
  std::unique_ptr<OwnPolicy> policy_;
  std::string place_;
  bool given_since_ = false;
};

std::shared_ptr<const OwnPolicyCode> code_of(const PluginPolicy& policy, const OwnCodeRef& ref) {
  const std::shared_ptr<OwnPolicyCode> code = plugin_code<OwnPolicyCode>(policy, ref);
  code->site = ref.code.file.string();
  code->make = [&policy](const OwnPolicyArgs& args, const ParamValues& params,
                         const OwnCodeRef& at) -> std::unique_ptr<OwnPolicy> {
    const std::string place = policy_place(at, policy.name);
    std::unique_ptr<OwnPolicy> made;
    try {
      made = policy.make(args, params);
    } catch (const ParamError&) {
      throw;  // located at the parameter (own_code.hpp)
    } catch (...) {
      throw InputError(at.where, at.key + ": " + place + ": make threw: " + thrown_text());
    }
    if (made == nullptr) throw InputError(at.where, at.key + ": " + place + ": make returned null");
    return std::make_unique<GuardedPolicy>(std::move(made), place);
  };
  return code;
}

[[maybe_unused]] const bool registered =
    (policy_loaders().add(ExternalProgram::Kind::library,
                          plugin_loader<OwnPolicyCode, PluginPolicy>(
                              {.abi_symbol = "mmsim_plugin_policies_abi",
                               .table_symbol = "mmsim_plugin_policies",
                               .abi = kPolicyPluginAbi,
                               .abi_name = "policy plugin ABI",
                               .without = "has no dispatch policies (no MMSIM_PLUGIN_POLICIES: "
                                          "sw/program/policy_plugin.hpp)"},
                              code_of)),
     true);

}  // namespace
}  // namespace mmsim
