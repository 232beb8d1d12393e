#include "sw/programs/bit_staging.hpp"

#include <algorithm>
#include <stdexcept>

namespace mmsim {
namespace {

// The bits of x at `positions` (increasing), packed from bit 0.
std::uint64_t gather(std::uint64_t x, const std::vector<unsigned>& positions) {
  std::uint64_t out = 0;
  for (std::size_t k = 0; k < positions.size(); ++k) out |= (x >> positions[k] & 1u) << k;
  return out;
}

// Bit k of x placed at positions[k].
std::uint64_t scatter(std::uint64_t x, const std::vector<unsigned>& positions) {
  std::uint64_t out = 0;
  for (std::size_t k = 0; k < positions.size(); ++k) out |= (x >> k & 1u) << positions[k];
  return out;
}

}  // namespace

BitPermutation::BitPermutation(std::vector<unsigned> to) : to_(std::move(to)) {
  std::vector<bool> seen(to_.size());
  for (const unsigned b : to_) {
    if (b >= to_.size() || seen[b]) throw std::invalid_argument("not a permutation of the bits");
    seen[b] = true;
  }
}

BitPermutation BitPermutation::transpose(unsigned m) {
  std::vector<unsigned> to(m);
  for (unsigned b = 0; b < m; ++b) to[b] = (b + m / 2) % m;
  return BitPermutation(std::move(to));
}

BitPermutation BitPermutation::shuffle(unsigned m) {
  std::vector<unsigned> to(m);
  for (unsigned b = 0; b < m; ++b) to[b] = (b + 1) % m;
  return BitPermutation(std::move(to));
}

BitPermutation BitPermutation::bit_reversal(unsigned m) {
  std::vector<unsigned> to(m);
  for (unsigned b = 0; b < m; ++b) to[b] = m - 1 - b;
  return BitPermutation(std::move(to));
}

std::uint64_t BitPermutation::operator()(std::uint64_t source) const {
  std::uint64_t out = 0;
  for (unsigned b = 0; b < bits(); ++b) out |= (source >> b & 1u) << to_[b];
  return out;
}

std::uint64_t BitPermutation::inverse(std::uint64_t destination) const {
  std::uint64_t out = 0;
  for (unsigned b = 0; b < bits(); ++b) out |= (destination >> to_[b] & 1u) << b;
  return out;
}

std::uint64_t BitStaging::smallest_chunk(const BitPermutation& sigma, unsigned lw) {
  unsigned needed = std::min(lw, sigma.bits());
  for (unsigned b = lw; b < sigma.bits(); ++b) needed += sigma.to(b) < lw;
  return std::uint64_t{1} << needed;
}

BitStaging::BitStaging(BitPermutation sigma, unsigned lw, unsigned f)
    : sigma_(std::move(sigma)), lw_(lw) {
  const unsigned m = sigma_.bits();
  std::vector<bool> is_free(m);
  unsigned count = 0;
  for (unsigned b = 0; b < m; ++b)
    if (b < lw || sigma_.to(b) < lw) {
      is_free[b] = true;
      ++count;
    }
  if (count > f || f > m) throw std::invalid_argument("chunk too small for the bit permutation");
  for (unsigned b = 0; b < m && count < f; ++b)
    if (!is_free[b]) {
      is_free[b] = true;
      ++count;
    }
  for (unsigned b = 0; b < m; ++b) {
    (is_free[b] ? free_ : chunk_bits_).push_back(b);
    if (is_free[b]) free_to_.push_back(sigma_.to(b));
    if (b >= lw && sigma_.to(b) < lw) swizzle_from_.push_back(b);
    if (b < lw && sigma_.to(b) >= lw) swizzle_to_.push_back(b);
  }
  std::sort(free_to_.begin(), free_to_.end());
}

std::uint64_t BitStaging::source(std::uint64_t c, std::uint64_t u) const {
  return scatter(u, free_) | scatter(c, chunk_bits_);
}

std::uint64_t BitStaging::destination(std::uint64_t c, std::uint64_t v) const {
  return scatter(v, free_to_) | sigma_(scatter(c, chunk_bits_));
}

Address BitStaging::slot(std::uint64_t i) const {
  const std::uint64_t lanes = (std::uint64_t{1} << lw_) - 1;
  const std::uint64_t row = gather(i, free_) >> lw_;
  const std::uint64_t bank = (i & lanes) ^ scatter(gather(i, swizzle_from_), swizzle_to_);
  return (row << lw_) | bank;
}

}  // namespace mmsim
