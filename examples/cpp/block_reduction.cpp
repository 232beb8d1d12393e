// A block reduction on the hierarchical machine as a C++ plugin: every thread adds up its
// numbers m[g], m[g + p], ... in its register; each SM (a CUDA block) adds up its threads' sums
// in its shared memory, thread t adding s[t + h] to s[t] with a sync() before each step, and
// thread 0 writes the block's sum after the numbers. The same program, and the same cycles, as
// examples/python/block_reduction.py.
#include <string>
#include <vector>

#include <hw/machine/machine_models.hpp>
#include <hw/support/errors.hpp>
#include <sw/program/plugin.hpp>

namespace {

using namespace mmsim;

Word number(Address a) { return static_cast<Word>(a * 7 % 1000); }

// Lane i addresses base + t for its thread t = first + i of the block when t < active, else
// it is inactive (kInactive: it sends nothing).
void active_lanes(std::vector<Address>& lanes, std::uint64_t first, std::uint64_t active,
                  Address base) {
  for (std::size_t i = 0; i < lanes.size(); ++i)
    lanes[i] = first + i < active ? base + first + i : kInactive;
}

class BlockReduction final : public WarpProgram {
 public:
  explicit BlockReduction(const ProgramArgs& args) : n_(args.params.count("n")) {}

  void configure(const MachineConfig& machine) override {
    if (!machine_model(machine).hierarchical)
      throw ConfigError("model", "block_reduction runs on the hierarchical machine (model hmm)");
    p_ = machine.threads;
    blocks_ = machine.multiprocessors;
    if (n_ % p_ != 0)
      throw ParamError(
          "n", "n = " + std::to_string(n_) + " must be a multiple of p = " + std::to_string(p_));
  }

  std::uint64_t memory_words() const override { return n_ + blocks_; }  // numbers, then sums
  std::uint64_t shared_words() const override { return p_ / blocks_; }  // a word per thread

  void initialize(Mmu& memory) override {
    for (Address a = 0; a < n_; ++a) memory.poke(a, number(a));
  }

  Task run(Warp& warp) override {
    const unsigned width = warp.width();
    const std::uint64_t first = warp.block_thread(0);  // lane i runs thread first + i
    std::vector<Address> lanes(width);
    std::vector<Word> sums(width, 0);
    for (Address start = 0; start < n_; start += p_) {  // p consecutive words: coalesced
      const auto got = co_await warp.read(LaneRun{start + warp.thread(0)});
      for (unsigned i = 0; i < width; ++i) sums[i] += got[i];
    }
    co_await warp.write(LaneRun{first}, sums, Space::shared);  // s[t] = the thread's sum
    for (std::uint64_t size = warp.block_threads(); size > 1;) {
      const std::uint64_t half = (size + 1) / 2;
      co_await warp.sync();  // s[t + half] was written by another warp
      // Threads t < size - half add s[t + half] to s[t]; the others' lanes are inactive.
      active_lanes(lanes, first, size - half, half);
      const auto got = co_await warp.read(lanes, Space::shared);
      for (unsigned i = 0; i < width; ++i)
        if (lanes[i] != kInactive) sums[i] += got[i];
      active_lanes(lanes, first, size - half, 0);
      co_await warp.write(lanes, sums, Space::shared);
      size = half;
    }
    if (warp.warp_in_block() == 0) {  // thread 0 writes the block's sum
      active_lanes(lanes, first, 1, n_ + warp.block());
      co_await warp.write(lanes, sums);
    }
  }

  void verify(const Mmu& memory) override {
    // m[a] was added up by thread a mod p, of block (a mod p) / (p / d).
    std::vector<Word> expected(blocks_, 0);
    for (Address a = 0; a < n_; ++a) expected[a % p_ / (p_ / blocks_)] += number(a);
    for (unsigned block = 0; block < blocks_; ++block) {
      const Address at = n_ + block;
      verification().expect_equal(memory.peek(at), expected[block], [&] {
        return "block " + std::to_string(block) + "'s sum (m[" + std::to_string(at) + "])";
      });
    }
  }

 private:
  std::uint64_t n_;
  std::uint64_t p_ = 0;
  unsigned blocks_ = 1;
};

ProgramInfo block_reduction() {
  return {"block_reduction",
          "each SM adds up its threads' numbers in shared memory; thread 0 writes the block's sum",
          "a CUDA block reduction (sequential addressing)",
          {{"n", ParamType::integer, "numbers to add (a multiple of p)", "4096"}},
          [](const ProgramArgs& args) -> std::unique_ptr<WarpProgram> {
            return std::make_unique<BlockReduction>(args);
          }};
}

}  // namespace

MMSIM_PLUGIN_PROGRAMS(block_reduction())
