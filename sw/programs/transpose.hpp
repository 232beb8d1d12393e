// Nakano and Matsumae 2013, section III: transposing a sqrt(n) x sqrt(n) matrix a (at m[0..n)) into
// b (at m[n..2n)) with p threads. In round t thread i takes element number t*p + i in row-major
// order, j = (t*p + i) div sqrt(n), k = (t*p + i) mod sqrt(n), reads one element of a and writes it
// to b:
//   transpose_naive:    b[k][j] <- a[j][k]   (rows of a in order; columns of b)
//   transpose_diagonal: b[k][(j+k) mod sqrt(n)] <- a[(j+k) mod sqrt(n)][k]   (a diagonal of both)
#pragma once

#include "sw/program/program_info.hpp"

namespace mmsim {

ProgramInfo transpose_naive_program();
ProgramInfo transpose_diagonal_program();

}  // namespace mmsim
