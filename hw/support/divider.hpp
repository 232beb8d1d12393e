// Division by the run-time constant w without a hardware divide on the hot path.
#pragma once

#include <bit>
#include <cstdint>

namespace mmsim {

// Exact quotient and remainder of 32-bit numerators by a fixed divisor (Lemire's fastmod),
// with a shift/mask path when the divisor is a power of two.
class Divider {
 public:
  explicit Divider(std::uint32_t divisor)
      : divisor_(divisor),
        power_of_two_(std::has_single_bit(divisor)),
        shift_(static_cast<unsigned>(std::countr_zero(divisor))),
        magic_(divisor > 1 ? ~std::uint64_t{0} / divisor + 1 : 0) {}

  std::uint32_t divisor() const { return divisor_; }
  bool power_of_two() const { return power_of_two_; }

  std::uint32_t quotient(std::uint64_t x) const {
    if (power_of_two_) return static_cast<std::uint32_t>(x >> shift_);
    return static_cast<std::uint32_t>((static_cast<__uint128_t>(magic_) * x) >> 64);
  }
  std::uint32_t remainder(std::uint64_t x) const {
    if (power_of_two_) return static_cast<std::uint32_t>(x & (divisor_ - 1));
    const std::uint64_t low = magic_ * x;
    return static_cast<std::uint32_t>((static_cast<__uint128_t>(low) * divisor_) >> 64);
  }

 private:
  std::uint32_t divisor_;
  bool power_of_two_;
  unsigned shift_;
  std::uint64_t magic_;
};

}  // namespace mmsim
