#include "hw/support/vector_isa.hpp"

#include <stdexcept>
#include <string>

namespace mmsim {
namespace {

VectorIsa widest_supported() {
  return cpu_supports(VectorIsa::x86_64_v3) ? VectorIsa::x86_64_v3 : VectorIsa::baseline;
}

}  // namespace

namespace vector_isa_detail {
VectorIsa active = widest_supported();
}  // namespace vector_isa_detail

std::string_view vector_isa_name(VectorIsa isa) {
  return isa == VectorIsa::x86_64_v3 ? "x86-64-v3" : "baseline";
}

bool cpu_supports(VectorIsa isa) {
  if (isa == VectorIsa::baseline) return true;
#if defined(__x86_64__)
  __builtin_cpu_init();  // it may run before the constructor that does this
#endif
#if defined(__x86_64__) && defined(__clang__)
  // clang names the features one by one: those of x86-64-v3 the compiler uses in loops.
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
         __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt") &&
         __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c") &&
         __builtin_cpu_supports("sse4.2");
#elif defined(__x86_64__)
  return __builtin_cpu_supports("x86-64-v3");
#else
  return false;
#endif
}

VectorIsa vector_isa() { return vector_isa_detail::active; }

void use_vector_isa(VectorIsa isa) {
  if (!cpu_supports(isa))
    throw std::invalid_argument("this CPU does not run code compiled for " +
                                std::string(vector_isa_name(isa)));
  vector_isa_detail::active = isa;
}

}  // namespace mmsim
