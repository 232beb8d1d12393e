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
#include "hw/support/types.hpp"
#include "hw/support/vector_isa.hpp"

#if defined(__GNUC__) && !defined(__clang__)
#define MMSIM_LANES_APART _Pragma("GCC ivdep")
#else
#define MMSIM_LANES_APART
#endif

namespace mmsim {

// The pointers of a LaneTable's arrays, for the per-lane loops: with_lanes hands a loop a copy,
// whose pointers stay in registers (through a reference, a pointer read only under a condition
// stays in the loop, which then does not vectorise).
template <class Name>
struct LanePointers {
  static constexpr std::size_t kArrays = static_cast<std::size_t>(Name::count);
  std::uint64_t* operator[](Name name) const { return arrays[static_cast<std::size_t>(name)]; }
  // The same array as words (keys and values: signed, as memory's cells).
  Word* words(Name name) const { return reinterpret_cast<Word*>((*this)[name]); }

  std::size_t n = 0;  // lanes
  std::uint64_t* arrays[kArrays] = {};
};

// A warp's per-lane arrays, named by the enumerators of Name (an enum class ending in `count`),
// in one block in that order, each on whole cache lines of its own: between two instructions of
// a warp the other warps run, and its arrays leave the first-level cache; an array of 32 words
// then comes back as 4 lines, not as 5 where it starts in the middle of one (a std::vector's
// 16-byte alignment). That moved the sorts' wall time where fewer instructions had not
// (cole_merge_sort at 2^19: 2.53 s against 2.77 s, medians of 10 paired runs). Zero at first,
// as a std::vector's words. Addresses, counts and masks are unsigned 64-bit words (Address is
// one); words(name) gives an array as Words.
template <class Name>
class LaneTable {
 public:
  explicit LaneTable(std::size_t lanes)
      : stride_((lanes + kLineWords - 1) / kLineWords * kLineWords),
        words_(static_cast<std::uint64_t*>(
            ::operator new (kArrays* stride_ * sizeof(std::uint64_t), std::align_val_t{kLine}))) {
    std::fill_n(words_.get(), kArrays * stride_, std::uint64_t{0});
    pointers_.n = lanes;
    for (std::size_t i = 0; i < kArrays; ++i) {
      pointers_.arrays[i] = words_.get() + i * stride_;
      spans_[i] = {pointers_.arrays[i], lanes};
      word_spans_[i] = {reinterpret_cast<Word*>(pointers_.arrays[i]), lanes};
    }
  }
  LaneTable(const LaneTable&) = delete;
  LaneTable& operator=(const LaneTable&) = delete;

  // References to spans kept here: a warp program's co_await on an instruction that names an
  // array then holds no copy of its span in the coroutine's frame (a temporary would live there
  // until the warp resumes).
  const std::span<std::uint64_t>& operator[](Name name) const { return spans_[index(name)]; }
  const std::span<Word>& words(Name name) const { return word_spans_[index(name)]; }
  std::size_t lanes() const { return pointers_.n; }
  const LanePointers<Name>& pointers() const { return pointers_; }

 private:
  static constexpr std::size_t kArrays = LanePointers<Name>::kArrays;
  static constexpr std::size_t kLine = 64;
  static constexpr std::size_t kLineWords = kLine / sizeof(std::uint64_t);
  struct Free {
    void operator()(std::uint64_t* words) const {
      ::operator delete (words, std::align_val_t{kLine});
    }
  };
  static std::size_t index(Name name) { return static_cast<std::size_t>(name); }

  LanePointers<Name> pointers_;  // first: at the table's own address, which the steps hold
  std::size_t stride_;
  std::unique_ptr<std::uint64_t, Free> words_;
  std::span<std::uint64_t> spans_[kArrays];
  std::span<Word> word_spans_[kArrays];
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

// f(a) compiled for the vector instruction set in use (with_vector_isa), `a` a copy of the
// table's pointers (LanePointers); f's loops use for_lanes. f comes by value, so that what it
// captured, as the pointers, stays in registers (by a __restrict__ reference it cost 12
// instructions more per dispatch). For the per-lane steps of a warp program, out of line
// ([[gnu::noinline]]): see for_each_lane.
template <class Name, class F>
[[gnu::always_inline]] inline decltype(auto) with_lanes(const LaneTable<Name>& lanes, F f) {
  return with_vector_isa([&pointers = lanes.pointers(), f] {
    const LanePointers<Name> a = pointers;
    return f(a);
  });
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
