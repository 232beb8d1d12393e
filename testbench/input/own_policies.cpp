#include "testbench/input/own_policies.hpp"

namespace mmsim {
namespace {

// A policy of one's own as the machine makes it, memory by memory.
class OwnDispatchPolicy {
 public:
  explicit OwnDispatchPolicy(OwnCodeRef ref) : code_(std::move(ref), policy_loaders()) {}

  std::unique_ptr<DispatchPolicy> make(const PolicyContext& context) {
    const OwnPolicyArgs args{.memory = context.port,
                             .first = context.first,
                             .count = context.count,
                             .units = static_cast<UnitId>(context.units.size()),
                             .seed = context.seed};
    std::unique_ptr<OwnPolicy> policy =
        code_.make([&](const OwnPolicyCode& code, const ParamValues& params) {
          return code.make(args, params, code_.ref());
        });
    return std::make_unique<OwnPolicyPort>(
        std::move(policy), context.units.size(),
        [code = code_.code(), ref = code_.ref(),
         memory = context.port](const std::string& problem) {
          throw InputError(ref.where, ref.key + ": " + code->site + ": " + code->name +
                                          " (memory " + std::to_string(memory) + "): " + problem);
        });
  }

 private:
  LoadedOwnCode<OwnPolicyCode> code_;
};

}  // namespace

OwnCodeLoaders<OwnPolicyCode>& policy_loaders() {
  static OwnCodeLoaders<OwnPolicyCode> loaders("policies");
  return loaders;
}

std::shared_ptr<const PolicyInfo> own_dispatch_policy(OwnCodeRef ref) {
  auto info = std::make_shared<PolicyInfo>();
  info->name = ref.code.name;
  info->source = ref.code.file.string();
  info->description = "a policy of one's own";
  auto policy = std::make_shared<OwnDispatchPolicy>(std::move(ref));
  info->make = [policy](const PolicyContext& context) { return policy->make(context); };
  return info;
}

}  // namespace mmsim
