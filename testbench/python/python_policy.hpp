// Dispatch policies of one's own in Python (mmsim.Policy, docs/own_policies.md): the loader of
// machine.dispatch: {file, class, params}, and what the module lists of a file's policies.
#pragma once

#include <pybind11/pybind11.h>

namespace mmsim {

// Registers the loader of Python policies and binds own_policies(kind, path) in `module`.
void bind_policies(pybind11::module_& module);

}  // namespace mmsim
