#include "hw/support/lane_mask.hpp"

#include <bit>
#include <cstddef>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "hw/support/four_lanes.hpp"
#include "hw/support/vector_isa.hpp"

namespace mmsim {
namespace {

// The lanes from `from` on, one at a time.
std::uint64_t active_lanes_from(std::span<const Address> lanes, std::size_t from) {
  std::uint64_t on = 0;
  for (std::size_t i = from; i < lanes.size(); ++i) on |= std::uint64_t{lanes[i] != kInactive} << i;
  return on;
}
std::uint64_t beyond_from(std::span<const Address> lanes, Address words, std::size_t from) {
  std::uint64_t beyond = 0;
  for (std::size_t i = from; i < lanes.size(); ++i) beyond |= std::uint64_t{lanes[i] >= words} << i;
  return beyond;
}

#if defined(__x86_64__)
// The inactive lanes among two, with the baseline's SSE2, which has no 64-bit compare: a lane
// whose two 32-bit halves are all ones.
inline std::uint64_t inactive_pair(const Address* lanes) {
  const __m128i halves =
      _mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(lanes)), _mm_set1_epi32(-1));
  const __m128i both = _mm_and_si128(halves, _mm_shuffle_epi32(halves, 0xB1));  // halves swapped
  return static_cast<std::uint64_t>(_mm_movemask_pd(_mm_castsi128_pd(both)));
}

// Eight lanes a step, their bits gathered at fixed places before the one variable shift.
std::uint64_t active_lanes_baseline(std::span<const Address> lanes) {
  const Address* a = lanes.data();
  std::uint64_t off = 0;
  std::size_t i = 0;
  for (; i + 8 <= lanes.size(); i += 8)
    off |= (inactive_pair(a + i) | inactive_pair(a + i + 2) << 2 | inactive_pair(a + i + 4) << 4 |
            inactive_pair(a + i + 6) << 6)
           << i;
  return (~off & first_lanes(i)) | active_lanes_from(lanes, i);
}
#endif

#if defined(__x86_64__) && !defined(__clang__)
// The x86-64-v3 kernels use GCC's vector types and movmskpd's builtin, not <immintrin.h>: a
// native build defines those intrinsics for its own, wider target, which a function of the
// narrower x86-64-v3 may not inline.
using FourDoubles = double __attribute__((vector_size(4 * sizeof(double))));

// The inactive lanes among four: a vector compare, and movmskpd gathers its lanes' top bits.
[[gnu::target("arch=x86-64-v3")]] inline std::uint64_t inactive_four(const Address* lanes) {
  FourAddresses four;
  std::memcpy(&four, lanes, sizeof four);
  return static_cast<std::uint64_t>(
      __builtin_ia32_movmskpd256(reinterpret_cast<FourDoubles>(four == kInactive)));
}

// Sixteen lanes a step, their bits gathered at fixed places before the one variable shift.
[[gnu::target("arch=x86-64-v3")]] std::uint64_t active_lanes_x86_64_v3(
    std::span<const Address> lanes) {
  const Address* a = lanes.data();
  std::uint64_t off = 0;
  std::size_t i = 0;
  for (; i + 16 <= lanes.size(); i += 16)
    off |= (inactive_four(a + i) | inactive_four(a + i + 4) << 4 | inactive_four(a + i + 8) << 8 |
            inactive_four(a + i + 12) << 12)
           << i;
  for (; i + 4 <= lanes.size(); i += 4) off |= inactive_four(a + i) << i;
  return (~off & first_lanes(i)) | active_lanes_from(lanes, i);
}

// The lanes among four beyond `last` (= words - 1: one compare where >= words takes a second;
// unsigned, so GCC flips the top bits).
[[gnu::target("arch=x86-64-v3")]] inline std::uint64_t beyond_four(const Address* lanes,
                                                                   Address last) {
  FourAddresses four;
  std::memcpy(&four, lanes, sizeof four);
  return static_cast<std::uint64_t>(
      __builtin_ia32_movmskpd256(reinterpret_cast<FourDoubles>(four > last)));
}

// Sixteen lanes a step, as active_lanes_x86_64_v3.
[[gnu::target("arch=x86-64-v3")]] std::uint64_t beyond_x86_64_v3(std::span<const Address> lanes,
                                                                 Address words) {
  const Address* a = lanes.data();
  const Address last = words - 1;
  std::uint64_t beyond = 0;
  std::size_t i = 0;
  for (; i + 16 <= lanes.size(); i += 16)
    beyond |= (beyond_four(a + i, last) | beyond_four(a + i + 4, last) << 4 |
               beyond_four(a + i + 8, last) << 8 | beyond_four(a + i + 12, last) << 12)
              << i;
  for (; i + 4 <= lanes.size(); i += 4) beyond |= beyond_four(a + i, last) << i;
  return beyond | beyond_from(lanes, words, i);
}

[[gnu::target("arch=x86-64-v3")]] ActiveLanes counted_x86_64_v3(std::span<const Address> lanes) {
  const std::uint64_t mask = active_lanes_x86_64_v3(lanes);
  return {static_cast<unsigned>(std::popcount(mask)), mask};
}
#endif

}  // namespace

std::uint64_t active_lane_mask(std::span<const Address> lanes) {
#if defined(__x86_64__) && !defined(__clang__)
  if (vector_isa_detail::active == VectorIsa::x86_64_v3) return active_lanes_x86_64_v3(lanes);
#endif
#if defined(__x86_64__)
  return active_lanes_baseline(lanes);
#else
  return active_lanes_from(lanes, 0);
#endif
}

ActiveLanes active_lanes(std::span<const Address> lanes) {
#if defined(__x86_64__) && !defined(__clang__)
  if (vector_isa_detail::active == VectorIsa::x86_64_v3) return counted_x86_64_v3(lanes);
#endif
  const std::uint64_t mask = active_lane_mask(lanes);
  return {static_cast<unsigned>(std::popcount(mask)), mask};
}

std::uint64_t lanes_at_or_beyond(std::span<const Address> lanes, Address words) {
#if defined(__x86_64__) && !defined(__clang__)
  if (vector_isa_detail::active == VectorIsa::x86_64_v3) return beyond_x86_64_v3(lanes, words);
#endif
  return beyond_from(lanes, words, 0);  // the baseline has no 64-bit compare
}

}  // namespace mmsim
