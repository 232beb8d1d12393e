#include "sw/planning/matching_decomposition.hpp"

#include <limits>

#include <fmt/format.h>

#include "sw/planning/errors.hpp"

namespace mmsim::planning {

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

class MatrixDecomposition {
 public:
  MatrixDecomposition(std::uint32_t m, std::uint32_t degree, std::vector<std::uint32_t> rem)
      : m_(m),
        degree_(degree),
        rem_(std::move(rem)),
        row_cols_(std::size_t{m} * m),
        row_len_(m, 0),
        pos_(std::size_t{m} * m),
        mate_u_(m, kNone),
        mate_v_(m, kNone),
        seen_(m, 0),
        parent_(m),
        queue_(m) {
    for (std::uint32_t a = 0; a < m; ++a)
      for (std::uint32_t b = 0; b < m; ++b)
        if (rem_[idx(a, b)] != 0) {
          pos_[idx(a, b)] = row_len_[a];
          row_cols_[idx(a, row_len_[a]++)] = b;
        }
    // greedy start, then augment what is left
    for (std::uint32_t a = 0; a < m; ++a)
      for (std::uint32_t k = 0; k < row_len_[a]; ++k) {
        std::uint32_t b = row_cols_[idx(a, k)];
        if (mate_v_[b] == kNone) {
          mate_u_[a] = b;
          mate_v_[b] = a;
          break;
        }
      }
    for (std::uint32_t a = 0; a < m; ++a)
      if (mate_u_[a] == kNone) augment(a);
  }

  // Peels matchings until the matrix is empty; calls on_peel(start, length, mate) for every
  // peeled matching (mate[a] = the column matched to row a), colours in increasing order.
  void run(const OnPeel& on_peel) {
    std::uint32_t next = 0;
    std::vector<std::uint32_t> freed, freed_v;
    freed.reserve(m_);
    freed_v.reserve(m_);
    while (true) {
      std::uint32_t weight = kNone;
      for (std::uint32_t a = 0; a < m_; ++a) weight = std::min(weight, rem_[idx(a, mate_u_[a])]);
      on_peel(next, weight, mate_u_.data());
      next += weight;
      if (next == degree_) return;
      for (std::uint32_t a = 0; a < m_; ++a) {
        const std::uint32_t b = mate_u_[a];
        if ((rem_[idx(a, b)] -= weight) == 0) {
          remove_support(a, b);
          mate_u_[a] = kNone;
          mate_v_[b] = kNone;
          freed.push_back(a);
          freed_v.push_back(b);
        }
      }
      for (std::uint32_t a : freed)
        if (!short_augment(a, freed_v)) augment(a);
      freed.clear();
      freed_v.clear();
    }
  }

 private:
  // Tries the shortest repairs first when few vertices are free (the usual case while the
  // matrix is dense: one entry drops to zero per peel): a directly to a free b, or
  // a -> b2 = mate(a2), a2 -> b for some row a2 (a length-3 path), by direct lookups in the
  // matrix instead of a breadth-first search. With many free vertices the search is better.
  bool short_augment(std::uint32_t a, const std::vector<std::uint32_t>& free_v) {
    constexpr std::size_t kFewFree = 4;
    if (free_v.size() > kFewFree) return false;
    for (std::uint32_t b : free_v) {
      if (mate_v_[b] == kNone && rem_[idx(a, b)] != 0) {
        mate_u_[a] = b;
        mate_v_[b] = a;
        return true;
      }
    }
    const std::uint32_t* row_a = rem_.data() + idx(a, 0);
    for (std::uint32_t b : free_v) {
      if (mate_v_[b] != kNone) continue;
      for (std::uint32_t a2 = 0; a2 < m_; ++a2) {
        const std::uint32_t b2 = mate_u_[a2];
        if (b2 == kNone || rem_[idx(a2, b)] == 0 || row_a[b2] == 0) continue;
        mate_u_[a] = b2;
        mate_v_[b2] = a;
        mate_u_[a2] = b;
        mate_v_[b] = a2;
        return true;
      }
    }
    return false;
  }

  std::size_t idx(std::uint32_t a, std::uint32_t b) const noexcept {
    return std::size_t{a} * m_ + b;
  }

  void remove_support(std::uint32_t a, std::uint32_t b) {
    const std::uint32_t p = pos_[idx(a, b)];
    const std::uint32_t last = row_cols_[idx(a, --row_len_[a])];
    row_cols_[idx(a, p)] = last;
    pos_[idx(a, last)] = p;
  }

  // Breadth-first search for an augmenting path from the free U vertex `root`. The remaining
  // matrix has equal row and column sums, so a perfect matching exists on its support and
  // the search cannot fail.
  void augment(std::uint32_t root) {
    if (++stamp_ == 0) {
      std::fill(seen_.begin(), seen_.end(), 0);
      stamp_ = 1;
    }
    std::uint32_t head = 0, tail = 0;
    queue_[tail++] = root;
    while (head < tail) {
      const std::uint32_t x = queue_[head++];
      const std::uint32_t* cols = row_cols_.data() + idx(x, 0);
      const std::uint32_t len = row_len_[x];
      for (std::uint32_t k = 0; k < len; ++k) {
        std::uint32_t b = cols[k];
        if (seen_[b] == stamp_) continue;
        seen_[b] = stamp_;
        parent_[b] = x;
        if (mate_v_[b] == kNone) {
          while (true) {  // flip the path back to the root
            const std::uint32_t px = parent_[b];
            const std::uint32_t nb = mate_u_[px];
            mate_u_[px] = b;
            mate_v_[b] = px;
            if (px == root) return;
            b = nb;
          }
        }
        queue_[tail++] = mate_v_[b];
      }
    }
    throw ColoringError("internal error: no augmenting path in a regular multiplicity matrix");
  }

  std::uint32_t m_;
  std::uint32_t degree_;
  std::vector<std::uint32_t> rem_;
  std::vector<std::uint32_t> row_cols_;  // per row a, its columns b with rem > 0 (first row_len_)
  std::vector<std::uint32_t> row_len_;
  std::vector<std::uint32_t> pos_;  // position of b in row a's list
  std::vector<std::uint32_t> mate_u_, mate_v_;
  std::vector<std::uint32_t> seen_;
  std::uint32_t stamp_ = 0;
  std::vector<std::uint32_t> parent_;
  std::vector<std::uint32_t> queue_;
};

}  // namespace

std::uint32_t degree_of(std::uint32_t m, std::size_t edges) {
  if (m == 0) {
    if (edges != 0) throw ColoringError(fmt::format("{} edges but no nodes (m = 0)", edges));
    return 0;
  }
  if (edges % m != 0)
    throw ColoringError(
        fmt::format("not regular: {} edges is not a multiple of the {} nodes per side", edges, m));
  return static_cast<std::uint32_t>(edges / m);
}

void throw_end_out_of_range(std::size_t e, std::uint32_t a, std::uint32_t b, std::uint32_t m) {
  throw ColoringError(fmt::format("edge {} joins ({}, {}): ends must be below m = {}", e, a, b, m));
}

void throw_matrix_too_large(std::uint32_t m) {
  throw ColoringError(
      fmt::format("matching_decomposition: {} nodes per side make a {}x{} multiplicity matrix, "
                  "more than the {} entries supported; use euler_split",
                  m, m, m, kMaxMatrixEntries));
}

void check_regular_from_matrix(std::uint32_t m, std::uint32_t degree,
                               const std::vector<std::uint32_t>& count) {
  std::vector<std::uint64_t> column(m, 0);
  for (std::uint32_t a = 0; a < m; ++a) {
    std::uint64_t row = 0;
    const std::uint32_t* r = count.data() + std::size_t{a} * m;
    for (std::uint32_t b = 0; b < m; ++b) {
      row += r[b];
      column[b] += r[b];
    }
    if (row != degree)
      throw ColoringError(
          fmt::format("not regular: vertex {} of U has degree {}, expected {} (= edges / nodes)", a,
                      row, degree));
  }
  for (std::uint32_t b = 0; b < m; ++b)
    if (column[b] != degree)
      throw ColoringError(
          fmt::format("not regular: vertex {} of V has degree {}, expected {} (= edges / nodes)", b,
                      column[b], degree));
}

void peel_matchings(std::uint32_t m, std::uint32_t degree, std::vector<std::uint32_t> count,
                    const OnPeel& on_peel) {
  MatrixDecomposition(m, degree, std::move(count)).run(on_peel);
}

std::uint64_t matching_decomposition_bytes(std::uint32_t m, std::uint64_t edges) {
  if (m == 0) return 0;
  const std::uint64_t entries = std::uint64_t{m} * m;
  const std::uint64_t degree = edges / m;
  const std::uint64_t slot = degree <= 65536 ? 2 : 4;
  const std::uint64_t peels = std::min(degree, entries);
  // Per entry: the count, the decomposition's three arrays, offsets, fill pointers, a cursor.
  const std::uint64_t matrix = entries * (6 * 4 + 12);
  // The per-entry lists: a colour per edge, or a peel per entry and peel (hand_out_colors).
  const std::uint64_t lists = entries >= kManyEntries ? edges : std::min(edges, entries * peels);
  // The peels' colour ranges (vectors, up to twice their size while growing).
  return matrix + lists * slot + 2 * peels * 8 + std::uint64_t{m} * 64;
}

}  // namespace mmsim::planning
