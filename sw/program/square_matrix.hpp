// Programs on a sqrt(n) x sqrt(n) matrix stored row-major: a[i][j] at i*sqrt(n) + j.
#pragma once

#include <cstdint>
#include <string>

#include "sw/program/input_error.hpp"
#include "sw/support/integer_sqrt.hpp"

namespace mmsim {

// sqrt(n), or a ParamError on `param` naming the nearest squares when n is not one.
inline std::uint64_t square_side(std::uint64_t n, const std::string& param) {
  const std::uint64_t side = integer_sqrt(n);
  if (side * side != n)
    throw ParamError(param, param + " = " + std::to_string(n) +
                                " is not a perfect square (the matrix is sqrt(n) x sqrt(n)); " +
                                std::to_string(side * side) + " or " +
                                std::to_string((side + 1) * (side + 1)) + " would be");
  return side;
}

}  // namespace mmsim
