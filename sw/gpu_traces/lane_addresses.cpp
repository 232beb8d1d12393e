#include "sw/gpu_traces/lane_addresses.hpp"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "hw/support/vector_isa.hpp"
#include "sw/gpu_traces/line_fields.hpp"

namespace mmsim {
namespace {

constexpr std::size_t kLineBytes = kTraceLanes * kLaneAddressBytes;

// "0x" before each lane's digits and a blank after them (after the last lane, the blank may be
// missing: the text then ends there): the blank and "0x" between two lanes compared at once.
bool frames_are_printed_form(const char* text, std::size_t size) {
  bool bad = std::memcmp(text, "0x", 2) != 0;
  for (unsigned lane = 1; lane < kTraceLanes; ++lane)
    bad |= std::memcmp(text + lane * kLaneAddressBytes - 1, " 0x", 3) != 0;
  return !bad && (size == kLineBytes - 1 || text[kLineBytes - 1] == ' ');
}

#if defined(__x86_64__)

// Per byte of 16 digits: whether it is a digit, and whether a letter a-f of either case (signed
// byte compares: bytes from 0x80 up are negative, so neither).
struct DigitClasses128 {
  __m128i digit, letter;
};
inline DigitClasses128 classes(__m128i c) {
  const __m128i lower = _mm_or_si128(c, _mm_set1_epi8(0x20));
  return {_mm_and_si128(_mm_cmpgt_epi8(c, _mm_set1_epi8('0' - 1)),
                        _mm_cmplt_epi8(c, _mm_set1_epi8('9' + 1))),
          _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                        _mm_cmplt_epi8(lower, _mm_set1_epi8('f' + 1)))};
}

// The digits' values (low four bits, plus 9 for a letter), two digits to a byte, first digit
// highest: the first 8 bytes of the result hold the number, most significant byte first.
inline __m128i packed_digits(__m128i c, __m128i letter) {
  const __m128i nibble =
      _mm_add_epi8(_mm_and_si128(c, _mm_set1_epi8(0x0f)), _mm_and_si128(letter, _mm_set1_epi8(9)));
  const __m128i pairs = _mm_or_si128(_mm_slli_epi16(nibble, 4), _mm_srli_epi16(nibble, 8));
  return _mm_packus_epi16(_mm_and_si128(pairs, _mm_set1_epi16(0x00ff)), _mm_setzero_si128());
}

inline std::uint64_t big_endian(long long bytes) {
  return __builtin_bswap64(static_cast<std::uint64_t>(bytes));
}

// Any x86-64 CPU: one lane's 16 digits per 128-bit register.
bool digits_sse2(const char* text, std::array<std::uint64_t, kTraceLanes>& address,
                 std::uint32_t& mask) {
  int valid = 0xffff;
  mask = 0;
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) {
    const __m128i c =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + lane * kLaneAddressBytes + 2));
    const DigitClasses128 k = classes(c);
    valid &= _mm_movemask_epi8(_mm_or_si128(k.digit, k.letter));
    address[lane] = big_endian(_mm_cvtsi128_si64(packed_digits(c, k.letter)));
    mask |= std::uint32_t{address[lane] != 0} << lane;
  }
  return valid == 0xffff;
}

#if !defined(__clang__)
// x86-64-v3: two lanes per 256-bit register, four lanes a step (the helpers are compiled for it
// and inlined into digits_avx2). A build for the build machine's CPU (MMSIM_NATIVE) with AVX2
// compiles everything for it already: there the functions keep the build's target, since GCC
// cannot inline its AVX2 intrinsics (compiled for that CPU) into code for x86-64-v3 alone.
#if defined(__AVX2__)
#define MMSIM_FOR_X86_64_V3
#else
#define MMSIM_FOR_X86_64_V3 gnu::target("arch=x86-64-v3"),
#endif

// Whether the bytes of the 32 at `at` that `bits` selects are those of `expected`.
[[MMSIM_FOR_X86_64_V3 gnu::always_inline]] inline bool framed(const char* at,
                                                                         __m256i expected,
                                                                         unsigned bits) {
  const auto equal = static_cast<unsigned>(_mm256_movemask_epi8(
      _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(at)), expected)));
  return (equal & bits) == bits;
}

// The 16 digits at p and the 16 a lane later as two numbers, in 64-bit elements 0 and 2; clears
// bits of `valid` where a byte is not a hexadecimal digit. Each byte's class is looked up by
// its high and its low four bits (pshufb): bit 0 a digit ('0'-'9': high 3, low 0-9), bit 1 a
// letter ('A'-'F', 'a'-'f': high 4 or 6, low 1-6); a digit's value is its low four bits plus 9
// for a letter.
[[MMSIM_FOR_X86_64_V3 gnu::always_inline]] inline __m256i two_lanes(const char* p,
                                                                               unsigned& valid) {
  const __m256i c = _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + kLaneAddressBytes)), 1);
  const __m256i low_bits = _mm256_set1_epi8(0x0f);
  const __m256i low = _mm256_and_si256(c, low_bits);
  const __m256i high = _mm256_and_si256(_mm256_srli_epi16(c, 4), low_bits);
  const __m256i by_low = _mm256_setr_epi8(1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0,  //
                                          1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0);
  const __m256i by_high = _mm256_setr_epi8(0, 0, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0,  //
                                           0, 0, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i letter_offset = _mm256_setr_epi8(0, 0, 0, 0, 9, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                 0, 0, 0, 0, 9, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i classes = _mm256_and_si256(_mm256_shuffle_epi8(by_low, low),
                                           _mm256_shuffle_epi8(by_high, high));
  valid &= ~static_cast<unsigned>(
      _mm256_movemask_epi8(_mm256_cmpeq_epi8(classes, _mm256_setzero_si256())));
  const __m256i nibble = _mm256_add_epi8(low, _mm256_shuffle_epi8(letter_offset, high));
  // Digit pairs as bytes (16 * first + second), then within each 128-bit half the eight pairs'
  // bytes last pair first: a little-endian 64-bit number.
  const __m256i pairs = _mm256_maddubs_epi16(nibble, _mm256_set1_epi16(0x0110));
  const __m256i reverse =
      _mm256_setr_epi8(14, 12, 10, 8, 6, 4, 2, 0, -1, -1, -1, -1, -1, -1, -1, -1,  //
                       14, 12, 10, 8, 6, 4, 2, 0, -1, -1, -1, -1, -1, -1, -1, -1);
  return _mm256_shuffle_epi8(pairs, reverse);
}

// The frames are checked here too: a 32-byte load from the blank before a pair of lanes holds
// its blank and "0x" (bytes 0-2), the first lane's blank and the second lane's "0x" (bytes
// 19-21); the blank after the second is the next pair's first. The first pair has no blank
// before it: loaded from its start (bytes 0-1 and 18-20).
[[MMSIM_FOR_X86_64_V3]] bool digits_avx2(
    const char* text, std::size_t size, std::array<std::uint64_t, kTraceLanes>& address,
    std::uint32_t& mask) {
  const __m256i frame = _mm256_setr_epi8(' ', '0', 'x', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  //
                                         0, 0, 0, ' ', '0', 'x', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i first_frame = _mm256_setr_epi8('0', 'x', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                               0, 0, ' ', '0', 'x', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  constexpr unsigned kFrame = 0b111u | 0b111u << 19, kFirstFrame = 0b11u | 0b111u << 18;
  unsigned valid = ~0u;
  bool frames = framed(text, first_frame, kFirstFrame);
  mask = 0;
  for (unsigned lane = 0; lane < kTraceLanes; lane += 4) {
    const char* p = text + lane * kLaneAddressBytes;
    if (lane > 0) frames &= framed(p - 1, frame, kFrame);
    frames &= framed(p + 2 * kLaneAddressBytes - 1, frame, kFrame);
    const __m256i a = two_lanes(p + 2, valid);                          // lanes 0, 1 of four
    const __m256i b = two_lanes(p + 2 * kLaneAddressBytes + 2, valid);  // lanes 2, 3
    const __m256i four = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(a, b), 0b11011000);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(address.data() + lane), four);
    const auto zero = static_cast<unsigned>(_mm256_movemask_pd(
        _mm256_castsi256_pd(_mm256_cmpeq_epi64(four, _mm256_setzero_si256()))));
    mask |= (~zero & 0xfu) << lane;
  }
  return valid == ~0u && frames && (size == kLineBytes - 1 || text[kLineBytes - 1] == ' ');
}
#endif

#endif

// Other CPUs: eight digits at a time in a 64-bit word.
[[maybe_unused]] bool digits_portable(const char* text,
                                      std::array<std::uint64_t, kTraceLanes>& address,
                                      std::uint32_t& mask) {
  mask = 0;
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) {
    const char* p = text + lane * kLaneAddressBytes + 2;
    std::uint32_t high = 0, low = 0;
    if (!LineFields::eight_hex_digits(p, high) || !LineFields::eight_hex_digits(p + 8, low))
      return false;
    address[lane] = std::uint64_t{high} << 32 | low;
    mask |= std::uint32_t{address[lane] != 0} << lane;
  }
  return true;
}

}  // namespace

bool parse_lane_addresses(std::string_view text, std::array<std::uint64_t, kTraceLanes>& address,
                          std::uint32_t& mask) {
  if (text.size() != kLineBytes && text.size() != kLineBytes - 1) return false;
#if defined(__x86_64__) && !defined(__clang__)
  if (vector_isa() >= VectorIsa::x86_64_v3)  // x86-64-v4 holds x86-64-v3
    return digits_avx2(text.data(), text.size(), address, mask);
#endif
  if (!frames_are_printed_form(text.data(), text.size())) return false;
#if defined(__x86_64__)
  return digits_sse2(text.data(), address, mask);
#else
  return digits_portable(text.data(), address, mask);
#endif
}

}  // namespace mmsim
