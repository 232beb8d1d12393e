#include "sw/planning/permutation.hpp"

#include <bit>
#include <charconv>
#include <fstream>
#include <limits>

#include <fmt/format.h>

#include "hw/support/huge_pages.hpp"
#include "hw/support/random.hpp"
#include "sw/planning/errors.hpp"
#include "sw/support/integer_sqrt.hpp"
#include "sw/support/suggest.hpp"
#include "sw/support/text_input.hpp"

namespace mmsim::planning {

namespace {

constexpr std::uint64_t kUnset = std::numeric_limits<std::uint64_t>::max();

const std::vector<std::string> kKeywords = {"random", "bit_reversal", "transpose", "stride",
                                            "identity"};

bool parse_u64(std::string_view s, std::uint64_t& out) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

// Validation shared by validate_permutation and the file reader, against size n: one pass in
// source order reporting the first value out of [0, n) or the first repeated destination (naming
// both sources), then the smallest missing destination. `where(i)` describes source i
// ("index 3" or "line 7"), `line(i)` gives its file line for the error (0: none).
template <class Where, class Line>
void check_permutation(std::span<const std::uint64_t> p, std::uint64_t n, const std::string& file,
                       Where where, Line line) {
  if (p.size() == n) {  // fast path: one bit per destination
    std::vector<std::uint64_t> seen((n + 63) / 64, 0);
    bool ok = true;
    for (std::uint64_t d : p) {
      if (d >= n || (seen[d / 64] >> (d % 64) & 1u)) {
        ok = false;
        break;
      }
      seen[d / 64] |= std::uint64_t{1} << (d % 64);
    }
    if (ok) return;
  }
  // Something is wrong: find the first problem, remembering where each destination was seen.
  std::vector<std::uint64_t> first(n, kUnset);
  for (std::uint64_t i = 0; i < p.size(); ++i) {
    if (p[i] >= n)
      throw PermutationError(
          fmt::format("{}: destination {} is out of range [0, {})", where(i), p[i], n), file,
          line(i));
    std::uint64_t& f = first[p[i]];
    if (f != kUnset)
      throw PermutationError(
          fmt::format("not a permutation: destination {} is repeated ({} and {})", p[i], where(f),
                      where(i)),
          file, line(i));
    f = i;
  }
  for (std::uint64_t d = 0; d < n; ++d)
    if (first[d] == kUnset)
      throw PermutationError(
          fmt::format("not a permutation of [0, {}): destination {} is missing ({} values given)",
                      n, d, p.size()),
          file, 0);
}

// n elements on huge pages where the kernel offers them (hw/support/huge_pages.hpp).
Permutation sized_permutation(std::uint64_t n) {
  Permutation p;
  resize_on_huge_pages(p, n);
  return p;
}

}  // namespace

Permutation random_permutation(std::uint64_t n, std::uint64_t seed) {
  Permutation p = identity_permutation(n);
  Random gen(seed);
  for (std::uint64_t i = n; i > 1; --i) {
    const std::uint64_t j = uniform_below(gen, i);
    std::swap(p[i - 1], p[j]);
  }
  return p;
}

Permutation bit_reversal_permutation(std::uint64_t n) {
  if (n == 0 || !std::has_single_bit(n))
    throw PermutationError(
        fmt::format("bit_reversal needs n to be a power of two, got {} (nearest: {} or {})", n,
                    n == 0 ? 1 : std::bit_floor(n), n == 0 ? 1 : std::bit_ceil(n)));
  const int bits = std::countr_zero(n);
  Permutation p = sized_permutation(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint64_t r = 0;
    for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1u) << (bits - 1 - b);
    p[i] = r;
  }
  return p;
}

Permutation transpose_permutation(std::uint64_t n) {
  const std::uint64_t r = integer_sqrt(n);
  if (r * r != n)
    throw PermutationError(
        fmt::format("transpose needs n to be a perfect square, got {} (nearest: {} or {})", n,
                    r * r, (r + 1) * (r + 1)));
  Permutation p = sized_permutation(n);
  for (std::uint64_t i = 0; i < r; ++i)
    for (std::uint64_t j = 0; j < r; ++j) p[i * r + j] = j * r + i;
  return p;
}

Permutation stride_permutation(std::uint64_t n, std::uint64_t s) {
  if (s == 0 || n % s != 0)
    throw PermutationError(
        fmt::format("stride needs a stride s >= 1 dividing n = {}, got s = {}", n, s));
  Permutation p = sized_permutation(n);
  const std::uint64_t q = n / s;
  for (std::uint64_t i = 0; i < n; ++i) p[i] = (i % s) * q + i / s;
  return p;
}

Permutation identity_permutation(std::uint64_t n) {
  Permutation p = sized_permutation(n);
  for (std::uint64_t i = 0; i < n; ++i) p[i] = i;
  return p;
}

Permutation read_permutation(std::istream& in, const std::string& name, std::uint64_t n) {
  Permutation p;
  std::vector<std::size_t> lines;
  std::string text;
  LineReader reader(in);
  try {
    while (reader.next(text)) {
      const std::size_t line = reader.number();
      std::string_view s = text;
      if (auto hash = s.find('#'); hash != std::string_view::npos) s = s.substr(0, hash);
      s = trim(s);
      if (s.empty()) continue;
      const auto space = s.find_first_of(" \t");
      if (space != std::string_view::npos)
        throw PermutationError(fmt::format("expected one destination per line, got '{}'", s), name,
                               line);
      std::uint64_t value = 0;
      if (!parse_u64(s, value))
        throw PermutationError(
            fmt::format("'{}' is not a destination (a non-negative decimal integer)", s), name,
            line);
      p.push_back(value);
      lines.push_back(line);
    }
  } catch (const TextInputError& e) {
    throw PermutationError(e.what(), name, e.line());
  }
  check_permutation(
      p, n == 0 ? p.size() : n, name,
      [&](std::uint64_t i) { return fmt::format("line {}", lines[i]); },
      [&](std::uint64_t i) { return lines[i]; });
  return p;
}

std::uint64_t permutation_bytes(const PermutationSpec& spec, std::uint64_t n) {
  return spec.kind == PermutationSpec::Kind::file ? 32 * n : 8 * n;
}

Permutation permutation_from_file(const std::filesystem::path& path, std::uint64_t n) {
  std::ifstream in;
  try {
    in = open_text_file(path);
  } catch (const TextInputError& e) {
    // A mistyped keyword reads as a file name: name the keyword it resembles.
    const std::string name = path.filename().string();
    const std::string keyword = nearest_name(name, kKeywords);
    if (!keyword.empty() && e.code() == std::errc::no_such_file_or_directory)
      throw PermutationError(fmt::format(
          "'{}' is no permutation (did you mean '{}'?) and no file either", name, keyword));
    throw PermutationError(std::string("cannot open permutation file: ") + e.what(), path.string(),
                           0);
  }
  return read_permutation(in, path.string(), n);
}

void validate_permutation(std::span<const std::uint64_t> p, std::uint64_t n) {
  check_permutation(
      p, n == kUnset ? p.size() : n, std::string{},
      [](std::uint64_t i) { return fmt::format("index {}", i); },
      [](std::uint64_t) { return std::size_t{0}; });
}

bool is_permutation(std::span<const std::uint64_t> p) noexcept {
  const std::uint64_t n = p.size();
  std::vector<std::uint64_t> seen((n + 63) / 64, 0);
  for (std::uint64_t d : p) {
    if (d >= n || (seen[d / 64] >> (d % 64) & 1u)) return false;
    seen[d / 64] |= std::uint64_t{1} << (d % 64);
  }
  return true;
}

Permutation inverse_permutation(std::span<const std::uint64_t> p) {
  Permutation inv(p.size());
  for (std::uint64_t i = 0; i < p.size(); ++i) inv[p[i]] = i;
  return inv;
}

std::uint64_t permutation_checksum(std::span<const std::uint64_t> p) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::uint64_t d : p)
    for (int b = 0; b < 8; ++b) {
      h ^= (d >> (8 * b)) & 0xffu;
      h *= 0x100000001b3ull;
    }
  return h;
}

PermutationSpec parse_permutation_spec(std::string_view text, std::uint64_t default_seed,
                                       std::uint64_t default_stride) {
  PermutationSpec spec;
  if (text.starts_with("file:")) {
    spec.kind = PermutationSpec::Kind::file;
    spec.path = std::string(text.substr(5));
    if (spec.path.empty()) throw PermutationError("permutation spec 'file:' names no path");
    return spec;
  }
  const auto colon = text.find(':');
  const std::string_view name = text.substr(0, colon);
  const bool has_arg = colon != std::string_view::npos;
  const std::string_view arg = has_arg ? text.substr(colon + 1) : std::string_view{};
  auto number = [&](std::string_view what) {
    std::uint64_t value = 0;
    if (!parse_u64(arg, value))
      throw PermutationError(
          fmt::format("permutation spec '{}': '{}' is not a valid {} (a non-negative integer)",
                      text, arg, what));
    return value;
  };
  using K = PermutationSpec::Kind;
  if (name == "random") {
    spec.kind = K::random;
    spec.seed = has_arg ? number("seed") : default_seed;
  } else if (name == "stride") {
    spec.kind = K::stride;
    spec.stride = has_arg ? number("stride") : default_stride;
    if (spec.stride == 0)
      throw PermutationError(
          fmt::format("permutation spec '{}': stride needs a stride >= 1 (stride:S)", text));
  } else if ((name == "bit_reversal" || name == "transpose" || name == "identity") && !has_arg) {
    spec.kind = name == "bit_reversal" ? K::bit_reversal
                : name == "transpose"  ? K::transpose
                                       : K::identity;
  } else if (name == "bit_reversal" || name == "transpose" || name == "identity") {
    throw PermutationError(fmt::format("permutation spec '{}': {} takes no argument", text, name));
  } else {
    if (text.empty())
      throw PermutationError(
          "empty permutation spec: expected random|bit_reversal|transpose|stride|identity|"
          "<path>");
    spec.kind = K::file;
    spec.path = std::string(text);
  }
  return spec;
}

Permutation make_permutation(const PermutationSpec& spec, std::uint64_t n) {
  using K = PermutationSpec::Kind;
  switch (spec.kind) {
    case K::random:
      return random_permutation(n, spec.seed);
    case K::bit_reversal:
      return bit_reversal_permutation(n);
    case K::transpose:
      return transpose_permutation(n);
    case K::stride:
      return stride_permutation(n, spec.stride);
    case K::identity:
      return identity_permutation(n);
    case K::file:
      return permutation_from_file(spec.path, n);
  }
  throw PermutationError("unknown permutation kind");
}

Permutation make_permutation(std::string_view spec, std::uint64_t n, std::uint64_t default_seed,
                             std::uint64_t default_stride) {
  return make_permutation(parse_permutation_spec(spec, default_seed, default_stride), n);
}

}  // namespace mmsim::planning
