// Four lanes side by side as one GCC vector: one x86-64-v3 register, two baseline ones. For the
// per-lane loops that GCC vectorises poorly on its own (a trip count it cannot see, a reduction
// it does not unroll), written once for both variants of with_vector_isa: sixteen lanes a step
// (four vectors, no loop-carried wait between them), lanes loaded and stored with memcpy (no
// alignment needed).
#pragma once

#include "hw/support/types.hpp"

namespace mmsim {

using FourAddresses = Address __attribute__((vector_size(4 * sizeof(Address))));
using FourWords = Word __attribute__((vector_size(4 * sizeof(Word))));

}  // namespace mmsim
