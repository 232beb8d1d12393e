// A program's check of its own result, element by element.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace mmsim {

class Verification {
 public:
  // Counts one checked element; remembers the first mismatch. `what()` names the element; it
  // is called only for the first mismatch, so checking stays cheap.
  template <class T, class What>
  void expect_equal(const T& got, const T& expected, What&& what) {
    ++checked_;
    if (got == expected) [[likely]]
      return;
    if (++mismatches_ == 1)
      first_ = what() + ": got " + std::to_string(got) + ", expected " + std::to_string(expected);
  }
  // Counts `n` elements found correct by the caller's own (vectorised) comparison.
  void passed(std::uint64_t n) { checked_ += n; }
  // Something wrong that is not one element (a count, a shape).
  void fail(const std::string& message) {
    ++checked_;
    if (++mismatches_ == 1) first_ = message;
  }

  bool applicable() const { return checked_ > 0; }
  bool passed() const { return applicable() && mismatches_ == 0; }
  std::uint64_t checked() const { return checked_; }
  std::uint64_t mismatches() const { return mismatches_; }
  const std::string& first_mismatch() const { return first_; }

 private:
  std::uint64_t checked_ = 0;
  std::uint64_t mismatches_ = 0;
  std::string first_;
};

}  // namespace mmsim
