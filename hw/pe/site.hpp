// The site of a warp instruction: where it was issued, for profiles and timelines. A C++
// program's site is the line of its `co_await warp.read(...)`, captured by a default argument
// (SiteRef::here()); a program that is not C++ code (a Python program, a trace) gives its own.
// An instruction carries its site as a few words; the run resolves and interns it into its site
// table only when it profiles (hw/pe/site_table.hpp), so an unprofiled run pays nothing more.
//
// Why not std::source_location: clang 14 (the sanitized and fuzzing build) cannot compile
// libstdc++'s; the compilers' __builtin_FILE/LINE/FUNCTION, which it is made of, serve both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace mmsim {

// A site a program gives itself. The program owns it, and it must outlive the run: instructions
// point at it.
struct Site {
  std::string_view file;   // "transpose.py", "trace.yaml"; may be empty
  std::uint32_t line = 0;  // 1-based; 0: no line
  std::string_view label;  // what the line does: a function, "PC 0x1a0 LDS.U.32", ...
};

// What tells sites apart cheaply: the same for every instruction of one C++ line or one Site.
struct SiteKey {
  const void* where = nullptr;  // the C++ file's name (static data), or the Site
  std::uint32_t line = 0;
  bool operator==(const SiteKey&) const = default;
};

struct SiteKeyHash {
  std::size_t operator()(const SiteKey& k) const {
    return std::hash<const void*>()(k.where) ^ (std::size_t{k.line} * 0x9e3779b97f4a7c15u);
  }
};

// How an instruction names its site: a C++ line (file, line, function as the compiler spells
// them) or a program's Site.
class SiteRef {
 public:
  // The caller's line: as a default argument, the builtins name the line of the call.
  static SiteRef here(const char* file = __builtin_FILE(), std::uint32_t line = __builtin_LINE(),
                      const char* function = __builtin_FUNCTION()) noexcept {
    SiteRef site;
    site.where_ = file;
    site.line_ = line;
    site.function_ = function;
    return site;
  }
  SiteRef(const Site& site) noexcept  // NOLINT(google-explicit-constructor)
      : where_(&site), given_(true) {}
  SiteRef(Site&&) = delete;  // a temporary would be gone before the run reads it
  // No site: an instruction the hardware made itself.
  SiteRef() noexcept = default;

  bool empty() const { return where_ == nullptr; }
  SiteKey key() const { return {where_, line_}; }
  // A program's own site (else a C++ source line).
  bool given() const { return given_; }
  const Site& site() const { return *static_cast<const Site*>(where_); }
  // A C++ line's file, line and function.
  const char* file() const { return static_cast<const char*>(where_); }
  std::uint32_t line() const { return line_; }
  const char* function() const { return function_; }

 private:
  const void* where_ = nullptr;
  const char* function_ = nullptr;
  std::uint32_t line_ = 0;
  bool given_ = false;
};

}  // namespace mmsim
