// mmsim_plain_loop: the yardstick of scripts/bench. The contiguous workload of
// configs/contiguous_dmm.yaml (p threads read n words, m[t*p + i] in round t, each value checked
// against the data pattern) on the DMM under round robin, as a plain loop over the dispatches
// with the timing rules of docs/semantics.md §3 and nothing else: no SystemC, no coroutines, no
// statistics. What a simulator of these rules can do on the machine at best; scripts/bench
// prints every simulation rate as a ratio to it.
//
// Prints the running time in time units (to compare with the simulator's), the dispatches, and
// the seconds of the loop itself (the memory is filled before the clock starts).
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <CLI/CLI.hpp>

#include "hw/support/divider.hpp"
#include "hw/support/huge_pages.hpp"
#include "hw/support/types.hpp"
#include "sw/program/data_pattern.hpp"

namespace {

using mmsim::Address;
using mmsim::Cycle;
using mmsim::Word;

// k of a dispatch of w lanes (every lane active): the most distinct addresses sent to one bank.
class Stages {
 public:
  explicit Stages(unsigned width) : bank_(width), busiest_(width) {}

  unsigned operator()(const Address* a, unsigned width) {
    if (width <= 64) {  // every lane in a bank of its own: one stage
      std::uint64_t used = 0;
      for (unsigned lane = 0; lane < width; ++lane)
        used |= std::uint64_t{1} << bank_.remainder(a[lane]);
      if (static_cast<unsigned>(std::popcount(used)) == width) return 1;
    }
    unsigned k = 0;
    for (unsigned b = 0; b < width; ++b) {
      unsigned m = 0;
      for (unsigned lane = 0; lane < width; ++lane)
        if (bank_.remainder(a[lane]) == b) busiest_[m++] = a[lane];
      std::sort(busiest_.begin(), busiest_.begin() + m);
      k = std::max(k, static_cast<unsigned>(std::unique(busiest_.begin(), busiest_.begin() + m) -
                                            busiest_.begin()));
    }
    return k;
  }

 private:
  mmsim::Divider bank_;
  std::vector<Address> busiest_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("The contiguous workload's timing rules as a plain loop (scripts/bench)");
  unsigned w = 32;
  std::uint64_t p = 32768;
  unsigned l = 8;
  std::uint64_t n = std::uint64_t{1} << 24;
  app.add_option("--width", w, "w: lanes per warp, banks")->check(CLI::Range(1u, 1024u));
  app.add_option("--threads", p, "p: threads (a multiple of w)")->check(CLI::PositiveNumber);
  app.add_option("--latency", l, "l: pipeline stages")->check(CLI::Range(1u, 1u << 20));
  app.add_option("--n", n, "words read (a multiple of p)")->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);
  if (p % w != 0 || n % p != 0) {
    std::fprintf(stderr, "mmsim_plain_loop: p must be a multiple of w, n of p\n");
    return 2;
  }

  mmsim::HugePageArray<Word> memory(n);
  for (Address a = 0; a < n; ++a) memory[a] = mmsim::data_pattern(a);
  const std::uint64_t warps = p / w;
  std::vector<Cycle> ready(warps, 0);         // when the warp's next instruction may go
  std::vector<Word> registers(warps * w, 0);  // one per thread
  std::vector<Address> addresses(w);
  Stages stages(w);

  const auto start = std::chrono::steady_clock::now();
  Cycle free = 0;  // when the MMU accepts the next dispatch
  Cycle last = 0;  // the latest completion
  std::uint64_t dispatches = 0;
  std::uint64_t mismatches = 0;
  for (std::uint64_t round = 0; round < n / p; ++round)
    for (std::uint64_t warp = 0; warp < warps; ++warp) {  // round robin: the warps in turn
      const Address first = round * p + warp * w;
      for (unsigned lane = 0; lane < w; ++lane) addresses[lane] = first + lane;
      const Cycle t = std::max(free, ready[warp]);
      const unsigned k = stages(addresses.data(), w);
      free = t + k;
      last = t + k + l - 2;
      ready[warp] = last + 1;
      Word* r = registers.data() + warp * w;
      for (unsigned lane = 0; lane < w; ++lane) r[lane] = memory[addresses[lane]];
      Word differences = 0;
      for (unsigned lane = 0; lane < w; ++lane)
        differences |= r[lane] ^ mmsim::data_pattern(addresses[lane]);
      mismatches += differences != 0;
      ++dispatches;
    }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("cycles %llu dispatches %llu seconds %.6f mismatches %llu\n",
              static_cast<unsigned long long>(last + 1),
              static_cast<unsigned long long>(dispatches), seconds,
              static_cast<unsigned long long>(mismatches));
  return mismatches == 0 ? 0 : 1;
}
