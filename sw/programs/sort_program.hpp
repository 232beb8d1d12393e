// What the sorting programs share: their keys (sort_input), the input array at m[0 .. n) that
// ends sorted in place, n a power of two, the check of the output, `drop_sync` (a deliberately
// broken variant), the lower bound the timing rules give for any sort, and, on the hierarchical
// machine, the blocks of keys each multiprocessor sorts in its shared memory (blocks j, j + d, ...
// on SM j) before they are merged through global memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/program/program_info.hpp"
#include "sw/program/warp_program.hpp"
#include "sw/programs/sort_input.hpp"

namespace mmsim {

// A warp's barriers in program order, so that `drop_sync: k` can leave out the k-th.
class BarrierCount {
 public:
  explicit BarrierCount(std::int64_t drop) : drop_(drop) {}
  // Counts a barrier; false for the one to leave out.
  bool keep() { return ++count_ != drop_; }

 private:
  std::int64_t drop_;
  std::int64_t count_ = 0;
};

class SortProgram : public WarpProgram {
 public:
  SortProgram(const ProgramArgs& args, std::string name);

  // On the hierarchical machine four warps per multiprocessor (the thesis' Table 2: 128 threads
  // of 32-thread warps); on a flat machine flat_threads().
  std::uint64_t default_threads(const MachineConfig& machine) const final;
  void configure(const MachineConfig& machine) final;
  std::uint64_t memory_words() const override { return n(); }
  // The keys and their sorted copy (the reference of the check), made by prepare().
  std::uint64_t host_bytes() const override { return 16 * n(); }
  void prepare() override;
  void initialize(Mmu& memory) override;
  void verify(const Mmu& memory) override;

 protected:
  // Programs for the hierarchical machine keep one warp: configure() then says why not.
  virtual std::uint64_t flat_threads(const MachineConfig& machine) const { return machine.width; }
  // Checks what the algorithm needs of the machine and the keys, and sizes the data (after the
  // common checks); returns the most barriers (syncthreads and grid_syncs) one warp executes.
  virtual std::uint64_t configure_sort(const MachineConfig& machine) = 0;
  // A ConfigError unless `machine` is hierarchical.
  void require_hierarchical(const MachineConfig& machine) const;

  // Every key is read from the global memory (width `width`, latency l), and every key of the
  // output is written after the last read: 2n/width + 2l - 2.
  Bound io_lower_bound(unsigned width, unsigned latency) const;

  std::uint64_t n() const { return source_.size(); }
  unsigned log_n() const;
  const std::string& name() const { return name_; }
  std::int64_t drop_sync() const { return drop_sync_; }

  // The hierarchical machine (after configure).
  bool hierarchical() const { return hierarchical_; }
  std::uint64_t block() const { return block_; }
  unsigned log_block() const;
  std::uint64_t blocks() const { return n() / block_; }
  unsigned multiprocessors() const { return d_; }
  std::uint64_t block_threads() const { return block_threads_; }
  // Blocks multiprocessor j sorts.
  std::uint64_t blocks_of(unsigned j) const;

 private:
  std::string name_;
  SortKeys source_;
  std::vector<Word> keys_;    // made by prepare()
  std::vector<Word> sorted_;  // made by prepare()
  std::int64_t drop_sync_;
  std::uint64_t requested_block_;
  bool hierarchical_ = false;
  std::uint64_t block_ = 0;
  unsigned d_ = 1;
  std::uint64_t block_threads_ = 0;
};

// The parameters of every sort: the keys, block, drop_sync, then `extra`.
std::vector<ParamSpec> sort_params(std::vector<ParamSpec> extra = {});

template <class Program>
ProgramInfo sort_program_info(std::string name, std::string summary, std::string source,
                              std::vector<ParamSpec> extra = {}) {
  return {std::move(name), std::move(summary), std::move(source), sort_params(std::move(extra)),
          make_program<Program>()};
}

}  // namespace mmsim
