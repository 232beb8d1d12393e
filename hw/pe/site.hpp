// The site of a warp instruction: where it was issued, for profiles and timelines. A C++
// program's site is the line of its `co_await warp.read(...)` (CodeLocation, captured by a
// default argument); a program that is not C++ code (a Python program, a trace) gives its own.
// An instruction carries its site as one pointer; the run resolves and interns it into its site
// table only when it profiles (hw/pe/site_table.hpp), so an unprofiled run pays nothing more.
#pragma once

#include <bit>
#include <cstdint>
#include <functional>
#include <source_location>
#include <string_view>
#include <type_traits>
#include <version>

namespace mmsim {

// A site a program gives itself. The program owns it, and it must outlive the run: instructions
// point at it.
struct Site {
  std::string_view file;   // "transpose.py", "trace.yaml"; may be empty
  std::uint32_t line = 0;  // 1-based; 0: no line
  std::string_view label;  // what the line does: a function, "PC 0x1a0 LDS.U.32", ...
};

#ifdef __cpp_lib_source_location
// The place of a call in C++ code: one pointer to static data.
using CodeLocation = std::source_location;
#else
// clang 14 with libstdc++ (the sanitizer build's compiler) has no std::source_location, which
// needs a builtin it lacks: the same place from the builtins it has, three words.
class CodeLocation {
 public:
  static constexpr CodeLocation current(const char* file = __builtin_FILE(),
                                        std::uint_least32_t line = __builtin_LINE(),
                                        const char* function = __builtin_FUNCTION()) noexcept {
    CodeLocation where;
    where.file_ = file;
    where.line_ = line;
    where.function_ = function;
    return where;
  }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr const char* function_name() const noexcept { return function_; }
  constexpr std::uint_least32_t line() const noexcept { return line_; }

 private:
  const char* file_ = nullptr;
  const char* function_ = "";
  std::uint_least32_t line_ = 0;
};
#endif

// What tells two sites apart without resolving them: equal for every instruction from one
// CodeLocation (or one Site object).
struct SiteKey {
  std::uintptr_t word = 0;
  std::uint_least32_t line = 0;  // CodeLocations of three words only
  bool operator==(const SiteKey&) const = default;
};

struct SiteKeyHash {
  std::size_t operator()(const SiteKey& key) const noexcept {
    return std::hash<std::uintptr_t>{}(key.word) ^ (std::size_t{key.line} << 1);
  }
};

// How an instruction names its site: a CodeLocation or a program's Site, in one tagged word
// (three words where CodeLocation is).
class SiteRef {
 public:
  // Implicit, so that `SiteRef site = CodeLocation::current()` as a default argument captures
  // the caller's line.
  SiteRef(CodeLocation where) noexcept  // NOLINT(google-explicit-constructor)
#ifdef __cpp_lib_source_location
      : bits_(std::bit_cast<std::uintptr_t>(where)){}
#else
      : where_(where) {
  }
#endif
        SiteRef(const Site& site) noexcept  // NOLINT(google-explicit-constructor)
      : bits_(reinterpret_cast<std::uintptr_t>(&site) | kGiven) {
  }
  SiteRef(Site&&) = delete;  // a temporary would be gone before the run reads it
  // No site: an instruction the hardware made itself.
  SiteRef() noexcept = default;

  bool empty() const { return key() == SiteKey{}; }
  SiteKey key() const {
#ifdef __cpp_lib_source_location
    return {bits_, 0};
#else
    if (given()) return {bits_, 0};
    return {reinterpret_cast<std::uintptr_t>(where_.file_name()), where_.line()};
#endif
  }
  // A program's own site (else a C++ source line).
  bool given() const { return (bits_ & kGiven) != 0; }
  const Site& site() const { return *reinterpret_cast<const Site*>(bits_ & ~kGiven); }
  CodeLocation location() const {
#ifdef __cpp_lib_source_location
    return std::bit_cast<std::source_location>(bits_);
#else
    return where_;
#endif
  }

 private:
#ifdef __cpp_lib_source_location
  static_assert(sizeof(std::source_location) == sizeof(std::uintptr_t) &&
                    std::is_trivially_copyable_v<std::source_location>,
                "a std::source_location is one pointer to its static data");
#endif
  static_assert(alignof(Site) > 1, "the low bit of a Site's address is free for the tag");
  static constexpr std::uintptr_t kGiven = 1;
  std::uintptr_t bits_ = 0;
#ifndef __cpp_lib_source_location
  CodeLocation where_;
#endif
};

}  // namespace mmsim
