// The per-lane loops compiled once per variant (hw/support/vector_isa.hpp): the variant in use is
// one this CPU runs, the widest it runs; and every variant computes the same: the kernels on random
// dispatches, and whole runs (statistics byte for byte, wall-clock figures aside) and the
// congestion table.
#include <gtest/gtest.h>

#include <bit>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/memory/address_maps.hpp"
#include "hw/mmu/request_packing_unit.hpp"
#include "hw/support/vector_isa.hpp"
#include "support/testbench_text.hpp"
#include "support/vector_isas.hpp"
#include "testbench/experiments/congestion_experiment.hpp"
#include "testbench/run/stats_json.hpp"

namespace mmsim::test {
namespace {

// The CPU flags the kernel reports (x86 Linux), to check the detection against.
std::set<std::string> cpu_flags() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("flags", 0) == 0) {
      std::istringstream words(line.substr(line.find(':') + 1));
      return {std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
    }
  return {};
}

TEST(VectorIsa, TheVariantInUseIsTheWidestTheCpuRuns) {
  EXPECT_TRUE(cpu_supports(VectorIsa::baseline));
  EXPECT_TRUE(cpu_supports(vector_isa()));
  const bool v3 = cpu_supports(VectorIsa::x86_64_v3);
  const bool v4 = cpu_supports(VectorIsa::x86_64_v4);
  EXPECT_TRUE(v3 || !v4) << "x86-64-v4 holds x86-64-v3";
  const VectorIsa widest = runnable_isas().back();
  EXPECT_EQ(vector_isa(), widest);
#if defined(__x86_64__)
  // Each level exactly when the kernel lists all its features; LZCNT ("abm") only one way: a
  // Linux 6.18 guest on an EPYC lists neither "abm" nor "sse4a" where CPUID has both.
  const std::set<std::string> flags = cpu_flags();
  const auto lists = [&](std::initializer_list<const char*> features) {
    bool all = true;
    for (const char* feature : features) all &= flags.count(feature) > 0;
    return all;
  };
  if (!flags.empty()) {
    const bool v3_but_lzcnt =
        lists({"avx", "avx2", "bmi1", "bmi2", "fma", "f16c", "movbe", "popcnt", "sse4_2", "xsave"});
    const bool avx512 = lists({"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"});
    if (!v3_but_lzcnt) {
      EXPECT_FALSE(v3);
    }
    if (v3_but_lzcnt && lists({"abm"})) {
      EXPECT_TRUE(v3);
    }
    EXPECT_EQ(v4, v3 && avx512);
  }
#endif
  for (const VectorIsa isa : {VectorIsa::x86_64_v3, VectorIsa::x86_64_v4})
    if (!cpu_supports(isa) || !built_for(isa)) {
      EXPECT_THROW(use_vector_isa(isa), std::invalid_argument) << vector_isa_name(isa);
      EXPECT_EQ(vector_isa(), widest);
    }
}

// A dispatch of `lanes` lanes into a memory of `cells` cells: some lanes inactive, some rounds
// drawn from a few cells only (merged requests, broadcasts).
std::vector<Address> random_dispatch(std::mt19937_64& random, std::size_t lanes,
                                     std::uint64_t cells, int round) {
  std::vector<Address> dispatch(lanes);
  const Address range = round % 4 == 1 ? std::min<Address>(cells, 3) : cells;
  for (Address& c : dispatch)
    c = round % 3 != 0 && random() % 10 < 3 ? kInactive : random() % cells % range;
  dispatch[0] = random() % range;  // at least one active lane
  return dispatch;
}

TEST(VectorIsa, ThePackingUnitCountsTheSameInEveryVariant) {
  std::mt19937_64 random(23);
  for (const unsigned w : {4u, 16u, 32u, 48u, 64u, 256u})
    for (const unsigned warps : {1u, 4u})
      for (const std::uint64_t rows :
           {std::uint64_t{8}, std::uint64_t{1024}, std::uint64_t{1} << 14}) {
        const std::size_t lanes = std::size_t{w} * warps;
        const std::uint64_t cells = rows * w;
        std::vector<std::vector<Address>> dispatches;
        for (int round = 0; round < 40; ++round)
          dispatches.push_back(random_dispatch(random, lanes, cells, round));
        std::vector<std::vector<unsigned>> stages;
        std::vector<RequestSpread> spreads;
        for (const VectorIsa isa : runnable_isas()) {
          const UsingIsa using_isa(isa);
          RequestPackingUnit counting(w, lanes, cells);
          RequestPackingUnit plain(w, lanes, cells);
          stages.emplace_back();
          for (const std::vector<Address>& d : dispatches) {
            stages.back().push_back(counting.count_stages(d, 0));
            EXPECT_EQ(plain.stages(d), stages.back().back());
          }
          spreads.push_back(counting.spread());
        }
        for (std::size_t v = 1; v < stages.size(); ++v) {
          EXPECT_EQ(stages[v], stages[0]) << "w " << w << " lanes " << lanes << " rows " << rows;
          EXPECT_EQ(spreads[v].banks, spreads[0].banks);
        }
      }
}

TEST(VectorIsa, TheAddressMapsPlaceTheSameInEveryVariant) {
  std::mt19937_64 random(5);
  for (const AddressMapInfo& info : address_maps())
    for (const unsigned w : {16u, 32u, 48u}) {
      if (info.power_of_two && !std::has_single_bit(w)) continue;
      const std::uint64_t rows = 1000;
      const auto map = info.make({.width = w, .rows = rows, .shifts = {}, .seed = 3});
      const std::vector<Address> addresses = random_dispatch(random, 4 * w, rows * w, 2);
      for (const VectorIsa isa : runnable_isas()) {
        const UsingIsa using_isa(isa);
        std::vector<Address> cells(addresses.size());
        map->locate(addresses, cells);
        for (std::size_t i = 0; i < addresses.size();
             ++i)  // the map's own definition, lane by lane
          ASSERT_EQ(cells[i], addresses[i] == kInactive ? kInactive : map->cell(addresses[i]))
              << info.name << " w " << w << " " << vector_isa_name(isa) << " lane " << i;
      }
    }
}

// Keys of the statistics that depend on the clock, the host or the file, not on what was
// simulated (each run writes its testbench to a folder of its own).
nlohmann::json simulated(nlohmann::json stats) {
  for (const char* key : {"wall_seconds", "version", "command", "date", "host", "testbench"})
    stats.erase(key);
  return stats;
}

TEST(VectorIsa, RunsAndTheCongestionTableAreTheSameInEveryVariant) {
  const std::vector<std::string> testbenches = {
      // contiguous reads (the MMU's lane count, the packing unit's conflict-free warps)
      "machine: {model: dmm, width: 32, latency: 8, threads: 1024}\n"
      "program: {name: contiguous_access, params: {n: 65536, op: read}}\n",
      // the random shift unit and super warps (the address map, the busiest banks)
      "machine: {model: rsdmm, width: 16, latency: 4, threads: 256, super_warp: 4, seed: 7,"
      " rsu: {seed: 5}}\n"
      "program: {name: permute_straightforward, params: {n: 4096, permutation: random, seed: 9}}\n",
      // sorting on the hierarchical machine (stamped shared memories, the search steps)
      "machine: {model: hmm, multiprocessors: 2, width: 8, latency: 20, threads: 64,"
      " global: {width: 4}, shared: {latency: 2}}\n"
      "program: {name: merge_sort_hmm, params: {n: 2048, block: 256}}\n",
      "machine: {model: hmm, multiprocessors: 2, width: 8, latency: 20, threads: 64,"
      " global: {width: 4}, shared: {latency: 2}}\n"
      "program: {name: cole_merge_sort, params: {n: 2048, block: 256}}\n",
  };
  for (const std::string& yaml : testbenches) {
    std::vector<std::string> stats;
    for (const VectorIsa isa : runnable_isas()) {
      const UsingIsa using_isa(isa);
      const RunOutcome outcome = run_yaml(yaml);
      ASSERT_EQ(outcome.verified, std::optional<bool>(true)) << yaml;
      stats.push_back(simulated(stats_json(outcome)).dump(1));
    }
    for (std::size_t v = 1; v < stats.size(); ++v) EXPECT_EQ(stats[v], stats[0]) << yaml;
  }

  CongestionSpec spec{.widths = {16, 32},
                      .super_warps = {1, 3},
                      .arrays = {1024, 1 << 20},
                      .rounds = 3000,
                      .seed = 4,
                      .threads = 1};
  std::vector<std::vector<CongestionCell>> tables;
  for (const VectorIsa isa : runnable_isas()) {
    const UsingIsa using_isa(isa);
    tables.push_back(run_congestion(spec));
  }
  for (std::size_t v = 1; v < tables.size(); ++v) {
    ASSERT_EQ(tables[v].size(), tables[0].size());
    for (std::size_t c = 0; c < tables[0].size(); ++c) {
      EXPECT_EQ(tables[v][c].congestion, tables[0][c].congestion) << c;
      EXPECT_EQ(tables[v][c].standard_error, tables[0][c].standard_error) << c;
    }
  }
}

}  // namespace
}  // namespace mmsim::test
