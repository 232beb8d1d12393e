#include "testbench/input/own_policies.hpp"

#include <map>

namespace mmsim {
namespace {

std::map<ExternalProgram::Kind, PolicyLoader>& loaders() {
  static std::map<ExternalProgram::Kind, PolicyLoader> all;
  return all;
}

// A policy of one's own as the machine makes it, memory by memory: its code loaded and its
// params read once, at the first memory.
class OwnDispatchPolicy {
 public:
  explicit OwnDispatchPolicy(OwnPolicyRef ref) : ref_(std::move(ref)) {}

  std::unique_ptr<DispatchPolicy> make(const PolicyContext& context) {
    if (!code_) {
      std::shared_ptr<const OwnPolicyCode> code = policy_loader(ref_).load(ref_);
      params_ =
          read_params(ref_.params, code->params, ref_.key + ".params", "policy " + code->name);
      code_ = std::move(code);
    }
    const OwnPolicyArgs args{.memory = context.port,
                             .first = context.first,
                             .count = context.count,
                             .units = static_cast<UnitId>(context.units.size()),
                             .seed = context.seed};
    std::unique_ptr<OwnPolicy> policy;
    try {
      policy = code_->make(args, params_, ref_);
    } catch (const ParamError& e) {
      throw param_error(e);
    }
    return std::make_unique<OwnPolicyPort>(
        std::move(policy), context.units.size(),
        [code = code_, ref = ref_, memory = context.port](const std::string& problem) {
          throw InputError(ref.where, ref.key + ": " + code->site + ": " + code->name +
                                          " (memory " + std::to_string(memory) + "): " + problem);
        });
  }

 private:
  // A parameter the policy's code found wrong, located at it in the testbench.
  InputError param_error(const ParamError& e) const {
    const std::string key = ref_.key + ".params." + e.param();
    for (const WrittenParam& p : ref_.params.values)
      if (p.name == e.param()) return InputError(p.where, key + ": " + e.what());
    return InputError(ref_.params.where, key + ": " + e.what());
  }

  OwnPolicyRef ref_;
  std::shared_ptr<const OwnPolicyCode> code_;
  ParamValues params_;
};

}  // namespace

void register_policy_loader(ExternalProgram::Kind kind, PolicyLoader loader) {
  loaders()[kind] = std::move(loader);
}

const PolicyLoader& policy_loader(const OwnPolicyRef& ref) {
  // A listing of a file's policies (mmsim list policies --file) names none.
  if (ref.code.name.empty())
    check_external_file(ref.code);
  else
    check_external_program(ref.code);
  const auto it = loaders().find(ref.code.kind);
  if (it == loaders().end())
    throw InputError(ref.code.file_where,
                     ref.key +
                         (ref.code.kind == ExternalProgram::Kind::python ? ": Python policies"
                                                                         : ": plugin policies") +
                         " run in the mmsim command and the Python module (libmmsim), not in "
                         "this program");
  return it->second;
}

std::shared_ptr<const PolicyInfo> own_dispatch_policy(OwnPolicyRef ref) {
  auto info = std::make_shared<PolicyInfo>();
  info->name = ref.code.name;
  info->source = ref.code.file.string();
  info->description = "a policy of one's own";
  auto policy = std::make_shared<OwnDispatchPolicy>(std::move(ref));
  info->make = [policy](const PolicyContext& context) { return policy->make(context); };
  return info;
}

}  // namespace mmsim
