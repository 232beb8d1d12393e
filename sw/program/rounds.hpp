// Programs in which each of the p threads handles n/p of n words, one per round.
#pragma once

#include <cstdint>
#include <string>

#include "sw/program/input_error.hpp"

namespace mmsim {

// The number of rounds n/p, or a ParamError on n when p does not divide it. `per_thread` says
// what a thread does, e.g. "accesses n/p cells".
inline std::uint64_t rounds_of(std::uint64_t n, std::uint64_t p, const std::string& per_thread) {
  if (n < p || n % p != 0)
    throw ParamError("n", "n = " + std::to_string(n) + " must be a multiple of p = " +
                              std::to_string(p) + " (each thread " + per_thread + ")");
  return n / p;
}

}  // namespace mmsim
