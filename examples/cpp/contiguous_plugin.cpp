// Contiguous reads (Nakano 2012, section III) as a C++ plugin: in round t, thread i reads
// m[t*p + i]; every value read is checked. The same program as examples/python/
// contiguous_access.py, and the built-in contiguous_access's twin.
#include <string>

#include <sw/program/data_pattern.hpp>
#include <sw/program/plugin.hpp>

namespace {

using namespace mmsim;

class ContiguousRead final : public WarpProgram {
 public:
  explicit ContiguousRead(const ProgramArgs& args) : n_(args.params.count("n")) {}

  void configure(const MachineConfig& machine) override {
    p_ = machine.threads;
    if (n_ % p_ != 0)
      throw ParamError("n", "n = " + std::to_string(n_) + " must be a multiple of p = " +
                                std::to_string(p_));
  }

  std::uint64_t memory_words() const override { return n_; }

  void initialize(Mmu& memory) override {
    for (Address a = 0; a < n_; ++a) memory.poke(a, data_pattern(a));
  }

  Task run(Warp& warp) override {
    for (std::uint64_t t = 0; t < n_ / p_; ++t) {
      // Lane i reads m[t*p + T(0) + i]: a run of consecutive addresses, taken whole.
      const LaneRun run{t * p_ + warp.thread(0)};
      const auto values = co_await warp.read(run);
      // Every value against the pattern in one pass; lane by lane only to name a mismatch.
      expect_pattern(verification(), values, run,
                     [&](std::size_t lane) { return "m[" + std::to_string(run[lane]) + "]"; });
    }
  }

 private:
  std::uint64_t n_;
  std::uint64_t p_ = 0;
};

ProgramInfo contiguous_read() {
  return {"contiguous_read",
          "in round t, thread i reads m[t*p + i] (n/p rounds)",
          "Nakano 2012, section III",
          {{"n", ParamType::integer, "array size in words (a multiple of p)", "4096"}},
          [](const ProgramArgs& args) -> std::unique_ptr<WarpProgram> {
            return std::make_unique<ContiguousRead>(args);
          }};
}

}  // namespace

MMSIM_PLUGIN_PROGRAMS(contiguous_read())
