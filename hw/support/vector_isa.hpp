// The instruction sets the simulator's per-lane loops are compiled for. A portable build (the
// default) runs on any x86-64 CPU, whose baseline has 128-bit vectors without 64-bit compares or
// per-lane shifts; the hot per-lane loops (the MMU's lane count, the request packing unit, the
// address maps, the coalescer, the congestion experiment's draws, the check of values read) are
// compiled twice more, for x86-64-v3 (AVX2, BMI2, POPCNT: Haswell, Zen and later) and x86-64-v4
// (AVX-512 F, BW, CD, DQ, VL: Skylake-X, Ice Lake, Zen 4 and later), and the widest variant the
// CPU supports is chosen at start-up. Every variant computes the same results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mmsim {

// From the narrowest to the widest: each holds every instruction of those before it.
enum class VectorIsa : std::uint8_t { baseline, x86_64_v3, x86_64_v4 };

std::string_view vector_isa_name(VectorIsa isa);
// Whether this CPU (and its operating system) runs code compiled for `isa`.
bool cpu_supports(VectorIsa isa);
// Whether this build holds code for `isa`. GCC builds hold all three; clang builds (the sanitized
// and fuzzing build) the baseline only: clang 14's x86-64-v3 variant of the congestion
// experiment's draws gave other tables than its baseline (VectorIsa.RunsAndTheCongestionTable...).
constexpr bool built_for([[maybe_unused]] VectorIsa isa) {
#if defined(__x86_64__) && !defined(__clang__)
  return true;
#else
  return isa == VectorIsa::baseline;
#endif
}
// The variant in use: the widest the CPU supports and the build holds, unless use_vector_isa()
// chose another.
VectorIsa vector_isa();
// Uses `isa` from now on (tests compare the variants); it must be one the CPU supports and the
// build holds.
void use_vector_isa(VectorIsa isa);

namespace vector_isa_detail {

// Zero (the baseline) until chosen at start-up.
extern VectorIsa active;

// f() with f's body inlined (flatten), so compiled for the function's instruction set; never
// inlined itself (GCC does not vectorise loops inlined into a coroutine). f comes by value: a
// local object the loop's stores cannot alias, so what it captured stays in registers.
template <class F>
[[gnu::flatten, gnu::noinline]] inline decltype(auto) on_baseline(F f) {
  return f();
}
#if defined(__x86_64__) && !defined(__clang__)
template <class F>
[[gnu::flatten, gnu::noinline, gnu::target("arch=x86-64-v3")]] inline decltype(auto) on_x86_64_v3(
    F f) {
  return f();
}
template <class F>
[[gnu::flatten, gnu::noinline, gnu::target("arch=x86-64-v4")]] inline decltype(auto) on_x86_64_v4(
    F f) {
  return f();
}
#endif

}  // namespace vector_isa_detail

// Runs f() compiled for the variant in use: a per-lane loop written once as a lambda, e.g.
//   return with_vector_isa([&] { std::uint64_t n = 0; for (...) n += ...; return n; });
// Calls inside f are inlined into each variant as far as the compiler can.
template <class F>
inline decltype(auto) with_vector_isa(F&& f) {
#if defined(__x86_64__) && !defined(__clang__)
  if (vector_isa_detail::active == VectorIsa::x86_64_v3) return vector_isa_detail::on_x86_64_v3(f);
  if (vector_isa_detail::active == VectorIsa::x86_64_v4) return vector_isa_detail::on_x86_64_v4(f);
#endif
  return vector_isa_detail::on_baseline(f);
}

// f(lane) for lane = 0 .. lanes - 1, as one loop compiled for the variant in use. Out of line
// on purpose: in a coroutine (a warp program), a loop inlined into the coroutine's body keeps its
// counter and its values in the coroutine's frame, which costs several times more.
//
// In a coroutine's body, give these functions lambdas that capture by reference only, and keep
// functions that capture values out of line ([[gnu::noinline]]): GCC 12, inlining such a lambda's
// making into the coroutine, has reused a value loaded before a co_await as if it were still
// in a register after the coroutine resumed (-march=znver3, merge_steps.cpp's binary search).
template <class F>
[[gnu::noinline]] void for_each_lane(std::size_t lanes, F&& f) {
  with_vector_isa([&f, lanes] {
    for (std::size_t lane = 0; lane < lanes; ++lane) f(lane);
  });
}

}  // namespace mmsim
