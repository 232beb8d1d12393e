// The site of a warp instruction: where it was issued, for profiles and timelines. A C++
// program's site is the line of its `co_await warp.read(...)` (std::source_location, captured by
// a default argument); a program that is not C++ code (a Python program, a trace) gives its own.
// An instruction carries its site as one pointer; the run resolves and interns it into its site
// table only when it profiles (hw/pe/site_table.hpp), so an unprofiled run pays nothing more.
#pragma once

#include <bit>
#include <cstdint>
#include <source_location>
#include <string_view>
#include <type_traits>

namespace mmsim {

// A site a program gives itself. The program owns it, and it must outlive the run: instructions
// point at it.
struct Site {
  std::string_view file;   // "transpose.py", "trace.yaml"; may be empty
  std::uint32_t line = 0;  // 1-based; 0: no line
  std::string_view label;  // what the line does: a function, "PC 0x1a0 LDS.U.32", ...
};

// How an instruction names its site: a std::source_location's static data or a program's Site,
// in one tagged word.
class SiteRef {
 public:
  // Implicit, so that `SiteRef site = std::source_location::current()` as a default argument
  // captures the caller's line.
  SiteRef(std::source_location where) noexcept  // NOLINT(google-explicit-constructor)
      : bits_(std::bit_cast<std::uintptr_t>(where)) {}
  SiteRef(const Site& site) noexcept  // NOLINT(google-explicit-constructor)
      : bits_(reinterpret_cast<std::uintptr_t>(&site) | kGiven) {}
  SiteRef(Site&&) = delete;  // a temporary would be gone before the run reads it
  // No site: an instruction the hardware made itself.
  SiteRef() noexcept = default;

  bool empty() const { return bits_ == 0; }
  // The same for every instruction from one source_location or one Site object.
  std::uintptr_t key() const { return bits_; }
  // A program's own site (else a C++ source line).
  bool given() const { return (bits_ & kGiven) != 0; }
  const Site& site() const { return *reinterpret_cast<const Site*>(bits_ & ~kGiven); }
  std::source_location location() const { return std::bit_cast<std::source_location>(bits_); }

 private:
  static_assert(sizeof(std::source_location) == sizeof(std::uintptr_t) &&
                    std::is_trivially_copyable_v<std::source_location>,
                "a std::source_location is one pointer to its static data");
  static_assert(alignof(Site) > 1, "the low bit of a Site's address is free for the tag");
  static constexpr std::uintptr_t kGiven = 1;
  std::uintptr_t bits_ = 0;
};

}  // namespace mmsim
