// How the warp programs write their per-lane loops so that GCC vectorises them: one element
// per lane of arrays that never overlap (the lanes' buffers), every lane stored plainly.
//
// MMSIM_LANES_APART before such a loop says the arrays never overlap; GCC then vectorises it
// without checking at run time (with many arrays it gives up checking, and the loop stays
// scalar). Clang builds (the sanitized and fuzzing build) leave it out: clang warns at -O1 where
// it cannot vectorise a loop so marked.
//
// A store under a condition becomes a masked store (vpmaskmovq), slow on AMD's cores and in
// the way of the loads that follow it: the loops pick a lane's value with masks instead.
#pragma once

#include <cstdint>

#if defined(__GNUC__) && !defined(__clang__)
#define MMSIM_LANES_APART _Pragma("GCC ivdep")
#else
#define MMSIM_LANES_APART
#endif

namespace mmsim {

// All ones where `on` holds, else zero.
inline std::uint64_t lane_mask(bool on) { return 0 - static_cast<std::uint64_t>(on); }
// `yes` where the mask is all ones, `no` where it is zero.
inline std::uint64_t pick(std::uint64_t mask, std::uint64_t yes, std::uint64_t no) {
  return (yes & mask) | (no & ~mask);
}

}  // namespace mmsim
