// The built-in dispatch policies by name (machine.dispatch): the table above the interface
// (dispatch_policy.hpp) and the policies that implement it.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "hw/dispatch/dispatch_policy.hpp"

namespace mmsim {

// Every built-in policy, in the order `mmsim list` shows them.
const std::vector<PolicyInfo>& dispatch_policies();
// nullptr for an unknown name.
std::unique_ptr<DispatchPolicy> make_dispatch_policy(std::string_view name,
                                                     const PolicyContext& context);

}  // namespace mmsim
