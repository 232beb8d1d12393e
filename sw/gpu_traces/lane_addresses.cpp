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
// x86-64-v3: two lanes per 256-bit register (built where vector_isa.hpp's variants are).
[[gnu::target("arch=x86-64-v3")]] bool digits_avx2(
    const char* text, std::array<std::uint64_t, kTraceLanes>& address, std::uint32_t& mask) {
  unsigned valid = ~0u;
  mask = 0;
  const __m256i before_0 = _mm256_set1_epi8('0' - 1), after_9 = _mm256_set1_epi8('9' + 1);
  const __m256i before_a = _mm256_set1_epi8('a' - 1), after_f = _mm256_set1_epi8('f' + 1);
  const __m256i case_bit = _mm256_set1_epi8(0x20), low_bits = _mm256_set1_epi8(0x0f);
  const __m256i letter_offset = _mm256_set1_epi8(9), low_byte = _mm256_set1_epi16(0x00ff);
  for (unsigned lane = 0; lane < kTraceLanes; lane += 2) {
    const char* p = text + lane * kLaneAddressBytes + 2;
    const __m256i c = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + kLaneAddressBytes)), 1);
    const __m256i lower = _mm256_or_si256(c, case_bit);
    const __m256i digit =
        _mm256_and_si256(_mm256_cmpgt_epi8(c, before_0), _mm256_cmpgt_epi8(after_9, c));
    const __m256i letter =
        _mm256_and_si256(_mm256_cmpgt_epi8(lower, before_a), _mm256_cmpgt_epi8(after_f, lower));
    valid &= static_cast<unsigned>(_mm256_movemask_epi8(_mm256_or_si256(digit, letter)));
    const __m256i nibble =
        _mm256_add_epi8(_mm256_and_si256(c, low_bits), _mm256_and_si256(letter, letter_offset));
    const __m256i pairs =
        _mm256_or_si256(_mm256_slli_epi16(nibble, 4), _mm256_srli_epi16(nibble, 8));
    const __m256i bytes =
        _mm256_packus_epi16(_mm256_and_si256(pairs, low_byte), _mm256_setzero_si256());
    address[lane] = big_endian(_mm256_extract_epi64(bytes, 0));
    address[lane + 1] = big_endian(_mm256_extract_epi64(bytes, 2));
    mask |= (std::uint32_t{address[lane] != 0} | std::uint32_t{address[lane + 1] != 0} << 1)
            << lane;
  }
  return valid == ~0u;
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
  if (!frames_are_printed_form(text.data(), text.size())) return false;
#if defined(__x86_64__)
#if !defined(__clang__)
  if (vector_isa() == VectorIsa::x86_64_v3) return digits_avx2(text.data(), address, mask);
#endif
  return digits_sse2(text.data(), address, mask);
#else
  return digits_portable(text.data(), address, mask);
#endif
}

}  // namespace mmsim
