// Permutations of [0, n): P[i] is the destination of source i ("move a[i] to a[P(i)]").
#pragma once

#include <cstdint>
#include <filesystem>
#include <istream>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mmsim::planning {

using Permutation = std::vector<std::uint64_t>;

/// Uniformly random permutation: Fisher-Yates driven by std::mt19937_64(seed) with an exact
/// (rejection-sampled) bounded draw, so the result is the same on every platform.
Permutation random_permutation(std::uint64_t n, std::uint64_t seed);
/// i -> i with its log2(n) bits reversed; n must be a power of two (n >= 1).
Permutation bit_reversal_permutation(std::uint64_t n);
/// n = r*r: index i*r + j -> j*r + i.
Permutation transpose_permutation(std::uint64_t n);
/// s divides n: i -> (i mod s) * (n / s) + i div s.
Permutation stride_permutation(std::uint64_t n, std::uint64_t s);
Permutation identity_permutation(std::uint64_t n);

/// Reads one destination per line; '#' starts a comment, blank lines are skipped. n = 0: n is
/// the number of destinations read; otherwise the file must be a permutation of [0, n).
/// Errors (PermutationError with file and line): a token that is not a non-negative decimal
/// integer, more than one number on a line, then in file order the first value >= n or the
/// first repeated destination (naming both lines), else the smallest missing destination.
Permutation permutation_from_file(const std::filesystem::path& path, std::uint64_t n = 0);
/// The same from a stream; `name` is used as the file name in errors.
Permutation read_permutation(std::istream& in, const std::string& name, std::uint64_t n = 0);

/// Throws PermutationError unless p is a permutation of [0, n) (n defaults to p.size()): in
/// source order the first value out of range or the FIRST repeated destination (naming both
/// source indices), else the smallest missing destination.
void validate_permutation(std::span<const std::uint64_t> p,
                          std::uint64_t n = std::numeric_limits<std::uint64_t>::max());
bool is_permutation(std::span<const std::uint64_t> p) noexcept;

Permutation inverse_permutation(std::span<const std::uint64_t> p);

/// FNV-1a (64 bit) over the destinations, each as 8 little-endian bytes, in source order.
std::uint64_t permutation_checksum(std::span<const std::uint64_t> p) noexcept;

/// out[P(i)] = a[i].
template <class T>
std::vector<T> apply_permutation(std::span<const std::uint64_t> p, std::span<const T> a) {
  std::vector<T> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[p[i]] = a[i];
  return out;
}

/// A textual permutation spec: `random[:SEED]`, `bit_reversal`, `transpose`, `stride[:S]`,
/// `identity`, or a path to a file (anything else; `file:PATH` forces a path).
struct PermutationSpec {
  enum class Kind { random, bit_reversal, transpose, stride, identity, file };
  Kind kind = Kind::identity;
  std::uint64_t seed = 0;    ///< random
  std::uint64_t stride = 0;  ///< stride
  std::string path;          ///< file
};

/// Parses a spec; default_seed / default_stride are used when the spec gives none.
/// Throws PermutationError for a malformed argument (e.g. `random:x`, `stride:0`).
PermutationSpec parse_permutation_spec(std::string_view text, std::uint64_t default_seed = 1,
                                       std::uint64_t default_stride = 0);
/// Builds the permutation of size n (for a file, n = 0 takes the file's size; otherwise the file
/// must be a permutation of [0, n)).
Permutation make_permutation(const PermutationSpec& spec, std::uint64_t n);
Permutation make_permutation(std::string_view spec, std::uint64_t n, std::uint64_t default_seed = 1,
                             std::uint64_t default_stride = 0);
/// Bytes make_permutation allocates at its peak for n elements (for memory estimates): the
/// permutation's 8 bytes per element; read from a file, also each value's line number while
/// reading, both arrays growing by doubling (32 bytes per element).
std::uint64_t permutation_bytes(const PermutationSpec& spec, std::uint64_t n);

}  // namespace mmsim::planning
