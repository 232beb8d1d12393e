// The in-place transposes of Nakano 2012, section IV (and its journal version), of a
// sqrt(n) x sqrt(n) matrix a at m[0..n). In round t thread i takes element e = t*p + i,
// j = e div sqrt(n), k = e mod sqrt(n):
//   transpose_diagonal_in_place (Lemma 2, the DMM): b[j][k] <- a[j][k] into a work array b at
//     m[n..2n), a barrier, then a[(j+k) mod sqrt(n)][k] <- b[k][(j+k) mod sqrt(n)]: both passes
//     conflict-free, 4n/w stages;
//   transpose_exchange (the straightforward transpose): thread i exchanges a[j][k] and a[k][j].
//     As printed every pair is exchanged by both of its threads, twice, and the matrix comes
//     back unchanged wherever the two fall in different rounds; `variant: corrected` lets only
//     the thread with j < k exchange.
#pragma once

#include "sw/program/program_info.hpp"

namespace mmsim {

ProgramInfo transpose_diagonal_in_place_program();
ProgramInfo transpose_exchange_program();

}  // namespace mmsim
