// An address map written in Python (a subclass of mmsim.AddressMap, docs/own_maps.md) as the
// machine runs it: a RowSource whose rows are the class's banks(row), asked once per row, or
// its banks_block(first, count), asked once per block of rows (the machine keeps them in a
// table: hw/memory/tabulated_map.hpp), each row checked to be a permutation of the w banks,
// given as a list, tuple or numpy array of integers (a block: a count x w array read through
// the buffer protocol, or a list of rows).
#pragma once

#include <pybind11/pybind11.h>

namespace mmsim {

// Registers the loader of Python maps (machine.address_map: {file, class}) and declares
// own_address_maps(kind, file) in the module: the maps of a Python file or a plugin library.
void bind_address_maps(pybind11::module_& module);

}  // namespace mmsim
