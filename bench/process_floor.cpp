// mmsim_process_floor: what any process of mmsim's kind pays around its simulation on this
// machine, for scripts/bench_issue_table's row "the contiguous run as a process". It is linked as
// the mmsim command is (libmmsim.so and with it SystemC and the other libraries, the heap set up
// on huge pages before them), fills n words of a memory on huge pages with the data pattern as
// the simulated memory is filled, then spins for the given seconds in place of the simulation,
// and exits. No YAML, no machine, no statistics.
//
// Its whole-process time against the seconds it spun is the best ratio a simulator linked and
// filled like mmsim could reach here; mmsim's own ratio less this one is what mmsim adds.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>

#include "hw/support/huge_pages.hpp"
#include "hw/support/types.hpp"
#include "hw/support/vector_isa.hpp"
#include "sw/program/data_pattern.hpp"

int main(int argc, char** argv) {
  CLI::App app("The floor under a whole mmsim process (scripts/bench_issue_table)");
  std::uint64_t n = 0;
  double seconds = 0;
  app.add_option("words", n, "words of memory filled")->required()->check(CLI::PositiveNumber);
  app.add_option("seconds", seconds, "seconds spun in place of a simulation")
      ->required()
      ->check(CLI::NonNegativeNumber);
  CLI11_PARSE(app, argc, argv);

  mmsim::HugePageArray<mmsim::Word> cells(n);
  mmsim::for_each_lane(n, [cells = cells.data()](std::size_t a) {
    cells[a] = mmsim::data_pattern(a);
  });

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  while (std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
  }
  // A value of the memory, so that the fill is not optimised away.
  std::printf("%llu\n", static_cast<unsigned long long>(cells[n / 3]));
}
