// Exact colouring by matching decomposition of the multiplicity matrix (edge_coloring.hpp's
// matching_decomposition), for any view of the edges and any use of the colours.
//
// The edges are bucketed into the m x m multiplicity matrix by one counting pass; perfect
// matchings are peeled off its support with weight = the smallest multiplicity on the matching
// (Birkhoff-von Neumann), each peel giving a range of colours to m entries; a second pass over
// the edges hands every edge the next colour of its entry. Neither pass needs the edges as
// arrays nor the colours as one: `Edges` says where edge e ends (a DMM plan computes it from the
// permutation) and `give(e, a, c)` receives edge e's colour c (a DMM plan writes its schedule
// directly). So the colouring itself keeps only O(m^2) words and, where the matrix is large
// (m >= 128), one colour per edge of 2 bytes (D <= 2^16) or 4.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <functional>
#include <span>
#include <type_traits>
#include <vector>

#include "hw/support/huge_pages.hpp"

namespace mmsim::planning {

// Largest multiplicity matrix matching_decomposition accepts (entries, 4 bytes each, several
// arrays of this size).
inline constexpr std::uint64_t kMaxMatrixEntries = std::uint64_t{1} << 26;
// From this many entries (m >= 128) a pass that touches one entry per edge misses the caches.
inline constexpr std::uint64_t kManyEntries = 16384;

/// Edges given as two arrays of ends: edge e joins u[e] in U and v[e] in V.
struct EdgeArrays {
  std::span<const std::uint32_t> u, v;
  std::size_t size() const noexcept { return u.size(); }
  std::uint32_t a(std::size_t e) const noexcept { return u[e]; }
  std::uint32_t b(std::size_t e) const noexcept { return v[e]; }
};

/// D = edges / m, or throws ColoringError if m does not divide the edge count (or m = 0 with
/// edges).
std::uint32_t degree_of(std::uint32_t m, std::size_t edges);

/// The multiplicity matrix count[a*m + b] of the edges' ends: throws ColoringError naming the
/// first edge with an end outside [0, m), or the first vertex whose degree is not D.
template <class Edges>
std::vector<std::uint32_t> multiplicity_matrix(std::uint32_t m, std::uint32_t degree,
                                               const Edges& edges);

/// Called once per peeled matching, colours in increasing order: the matching gets colours
/// [start, start + length), and mate[a] is the column matched to row a.
using OnPeel =
    std::function<void(std::uint32_t start, std::uint32_t length, const std::uint32_t* mate)>;
/// Peels the D-regular multiplicity matrix `count` (m x m, row-major) into perfect matchings.
void peel_matchings(std::uint32_t m, std::uint32_t degree, std::vector<std::uint32_t> count,
                    const OnPeel& on_peel);

/// A `give` that scatters the colours (a DMM plan writing its schedule) says where it will write
/// for U end a and colour c, so that the hand-back pass can prefetch the place.
template <class Give>
concept ScatteringGive = requires(const Give& give) {
  { give.target(std::uint32_t{}, std::uint32_t{}) } -> std::convertible_to<const void*>;
};

/// Colours the D-regular bipartite multigraph on m + m nodes with exactly D colours, each class a
/// perfect matching, calling give(e, a, c) for every edge e = 0, 1, ... in order with its U end
/// a = edges.a(e) and its colour c. `Edges` has size(), a(e) and b(e). Returns D. Throws
/// ColoringError if an end is out of range, the graph is not regular, or m*m exceeds
/// kMaxMatrixEntries.
template <class Edges, class Give>
std::uint32_t color_by_matching_decomposition(std::uint32_t m, const Edges& edges, Give&& give);

/// The same from the multiplicity matrix `count` of the edges, D-regular, which the caller has
/// counted and checked (a DMM plan counts it while it checks its permutation).
template <class Edges, class Give>
void color_from_matrix(std::uint32_t m, std::uint32_t degree, const Edges& edges,
                       std::vector<std::uint32_t> count, Give&& give);

/// Bytes color_by_matching_decomposition allocates for m nodes per side and E edges (an upper
/// bound, for memory estimates).
std::uint64_t matching_decomposition_bytes(std::uint32_t m, std::uint64_t edges);

// ------------------------------------------------------------------------------------------

void throw_end_out_of_range(std::size_t e, std::uint32_t a, std::uint32_t b, std::uint32_t m);
// Row and column sums of the multiplicity matrix must all be D.
void check_regular_from_matrix(std::uint32_t m, std::uint32_t degree,
                               const std::vector<std::uint32_t>& count);
void throw_matrix_too_large(std::uint32_t m);

template <class Edges>
std::vector<std::uint32_t> multiplicity_matrix(std::uint32_t m, std::uint32_t degree,
                                               const Edges& edges) {
  std::vector<std::uint32_t> count(std::size_t{m} * m, 0);
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const std::uint32_t a = edges.a(e), b = edges.b(e);
    if (a >= m || b >= m) [[unlikely]]
      throw_end_out_of_range(e, a, b, m);
    ++count[std::size_t{a} * m + b];
  }
  check_regular_from_matrix(m, degree, count);
  return count;
}

// Peels the matrix `count` and gives every edge its colour. Slot holds a peel index or a colour
// (both below D).
template <class Slot, class Edges, class Give>
void hand_out_colors(std::uint32_t m, std::uint32_t degree, const Edges& edges,
                     std::vector<std::uint32_t> count, Give& give) {
  const std::size_t edge_count = edges.size();
  const std::size_t entries = std::size_t{m} * m;
  // The writes of the peels and the reads of the hand-back pass go to m*m streams, one per
  // entry: with many entries (w = 256: 65536) they miss the caches, so they are prefetched, and
  // every entry's colours are listed one by one (1.6 colours per peel and entry at w = 256);
  // with few entries (w = 32: 1024) an entry lists its peels, each a range of colours.
  const bool list_colors = entries >= kManyEntries;
  // Every peel sets at least one entry to zero and the last one m entries, so there are at most
  // support - m + 1 peels; an entry of multiplicity k is matched by at most k of them.
  std::size_t support = 0;
  for (std::uint32_t k : count) support += k != 0;
  const std::uint64_t max_peels = std::min<std::uint64_t>(degree, support - m + 1);
  // Per entry, its peels (CSR, in order), in room for its colours when they are listed.
  std::vector<std::uint32_t> offset(entries + 1);
  {
    std::uint64_t acc = 0;
    for (std::size_t i = 0; i < entries; ++i) {
      offset[i] = static_cast<std::uint32_t>(acc);
      acc += list_colors ? count[i] : std::min<std::uint64_t>(count[i], max_peels);
    }
    offset[entries] = static_cast<std::uint32_t>(acc);
  }
  HugePageArray<Slot> slots(offset[entries]);
  std::vector<std::uint32_t> fill(offset.begin(), offset.end() - 1);
  std::vector<std::uint32_t> peel_start, peel_length;
  Slot* s = slots.data();
  peel_matchings(m, degree, std::move(count),
                 [&](std::uint32_t start, std::uint32_t length, const std::uint32_t* mate) {
                   const auto peel = static_cast<Slot>(peel_start.size());
                   peel_start.push_back(start);
                   peel_length.push_back(length);
                   constexpr std::uint32_t kAhead = 8;
                   for (std::uint32_t a = 0; a < m; ++a) {
                     if (list_colors && a + kAhead < m)
                       __builtin_prefetch(&s[fill[std::size_t{a + kAhead} * m + mate[a + kAhead]]],
                                          1);
                     s[fill[std::size_t{a} * m + mate[a]]++] = peel;
                   }
                 });
  const std::uint32_t* pstart = peel_start.data();
  const std::uint32_t* plength = peel_length.data();

  if (list_colors) {
    // Each entry's colours replace its peels in place, from the back: its colours fill its
    // room exactly, and every peel gives at least one colour, so a peel is read before the
    // colours written over it. Then each edge takes the next colour of its entry: one random
    // read, prefetched in two levels (the cursor of edge e + 2A, then the colour it points to
    // for edge e + A).
    for (std::size_t i = 0; i < entries; ++i) {
      std::uint32_t out = offset[i + 1];
      for (std::uint32_t k = fill[i]; k-- > offset[i];) {
        const Slot peel = s[k];
        const std::uint32_t first = pstart[peel], last = first + plength[peel];
        for (std::uint32_t c = last; c-- > first;) s[--out] = static_cast<Slot>(c);
      }
    }
    // A scattering give adds a third level: the place it writes edge e + A's colour to.
    std::vector<std::uint32_t>& next = offset;  // per entry: its next colour's index
    constexpr std::size_t kAhead = 16;
    constexpr std::size_t kLevels = ScatteringGive<Give> ? 3 : 2;
    const auto entry = [&](std::size_t e) { return std::size_t{edges.a(e)} * m + edges.b(e); };
    auto hand_back = [&](std::size_t first, std::size_t last, auto with_prefetch) {
      for (std::size_t e = first; e < last; ++e) {
        if constexpr (decltype(with_prefetch)::value) {
          __builtin_prefetch(&next[entry(e + kLevels * kAhead)]);
          __builtin_prefetch(&s[next[entry(e + (kLevels - 1) * kAhead)]]);
          if constexpr (ScatteringGive<Give>)
            __builtin_prefetch(give.target(edges.a(e + kAhead), s[next[entry(e + kAhead)]]), 1);
        }
        const std::uint32_t a = edges.a(e);
        give(e, a, std::uint32_t{s[next[std::size_t{a} * m + edges.b(e)]++]});
      }
    };
    const std::size_t ahead = kLevels * kAhead;
    const std::size_t split = edge_count > ahead ? edge_count - ahead : 0;
    hand_back(0, split, std::true_type{});
    hand_back(split, edge_count, std::false_type{});
    return;
  }

  // Few entries, long colour ranges: per entry a cursor holding the next colour, the end of the
  // current peel's range and the slot of the entry's next peel (advanced lazily, so the common
  // case is one load and one store, all in the caches).
  struct Cursor {
    std::uint32_t next;
    std::uint32_t end;
    std::uint32_t slot;
  };
  std::vector<Cursor> cursor(entries);
  for (std::size_t i = 0; i < entries; ++i) cursor[i] = Cursor{0, 0, offset[i]};
  constexpr std::size_t kAhead = 16;  // a scattering give's place, where the cursor says already
  for (std::size_t e = 0; e < edge_count; ++e) {
    if constexpr (ScatteringGive<Give>) {
      if (e + kAhead < edge_count) {
        const std::uint32_t a = edges.a(e + kAhead);
        const Cursor& c = cursor[std::size_t{a} * m + edges.b(e + kAhead)];
        if (c.next != c.end) __builtin_prefetch(give.target(a, c.next), 1);
      }
    }
    const std::uint32_t a = edges.a(e);
    Cursor& c = cursor[std::size_t{a} * m + edges.b(e)];
    if (c.next == c.end) {
      const Slot peel = s[c.slot++];
      c.next = pstart[peel];
      c.end = c.next + plength[peel];
    }
    give(e, a, c.next++);
  }
}

template <class Edges, class Give>
std::uint32_t color_by_matching_decomposition(std::uint32_t m, const Edges& edges, Give&& give) {
  const std::uint32_t degree = degree_of(m, edges.size());
  if (std::uint64_t{m} * m > kMaxMatrixEntries) throw_matrix_too_large(m);
  if (edges.size() == 0) return degree;
  color_from_matrix(m, degree, edges, multiplicity_matrix(m, degree, edges), give);
  return degree;
}

template <class Edges, class Give>
void color_from_matrix(std::uint32_t m, std::uint32_t degree, const Edges& edges,
                       std::vector<std::uint32_t> count, Give&& give) {
  if (edges.size() == 0) return;
  // Peel indices and colours are below D: 16 bits suffice up to D = 2^16.
  if (degree <= 65536)
    hand_out_colors<std::uint16_t>(m, degree, edges, std::move(count), give);
  else
    hand_out_colors<std::uint32_t>(m, degree, edges, std::move(count), give);
}

}  // namespace mmsim::planning
