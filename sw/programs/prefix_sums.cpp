#include "sw/programs/prefix_sums.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "sw/program/word_arithmetic.hpp"
#include "sw/programs/reduction_counts.hpp"
#include "sw/programs/reduction_program.hpp"
#include "sw/programs/warp_steps.hpp"

namespace mmsim {
namespace {

// Where Prefix-summing Algorithm Tree works: the levels of its w-ary tree (levels[0] holds the
// numbers; the root, their total, is not needed) and One-Warp's scratch for every warp.
struct TreeLayout {
  std::vector<Region> levels;
  Address scratch = 0;
};

// Where Prefix-summing Algorithm Simple-Tree works: its levels of interval sums (levels[0]
// holds the numbers) and the tree over the last of them.
struct SimpleTreeLayout {
  std::vector<Region> levels;
  TreeLayout tree;
};

// Prefix-summing Algorithm Tree. Interval sums bottom-up: in each level, warp i puts the total
// of group i of the level below into cell i (barrier after each level). Then top-down: each
// group gets its parent's left neighbour's prefix sum added to its first number and becomes its
// own prefix sums by One-Warp (barrier after each level). Warps take groups i, i + p/w, ...
Task prefix_tree(Warp& warp, Lanes& lanes, const TreeLayout& tree) {
  const std::vector<Region>& t = tree.levels;
  const std::uint64_t w = warp.width();
  const Address scratch = tree.scratch + warp.index() * one_warp_scratch(warp.width());
  const std::size_t k = t.size() - 1;
  for (std::size_t j = 1; j < k; ++j) {
    for (std::uint64_t i = warp.index(); i < t[j].size; i += warp.count())
      co_await one_warp_total(warp, lanes, t[j - 1].base + i * w,
                              std::min(w, t[j - 1].size - i * w), scratch, t[j].base + i);
    co_await warp.sync();
  }
  for (std::size_t j = k; j-- > 0;) {
    for (std::uint64_t i = warp.index(); i < t[j + 1].size; i += warp.count()) {
      const Address group = t[j].base + i * w;
      if (j + 1 < k && i > 0) co_await add_one(warp, lanes, group, t[j + 1].base + i - 1);
      co_await one_warp_prefix(warp, lanes, group, std::min(w, t[j].size - i * w), scratch);
    }
    co_await warp.sync();
  }
}

// Prefix-summing Algorithm Simple-Tree: r levels of interval sums (barrier after each), the
// prefix sums of the last level by Tree, then r levels of sums of interval sums (barrier after
// each but the last).
Task prefix_simple_tree(Warp& warp, Lanes& lanes, const SimpleTreeLayout& layout) {
  const std::vector<Region>& levels = layout.levels;
  const std::uint64_t first = warp.thread(0);
  for (std::size_t j = 1; j < levels.size(); ++j) {
    co_await pair_sums(warp, lanes, first, levels[j - 1].base, levels[j - 1].size, levels[j].base);
    co_await warp.sync();
  }
  co_await prefix_tree(warp, lanes, layout.tree);
  for (std::size_t j = levels.size() - 1; j >= 1; --j) {
    co_await spread(warp, lanes, first, levels[j].base, levels[j - 1].base, levels[j - 1].size);
    if (j > 1) co_await warp.sync();
  }
}

class PrefixAlgorithm : public PrefixProgram {
 public:
  using PrefixProgram::PrefixProgram;

 protected:
  // `count` levels of interval sums above `numbers` (fewer if one cell is reached).
  std::vector<Region> pair_layout(Region numbers, std::uint64_t count) {
    std::vector<Region> levels{numbers};
    for (std::uint64_t size = numbers.size; levels.size() <= count && size > 1;) {
      size = (size + 1) / 2;
      levels.push_back({allocate(size), size});
    }
    return levels;
  }
  TreeLayout prefix_tree_layout(Region numbers) {
    TreeLayout tree;
    tree.levels = tree_layout(numbers);
    const std::uint64_t groups = (numbers.size + w() - 1) / w();
    tree.scratch = allocate(groups * one_warp_scratch(w()));
    return tree;
  }
  SimpleTreeLayout simple_tree_layout(Region numbers) {
    SimpleTreeLayout layout;
    layout.levels = pair_layout(numbers, simple_tree_halvings(w()));
    layout.tree = prefix_tree_layout(layout.levels.back());
    return layout;
  }
};

class PrefixSimple final : public PrefixAlgorithm {
 public:
  explicit PrefixSimple(const ProgramArgs& args)
      : PrefixAlgorithm(args, "prefix_simple", ReductionAlgorithm::simple,
                        "Nakano 2012 (asynchronous), Lemma 6") {}

 protected:
  // Barriers where a level's writers and the next level's readers may be different warps. In
  // the second stage that is after the level whose successor has more than w threads; the
  // paper's "if (2^t > w) syncthreads" is one level late there (after step t = log2(w), warp 1
  // reads what warp 0 wrote), with the same count.
  Task run_with(Warp& warp, Lanes& lanes) override {
    const std::uint64_t first = warp.thread(0);
    const std::size_t m = levels_.size() - 1;
    for (std::size_t j = 1; j <= m; ++j) {
      co_await pair_sums(warp, lanes, first, levels_[j - 1].base, levels_[j - 1].size,
                         levels_[j].base);
      if (levels_[j].size > w()) co_await warp.sync();
    }
    for (std::size_t j = m; j >= 1; --j) {
      co_await spread(warp, lanes, first, levels_[j].base, levels_[j - 1].base,
                      levels_[j - 1].size);
      if (j > 1 && levels_[j - 1].size > w()) co_await warp.sync();
    }
  }

  BarrierSteps barrier_steps() const override {
    return {power_of_two_formula(w(), "2*(log2(n) - log2(w) - 1)", "2*#{t < log2(n) : 2^t > w}"),
            prefix_simple_syncs(n(), w())};
  }
  void layout() override { levels_ = pair_layout({0, n()}, n()); }

 private:
  std::vector<Region> levels_;
};

class PrefixOneWarp final : public PrefixAlgorithm {
 public:
  explicit PrefixOneWarp(const ProgramArgs& args)
      : PrefixAlgorithm(args, "prefix_one_warp", ReductionAlgorithm::one_warp,
                        "Nakano 2012 (asynchronous), section 5.1") {}

 protected:
  Task run_with(Warp& warp, Lanes& lanes) override {
    return one_warp_prefix(warp, lanes, 0, n(), scratch_);
  }
  BarrierSteps barrier_steps() const override { return {"0", 0}; }
  void layout() override { scratch_ = allocate(one_warp_scratch(w())); }

 private:
  Address scratch_ = 0;
};

class PrefixTree final : public PrefixAlgorithm {
 public:
  explicit PrefixTree(const ProgramArgs& args)
      : PrefixAlgorithm(args, "prefix_tree", ReductionAlgorithm::tree,
                        "Nakano 2012 (asynchronous), Lemma 7") {}

 protected:
  Task run_with(Warp& warp, Lanes& lanes) override { return prefix_tree(warp, lanes, tree_); }
  BarrierSteps barrier_steps() const override {
    return {"2*ceil(log_w(n)) - 1", prefix_tree_syncs(n(), w())};
  }
  void layout() override { tree_ = prefix_tree_layout({0, n()}); }

 private:
  TreeLayout tree_;
};

class PrefixSimpleTree final : public PrefixAlgorithm {
 public:
  explicit PrefixSimpleTree(const ProgramArgs& args)
      : PrefixAlgorithm(args, "prefix_simple_tree", ReductionAlgorithm::simple_tree,
                        "Nakano 2012 (asynchronous), Theorem 8") {}

 protected:
  Task run_with(Warp& warp, Lanes& lanes) override {
    return prefix_simple_tree(warp, lanes, layout_);
  }
  BarrierSteps barrier_steps() const override {
    return {"2r + 2*ceil(log_w(n/2^r)) - 2", prefix_simple_tree_syncs(n(), w()), true};
  }
  void layout() override { layout_ = simple_tree_layout({0, n()}); }

 private:
  SimpleTreeLayout layout_;
};

// A w x w block of a row-major matrix: element (r, q) at base + r*stride + q; rows x cols of
// it exist.
struct Block {
  Address base;
  std::uint64_t stride;
  std::uint64_t rows;
  std::uint64_t cols;
};

// Read step t of the rotating technique: lane x reads S[t][(t + x) mod w].
void rotated_reads(std::span<Address> out, const Block& s, std::uint64_t t) {
  const std::uint64_t w = out.size();
  for (std::uint64_t x = 0; x < w; ++x) {
    const std::uint64_t q = (t + x) % w;
    out[x] = t < s.rows && q < s.cols ? s.base + t * s.stride + q : kInactive;
  }
}

void keep_local(Warp& warp, std::span<const Word> got, std::uint64_t t) {
  for (unsigned x = 0; x < warp.width(); ++x) warp.local(x)[t] = got[x];
}

// Write step t: lane x holds S[s][t] (s = (t - x) mod w) in local[s] and writes it to D[t][s].
void rotated_writes(std::span<Address> out, std::span<Word> values, Warp& warp, const Block& s,
                    const Block& d, std::uint64_t t) {
  const std::uint64_t w = out.size();
  for (std::uint64_t x = 0; x < w; ++x) {
    const std::uint64_t r = (t + w - x) % w;
    out[x] = r < s.rows && t < s.cols ? d.base + t * d.stride + r : kInactive;
    values[x] = warp.local(static_cast<unsigned>(x))[r];
  }
}

// Transposes block S into block D (D[q][r] <- S[r][q]) by the rotating technique (Nakano 2012,
// Lemma 3) through the lanes' local memories: every access touches one row of a block.
Task transpose_block(Warp& warp, Lanes& lanes, Block s, Block d) {
  for (unsigned t = 0; t < warp.width(); ++t) {
    rotated_reads(lanes.a, s, t);
    keep_local(warp, co_await warp.read(lanes.a), t);
  }
  for (unsigned t = 0; t < warp.width(); ++t) {
    rotated_writes(lanes.a, lanes.x, warp, s, d, t);
    co_await warp.write(lanes.a, lanes.x);
  }
}

// Lane x: row[first + x].
void row_addresses(std::span<Address> out, Address row, std::uint64_t first) {
  for (std::size_t x = 0; x < out.size(); ++x) out[x] = row + first + x;
}

// Lane x: row[first + x - 1], inactive for thread 0.
void left_neighbours(std::span<Address> out, Address row, std::uint64_t first) {
  for (std::size_t x = 0; x < out.size(); ++x)
    out[x] = first + x > 0 ? row + first + x - 1 : kInactive;
}

void take_offsets(std::span<Word> offsets, std::span<const Word> got,
                  std::span<const Address> addresses) {
  for (std::size_t x = 0; x < offsets.size(); ++x)
    offsets[x] = addresses[x] != kInactive ? got[x] : 0;
}

void add_offsets(std::span<Word> values, std::span<const Word> got, std::span<const Word> offsets) {
  for (std::size_t x = 0; x < values.size(); ++x) values[x] = wrapping_add(got[x], offsets[x]);
}

class PrefixHybrid final : public PrefixAlgorithm {
 public:
  explicit PrefixHybrid(const ProgramArgs& args)
      : PrefixAlgorithm(args, "prefix_hybrid", ReductionAlgorithm::hybrid,
                        "Nakano 2012 (asynchronous), Theorem 9") {}

  std::uint64_t local_words() const override { return w(); }

 protected:
  // The numbers are wl rows ("children") of c = ceil(n/(w*l)) each; warp I owns children
  // I*w .. I*w + w - 1, which it transposes into columns of D (c rows of w*l) and back, so
  // that only Simple-Tree on D's last row (the children's totals) needs other warps' results.
  Task run_with(Warp& warp, Lanes& lanes) override {
    const std::uint64_t first = warp.thread(0);
    const std::uint64_t blocks = (c_ + w() - 1) / w();
    for (std::uint64_t j = 0; j < blocks; ++j)
      co_await transpose_block(warp, lanes, children_block(first, j), columns_block(first, j));
    for (std::uint64_t t = 1; t < c_; ++t)
      co_await accumulate(warp, lanes, first, d_ + t * p_, d_ + (t - 1) * p_, p_);
    co_await warp.sync();
    co_await prefix_simple_tree(warp, lanes, totals_);
    co_await warp.sync();
    // Child i's numbers get the prefix sum of children 0 .. i-1 (its last is right already).
    std::vector<Word> offsets(w());
    left_neighbours(lanes.a, d_ + (c_ - 1) * p_, first);
    take_offsets(offsets, co_await warp.read(lanes.a), lanes.a);
    for (std::uint64_t t = 0; t + 1 < c_; ++t) {
      row_addresses(lanes.a, d_ + t * p_, first);
      add_offsets(lanes.x, co_await warp.read(lanes.a), offsets);
      co_await warp.write(lanes.a, lanes.x);
    }
    for (std::uint64_t j = 0; j < blocks; ++j)
      co_await transpose_block(warp, lanes, columns_block(first, j), children_block(first, j));
  }

  BarrierSteps barrier_steps() const override {
    return {"2r + 2*ceil(log_w(w*l/2^r))", prefix_hybrid_syncs(w(), l()), true};
  }
  void layout() override {
    p_ = std::uint64_t{w()} * l();
    c_ = (n() + p_ - 1) / p_;
    // The last child may be short: pad the numbers with zeros to w*l*c words.
    if (p_ * c_ > memory_words()) allocate(p_ * c_ - memory_words());
    d_ = allocate(p_ * c_);
    totals_ = simple_tree_layout({d_ + (c_ - 1) * p_, p_});
  }

 private:
  // Block (I, j) of the children (rows of c numbers) and block (j, I) of D (rows of w*l).
  Block children_block(std::uint64_t first, std::uint64_t j) const {
    return {first * c_ + j * w(), c_, w(), std::min<std::uint64_t>(w(), c_ - j * w())};
  }
  Block columns_block(std::uint64_t first, std::uint64_t j) const {
    return {d_ + j * w() * p_ + first, p_, std::min<std::uint64_t>(w(), c_ - j * w()), w()};
  }

  std::uint64_t p_ = 0;  // w*l threads, and children
  std::uint64_t c_ = 0;  // numbers per child
  Address d_ = 0;        // D: the transpose, c rows of w*l
  SimpleTreeLayout totals_;
};

}  // namespace

ProgramInfo prefix_simple_program() {
  return reduction_program_info<PrefixSimple>(
      "prefix_simple",
      "interval sums a_t[i] = a_t+1[2i] + a_t+1[2i+1], then copy and add down the levels "
      "(n = 2^m >= 2w, n/2 threads)",
      "Nakano 2012 (asynchronous), Lemma 6");
}

ProgramInfo prefix_one_warp_program() {
  return reduction_program_info<PrefixOneWarp>(
      "prefix_one_warp",
      "Simple on n <= w numbers by one warp of w/2 threads, no syncthreads (n a power of two)",
      "Nakano 2012 (asynchronous), section 5.1");
}

ProgramInfo prefix_tree_program() {
  return reduction_program_info<PrefixTree>(
      "prefix_tree",
      "w-ary tree: group totals bottom-up, then One-Warp prefix sums of each group top-down "
      "(n a power of two or of w, n threads)",
      "Nakano 2012 (asynchronous), Lemma 7");
}

ProgramInfo prefix_simple_tree_program() {
  return reduction_program_info<PrefixSimpleTree>(
      "prefix_simple_tree",
      "ceil(log2(log2(w))) levels of interval sums, Tree on the last, then the sums of the "
      "interval sums back down (n = 2^m >= 2w, n/2 threads)",
      "Nakano 2012 (asynchronous), Theorem 8");
}

ProgramInfo prefix_hybrid_program() {
  return reduction_program_info<PrefixHybrid>(
      "prefix_hybrid",
      "transpose (Fig. 11), column-wise prefix sums, Simple-Tree on the w*l totals, offsets, "
      "transpose back; w words of local memory per PE (n >= w*l, w*l threads)",
      "Nakano 2012 (asynchronous), Theorem 9");
}

}  // namespace mmsim
