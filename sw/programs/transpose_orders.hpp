// The orders of the transposes of a sqrt(n) x sqrt(n) matrix by column of the papers' tables.
// Every transpose reads or writes its matrix row by row on one side; on the other side it goes
// down columns (the naive and the exchange transposes) or along diagonals (the diagonal ones).
#pragma once

#include <cstdint>

#include "sw/program/model_bounds.hpp"

namespace mmsim {

enum class CrossAccess { column, diagonal };

// `dmm` is the DMM's order, which each algorithm's own paper states. The others: SDMM Nakano and
// Matsumae 2013, Theorem 3; RSDMM their Theorem 8; UMM a column or a diagonal crosses
// min(w, sqrt(n)) address groups per warp (docs/programs.md, "Bounds on every model"); BPRAM
// and PRAM Nakano 2012, section IV.
OrdersByColumn transpose_orders(const MachineConfig& m, std::uint64_t n, std::uint64_t side,
                                CrossAccess access, TimeOrder dmm);

}  // namespace mmsim
