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

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>

#include "hw/support/four_lanes.hpp"

#if defined(__GNUC__) && !defined(__clang__)
#define MMSIM_LANES_APART _Pragma("GCC ivdep")
#else
#define MMSIM_LANES_APART
#endif

namespace mmsim {

// A warp's per-lane arrays of words in one block, each on whole cache lines of its own: between
// two instructions of a warp the other warps run, and its arrays leave the first-level cache; an
// array of 32 words then comes back as 4 lines, not as 5 where it starts in the middle of one
// (a std::vector's 16-byte alignment). Zero at first, as a std::vector's words.
class LaneArrays {
 public:
  LaneArrays(std::size_t arrays, std::size_t lanes)
      : lanes_(lanes),
        stride_((lanes + kLineWords - 1) / kLineWords * kLineWords),
        words_(static_cast<std::uint64_t*>(
            ::operator new (arrays* stride_ * sizeof(std::uint64_t), std::align_val_t{kLine}))) {
    std::fill_n(words_.get(), arrays * stride_, std::uint64_t{0});
  }
  // Array i, of words or of another 64-bit type (Word, Address: the same storage).
  template <class T = std::uint64_t>
  std::span<T> array(std::size_t i) const {
    static_assert(sizeof(T) == sizeof(std::uint64_t));
    return {reinterpret_cast<T*>(words_.get() + i * stride_), lanes_};
  }

 private:
  static constexpr std::size_t kLine = 64;
  static constexpr std::size_t kLineWords = kLine / sizeof(std::uint64_t);
  struct Free {
    void operator()(std::uint64_t* words) const {
      ::operator delete (words, std::align_val_t{kLine});
    }
  };
  std::size_t lanes_;
  std::size_t stride_;
  std::unique_ptr<std::uint64_t, Free> words_;
};

// x < y for counts and indices (below 2^63) as a signed comparison: the vector units compare
// 64-bit lanes signed only, and unsigned costs two more operations.
inline bool less_count(std::uint64_t x, std::uint64_t y) {
  return static_cast<std::int64_t>(x) < static_cast<std::int64_t>(y);
}

// The warp width of the thesis' machines and of most configs. A loop over exactly this many
// lanes has a constant trip count: a whole number of vectors, so no prologue or epilogue for a
// remainder, and no test of the count.
inline constexpr std::size_t kUsualWidth = 32;

// body(lane) for lane = 0 .. n - 1 as a loop the compiler vectorises, the lanes' arrays apart;
// for n = kUsualWidth with the count as a constant. For the loops inside with_vector_isa's
// functions (inlined there; a lambda that captures by reference costs nothing).
template <class Body>
[[gnu::always_inline]] inline void for_lanes(std::size_t n, Body&& body) {
  if (n == kUsualWidth) {
    MMSIM_LANES_APART
    for (std::size_t lane = 0; lane < kUsualWidth; ++lane) body(lane);
  } else {
    MMSIM_LANES_APART
    for (std::size_t lane = 0; lane < n; ++lane) body(lane);
  }
}

// All ones where `on` holds, else zero.
inline std::uint64_t lane_mask(bool on) { return 0 - static_cast<std::uint64_t>(on); }
// `yes` where the mask is all ones, `no` where it is zero.
inline std::uint64_t pick(std::uint64_t mask, std::uint64_t yes, std::uint64_t no) {
  return (yes & mask) | (no & ~mask);
}

// The largest of the counts x[0 .. n) (below 2^63; 0 for n = 0), four at a time: the vector
// units have no 64-bit maximum for the vectoriser to use, so it is written with GCC's vector
// extension (a comparison and masks).
inline std::uint64_t largest_count(const std::uint64_t* x, std::size_t n) {
  std::int64_t most = 0;
  std::size_t i = 0;
  if (n >= 4) {
    FourWords m{};
    for (; i + 4 <= n; i += 4) {
      FourWords v;
      std::memcpy(&v, x + i, sizeof v);
      m ^= (m ^ v) & (v > m);
    }
    for (int j = 0; j < 4; ++j) most = std::max(most, static_cast<std::int64_t>(m[j]));
  }
  for (; i < n; ++i) most = std::max(most, static_cast<std::int64_t>(x[i]));
  return static_cast<std::uint64_t>(most);
}

}  // namespace mmsim
