// An address map written in Python (a subclass of mmsim.AddressMap, docs/own_maps.md) as the
// machine runs it: a RowSource whose rows are the class's banks(row), asked once per row (the
// machine keeps them in a table: hw/memory/tabulated_map.hpp), each checked to be the w banks
// of a permutation, given as a list, tuple or numpy array of integers.
#pragma once

#include <pybind11/pybind11.h>

namespace mmsim {

// Registers the loader of Python maps (machine.address_map: {file, class}) and declares
// own_address_maps(kind, file) in the module: the maps of a Python file or a plugin library.
void bind_address_maps(pybind11::module_& module);

}  // namespace mmsim
