#include "sw/programs/sums.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "sw/programs/reduction_counts.hpp"
#include "sw/programs/reduction_program.hpp"
#include "sw/programs/warp_steps.hpp"

namespace mmsim {
namespace {

// Summing Algorithm Tree over levels[0] (the numbers) .. levels.back() (the sum): in each
// level, warp i sums group i of the level below with One-Warp (and groups i + p/w, ... when
// there are fewer warps than groups); then all meet at the barrier.
Task tree_sum(Warp& warp, Lanes& lanes, const std::vector<Region>& levels) {
  const std::uint64_t w = warp.width();
  for (std::size_t j = 1; j < levels.size(); ++j) {
    for (std::uint64_t i = warp.index(); i < levels[j].size; i += warp.count())
      co_await one_warp_sum(warp, lanes, levels[j - 1].base + i * w,
                            std::min(w, levels[j - 1].size - i * w), levels[j].base + i);
    co_await warp.sync();
  }
}

// The first r steps of Simple-Tree on a[0 .. size) in place, a barrier after each.
Task halvings(Warp& warp, Lanes& lanes, std::uint64_t size, unsigned r) {
  for (unsigned s = 0; s < r; ++s) {
    co_await halve(warp, lanes, warp.thread(0), 0, halved(size, s));
    co_await warp.sync();
  }
}

class SumSimple final : public SumProgram {
 public:
  explicit SumSimple(const ProgramArgs& args)
      : SumProgram(args, "sum_simple", ReductionAlgorithm::simple,
                   "Nakano 2012 (asynchronous), Lemma 2"),
        drop_(args.params.integer("drop_sync")) {}

  void configure(const MachineConfig& machine) override {
    SumProgram::configure(machine);
    const std::uint64_t syncs = simple_syncs(n(), w());
    if (drop_ < 0 || static_cast<std::uint64_t>(drop_) > syncs)
      throw ParamError("drop_sync", "expected 0 (none) or a syncthreads from 1 to " +
                                        std::to_string(syncs) + ", got " + std::to_string(drop_));
  }

 protected:
  Task run_with(Warp& warp, Lanes& lanes) override {
    std::int64_t syncs = 0;
    for (std::uint64_t size = n(); size > 1; size /= 2) {
      co_await halve(warp, lanes, warp.thread(0), 0, size);
      if (size / 2 > w() && ++syncs != drop_) co_await warp.sync();
    }
  }
  BarrierSteps barrier_steps() const override {
    return {power_of_two_formula(w(), "log2(n) - log2(w) - 1", "#{t < log2(n) : 2^t > w}"),
            simple_syncs(n(), w())};
  }
  void layout() override { result_ = 0; }

 private:
  std::int64_t drop_;
};

class SumOneWarp final : public SumProgram {
 public:
  explicit SumOneWarp(const ProgramArgs& args)
      : SumProgram(args, "sum_one_warp", ReductionAlgorithm::one_warp,
                   "Nakano 2012 (asynchronous), section 4.1") {}

 protected:
  Task run_with(Warp& warp, Lanes& lanes) override { return one_warp_sum(warp, lanes, 0, n(), 0); }
  BarrierSteps barrier_steps() const override { return {"0", 0}; }
  void layout() override { result_ = 0; }
};

class SumTree final : public SumProgram {
 public:
  explicit SumTree(const ProgramArgs& args)
      : SumProgram(args, "sum_tree", ReductionAlgorithm::tree,
                   "Nakano 2012 (asynchronous), Lemma 3") {}

 protected:
  Task run_with(Warp& warp, Lanes& lanes) override { return tree_sum(warp, lanes, levels_); }
  BarrierSteps barrier_steps() const override { return {"ceil(log_w(n))", tree_syncs(n(), w())}; }
  void layout() override {
    levels_ = tree_layout({0, n()});
    result_ = levels_.back().base;
  }

 private:
  std::vector<Region> levels_;
};

class SumSimpleTree final : public SumProgram {
 public:
  explicit SumSimpleTree(const ProgramArgs& args)
      : SumProgram(args, "sum_simple_tree", ReductionAlgorithm::simple_tree,
                   "Nakano 2012 (asynchronous), Theorem 4") {}

 protected:
  Task run_with(Warp& warp, Lanes& lanes) override {
    co_await halvings(warp, lanes, n(), simple_tree_halvings(w()));
    co_await tree_sum(warp, lanes, levels_);
  }
  BarrierSteps barrier_steps() const override {
    return {"r + ceil(log_w(n/2^r))", simple_tree_syncs(n(), w()), true};
  }
  void layout() override {
    levels_ = tree_layout({0, halved(n(), simple_tree_halvings(w()))});
    result_ = levels_.back().base;
  }

 private:
  std::vector<Region> levels_;
};

class SumHybrid final : public SumProgram {
 public:
  explicit SumHybrid(const ProgramArgs& args)
      : SumProgram(args, "sum_hybrid", ReductionAlgorithm::hybrid,
                   "Nakano 2012 (asynchronous), Theorem 5") {}

 protected:
  Task run_with(Warp& warp, Lanes& lanes) override {
    const std::uint64_t p = std::uint64_t{w()} * l();
    // Column sums: the numbers as rows of w*l; thread i adds up column i into a[0][i].
    for (std::uint64_t row = p; row < n(); row += p)
      co_await accumulate(warp, lanes, warp.thread(0), 0, row, std::min(p, n() - row));
    // The paper goes straight on to Simple-Tree, but its first step has thread i read a[i + h]
    // (h = w*l/2), which thread i + h may not have finished adding up: a barrier (race_check
    // reports the race without it).
    co_await warp.sync();
    co_await halvings(warp, lanes, p, simple_tree_halvings(w()));
    co_await tree_sum(warp, lanes, levels_);
  }
  BarrierSteps barrier_steps() const override {
    return {"1 + r + ceil(log_w(w*l/2^r))", hybrid_syncs(w(), l()), true};
  }
  void layout() override {
    levels_ = tree_layout({0, halved(std::uint64_t{w()} * l(), simple_tree_halvings(w()))});
    result_ = levels_.back().base;
  }

 private:
  std::vector<Region> levels_;
};

}  // namespace

ProgramInfo sum_simple_program() {
  return reduction_program_info<SumSimple>(
      "sum_simple",
      "sum by halving: in step t, thread i < 2^t adds a[i + 2^t] to a[i]; syncthreads when "
      "2^t > w (n = 2^m >= 2w, n/2 threads)",
      "Nakano 2012 (asynchronous), Lemma 2",
      {{"drop_sync", ParamType::integer,
        "leave out this syncthreads (1, 2, ...; 0: none): a broken variant for race_check", "0"}});
}

ProgramInfo sum_one_warp_program() {
  return reduction_program_info<SumOneWarp>(
      "sum_one_warp",
      "Simple on n <= w numbers by one warp of w/2 threads, no syncthreads "
      "(n a power of two)",
      "Nakano 2012 (asynchronous), section 4.1");
}

ProgramInfo sum_tree_program() {
  return reduction_program_info<SumTree>(
      "sum_tree",
      "w-ary tree: warp i sums group i of each level with One-Warp, "
      "syncthreads per level (n a power of two or of w, n threads)",
      "Nakano 2012 (asynchronous), Lemma 3");
}

ProgramInfo sum_simple_tree_program() {
  return reduction_program_info<SumSimpleTree>(
      "sum_simple_tree",
      "ceil(log2(log2(w))) halving steps, then Tree on what is left "
      "(n = 2^m >= 2w, n/2 threads)",
      "Nakano 2012 (asynchronous), Theorem 4");
}

ProgramInfo sum_hybrid_program() {
  return reduction_program_info<SumHybrid>(
      "sum_hybrid",
      "column sums of the n/(w*l) x w*l array, then Simple-Tree on the w*l "
      "column sums (n >= w*l, w*l threads)",
      "Nakano 2012 (asynchronous), Theorem 5");
}

}  // namespace mmsim
