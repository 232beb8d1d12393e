#include "hw/support/vector_isa.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <stdexcept>
#include <string>

namespace mmsim {
namespace {

VectorIsa widest_supported() {
  for (const VectorIsa isa : {VectorIsa::x86_64_v4, VectorIsa::x86_64_v3})
    if (built_for(isa) && cpu_supports(isa)) return isa;
  return VectorIsa::baseline;
}

}  // namespace

namespace vector_isa_detail {
VectorIsa active = widest_supported();
}  // namespace vector_isa_detail

std::string_view vector_isa_name(VectorIsa isa) {
  switch (isa) {
    case VectorIsa::x86_64_v3:
      return "x86-64-v3";
    case VectorIsa::x86_64_v4:
      return "x86-64-v4";
    case VectorIsa::baseline:
      break;
  }
  return "baseline";
}

bool cpu_supports(VectorIsa isa) {
  if (isa == VectorIsa::baseline) return true;
#if defined(__x86_64__)
  // The levels read from CPUID, the same way under both compilers (clang's
  // __builtin_cpu_supports names no "x86-64-v3" and, in clang 14, no "f16c"); x86-64-v4 holds
  // all of x86-64-v3.
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  const auto has = [](unsigned reg, int bit) { return ((reg >> bit) & 1u) != 0; };
  const bool leaf1 = has(c, 12) /* FMA */ && has(c, 20) /* SSE4.2 */ && has(c, 22) /* MOVBE */ &&
                     has(c, 23) /* POPCNT */ && has(c, 27) /* OSXSAVE */ &&
                     has(c, 28) /* AVX */ && has(c, 29) /* F16C */;
  if (!leaf1) return false;
  // The operating system saves the vector registers (XCR0: SSE and AVX state).
  unsigned xcr0_low = 0, xcr0_high = 0;
  __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
  if ((xcr0_low & 0x6u) != 0x6u) return false;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  const bool leaf7 = has(b, 3) /* BMI1 */ && has(b, 5) /* AVX2 */ && has(b, 8) /* BMI2 */;
  const bool leaf7_v4 = has(b, 16) /* AVX512F */ && has(b, 17) /* AVX512DQ */ &&
                        has(b, 28) /* AVX512CD */ && has(b, 30) /* AVX512BW */ &&
                        has(b, 31) /* AVX512VL */;
  if (!leaf7 || !__get_cpuid(0x80000001u, &a, &b, &c, &d)) return false;
  if (!has(c, 5) /* LZCNT */) return false;
  if (isa == VectorIsa::x86_64_v3) return true;
  // x86-64-v4: AVX-512 too, and the operating system saves its mask and upper registers.
  return leaf7_v4 && (xcr0_low & 0xE0u) == 0xE0u;
#else
  return false;
#endif
}

VectorIsa vector_isa() { return vector_isa_detail::active; }

void use_vector_isa(VectorIsa isa) {
  if (!built_for(isa))
    throw std::invalid_argument("this build holds no code for " +
                                std::string(vector_isa_name(isa)));
  if (!cpu_supports(isa))
    throw std::invalid_argument("this CPU does not run code compiled for " +
                                std::string(vector_isa_name(isa)));
  vector_isa_detail::active = isa;
}

}  // namespace mmsim
