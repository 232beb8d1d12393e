// The sorting programs: every program sorts every kind of input under every dispatch policy,
// free of races, with the barrier counts they claim (Cole's 3 log2(block) stages among them); a
// program that leaves out a barrier is caught; bad inputs are refused where they are.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>

#include "support/command.hpp"
#include "support/testbench_text.hpp"
#include "sw/programs/cole_plan.hpp"
#include "sw/programs/sort_input.hpp"

namespace mmsim::test {
namespace {

const std::vector<std::string> kInputs = {"random", "sorted", "reversed", "equal", "few"};

struct Policy {
  std::string dispatch;
  std::uint64_t seed = 1;
};

std::vector<Policy> every_policy() {
  return {{"round_robin"}, {"lowest_ready"}, {"oldest_ready"},
          {"random", 1},   {"random", 2},    {"adversarial"}};
}

// A flat machine: w = 8, l = 4.
std::string flat(const std::string& model, const Policy& policy, const std::string& program,
                 const std::string& params) {
  return "machine: {model: " + model + ", width: 8, latency: 4, dispatch: " + policy.dispatch +
         ", seed: " + std::to_string(policy.seed) + ", race_check: true}\n" +
         "program: {name: " + program + ", params: {" + params + "}}\n";
}

// A hierarchical machine: d = 4 multiprocessors of 2 warps of w = 8, l = 20, w_g = 4, l_s = 3.
std::string hmm(const std::string& shared_model, const Policy& policy, const std::string& program,
                const std::string& params, unsigned d = 4) {
  return "machine: {model: hmm, multiprocessors: " + std::to_string(d) +
         ", width: 8, latency: 20, threads: " + std::to_string(16 * d) +
         ", global: {width: 4}, shared: {latency: 3, model: " + shared_model +
         "}, dispatch: " + policy.dispatch + ", seed: " + std::to_string(policy.seed) +
         ", race_check: true}\n" + "program: {name: " + program + ", params: {" + params + "}}\n";
}

// Runs it and checks what every run must show: all n keys sorted, no race, no warning.
RunOutcome sorted_run(const std::string& yaml, std::uint64_t n) {
  const RunOutcome o = run_yaml(yaml);
  EXPECT_TRUE(o.verified.value_or(false)) << yaml << o.first_mismatch;
  EXPECT_TRUE(o.program_checked) << yaml;
  EXPECT_EQ(o.elements_checked, n) << yaml;
  EXPECT_EQ(o.mismatches, 0u) << yaml;
  EXPECT_EQ(o.race_count, 0u) << yaml;
  EXPECT_TRUE(o.errors.empty() && o.warnings.empty()) << yaml;
  // No sort beats reading every key and writing it back after the last read.
  const Bound* lower = find_bound(o, "time_lower");
  EXPECT_NE(lower, nullptr) << yaml;
  if (lower) {
    EXPECT_GE(static_cast<double>(o.result.cycles()), lower->value) << yaml;
  }
  // Where a barrier count is claimed, it is the one measured.
  for (const char* key : {"syncthreads_exact", "grid_syncs_exact", "congestion_exact"}) {
    if (const Bound* exact = find_bound(o, key)) {
      EXPECT_EQ(measured(o, *exact), exact->value) << key << "\n" << yaml;
    }
  }
  return o;
}

double figure(const RunOutcome& o, const std::string& key) {
  for (const ProgramFigure& f : o.figures)
    if (f.key == key) return f.value;
  ADD_FAILURE() << "no figure " << key;
  return -1;
}

TEST(Sort, FlatBitonicSortsEveryInputUnderEveryPolicy) {
  for (const std::string model : {"dmm", "umm"})
    for (const std::string layout : {"plain", "conflict_free"})
      for (const std::string& input : kInputs)
        for (const Policy& policy : every_policy())
          sorted_run(flat(model, policy, "bitonic_sort",
                          "n: 256, input: " + input + ", layout: " + layout),
                     256);
}

TEST(Sort, HierarchicalSortsSortEveryInputUnderEveryPolicy) {
  for (const std::string program : {"bitonic_sort", "merge_sort_hmm", "cole_merge_sort"})
    for (const std::string shared : {"dmm", "pram"})
      for (const std::string& input : kInputs)
        for (const Policy& policy : every_policy())
          sorted_run(hmm(shared, policy, program, "n: 1024, block: 64, input: " + input), 1024);
}

// The thesis' warp width, w = 32, which the sort programs' lane loops take as a constant count
// (the tests above use w = 8, the loops' general count): d = 2 multiprocessors of 2 warps.
TEST(Sort, HierarchicalSortsAtTheThesisWarpWidth) {
  for (const std::string program : {"merge_sort_hmm", "cole_merge_sort"})
    for (const std::string shared : {"dmm", "pram"})
      for (const std::string& input : kInputs)
        for (const Policy& policy : {Policy{"round_robin"}, Policy{"random", 4}})
          sorted_run(
              "machine: {model: hmm, multiprocessors: 2, width: 32, latency: 20, threads: "
              "128, global: {width: 8}, shared: {latency: 3, model: " +
                  shared + "}, dispatch: " + policy.dispatch + ", seed: " +
                  std::to_string(policy.seed) + ", race_check: true}\nprogram: {name: " + program +
                  ", params: {n: 2048, block: 256, input: " + input + "}}\n",
              2048);
}

TEST(Sort, SixtyFourBitKeysAndOtherSizes) {
  for (const Policy& policy : {Policy{"random", 3}, Policy{"adversarial"}}) {
    for (const std::string input : {"random", "few"}) {
      sorted_run(flat("dmm", policy, "bitonic_sort", "n: 512, key_bits: 64, input: " + input), 512);
      for (const std::string program : {"bitonic_sort", "merge_sort_hmm"})
        sorted_run(hmm("dmm", policy, program, "n: 512, block: 32, key_bits: 64, input: " + input),
                   512);
    }
    // Tiny and single-block sorts, a block larger than n, and idle multiprocessors.
    for (const std::string program : {"bitonic_sort", "merge_sort_hmm", "cole_merge_sort"})
      for (const auto& [n, block] : {std::pair{2, 2}, {8, 4}, {64, 4096}, {128, 64}, {2048, 2}})
        sorted_run(hmm("dmm", policy, program,
                       "n: " + std::to_string(n) + ", block: " + std::to_string(block)),
                   n);
    sorted_run(flat("umm", policy, "bitonic_sort", "n: 2"), 2);
  }
  // Fewer threads than comparators on the flat machine.
  sorted_run(
      "machine: {model: dmm, width: 8, latency: 4, threads: 16, race_check: true}\n"
      "program: {name: bitonic_sort, params: {n: 1024, layout: conflict_free}}\n",
      1024);
}

// Bitonic sort on a DMM with w = 8, n = 256 (m = 8): 36 steps, of which the 10 with j > w = 8
// need barriers: before and after each run of them in phases 5 .. 8: 2 + 3 + 4 + 5 = 14
// syncthreads. The 21 steps with j < w touch two rows per warp: congestion 2 for the plain
// layout, 1 for the conflict-free one but for the last step's writes back to plain places.
TEST(Sort, BitonicBarriersAndCongestionAreExact) {
  const Policy rr{"round_robin"};
  const RunOutcome plain = sorted_run(flat("dmm", rr, "bitonic_sort", "n: 256"), 256);
  EXPECT_EQ(plain.result.syncthreads, 14u);
  EXPECT_EQ(plain.result.counters.stages, 2u * 256 / 8 * (36 + 21));
  EXPECT_EQ(plain.result.counters.max_stages, 2u);
  EXPECT_EQ(figure(plain, "steps"), 36);
  const RunOutcome swizzled =
      sorted_run(flat("dmm", rr, "bitonic_sort", "n: 256, layout: conflict_free"), 256);
  EXPECT_EQ(swizzled.result.syncthreads, 14u);
  EXPECT_EQ(swizzled.result.counters.stages, 2u * 256 / 8 * 36 + 256 / 8);
  EXPECT_LT(swizzled.result.cycles(), plain.result.cycles());
  // The UMM: two address groups for the steps with j < w, whatever the layout.
  for (const std::string layout : {"plain", "conflict_free"})
    EXPECT_EQ(sorted_run(flat("umm", rr, "bitonic_sort", "n: 256, layout: " + layout), 256)
                  .result.counters.stages,
              2u * 256 / 8 * (36 + 21));
  // The HMM, n = 256, blocks of 64 (b = 6), d = 2: per block 3 + 5 syncthreads for phases 1..6
  // (barriers before and after the steps with j = 16, 32) and 3 + 2 for each of phases 7 and 8
  // (j = 32, 16 of the shared steps); two blocks per SM: 36. grid_syncs: 2 around phase 7's one
  // global step, 3 around and between phase 8's two: 5.
  const RunOutcome hier = sorted_run(hmm("dmm", rr, "bitonic_sort", "n: 256, block: 64", 2), 256);
  EXPECT_EQ(hier.result.syncthreads, 36u);
  EXPECT_EQ(hier.result.grid_syncs, 5u);
}

// merge_sort_hmm, n = 1024, blocks of 64, d = 4: four blocks per SM, each 1 + 6 + 1
// syncthreads, and R = 4 rounds of 4 tiles per SM, 4 syncthreads each: 4*8 + 4*4*4 = 96; two
// grid_syncs per round.
TEST(Sort, MergeSortBarriersAreExact) {
  const RunOutcome o =
      sorted_run(hmm("dmm", {"random", 4}, "merge_sort_hmm", "n: 1024, block: 64"), 1024);
  EXPECT_EQ(o.result.syncthreads, 96u);
  EXPECT_EQ(o.result.grid_syncs, 8u);
  for (const std::uint64_t barriers : o.result.warp_barriers) EXPECT_EQ(barriers, 96u + 8);
}

// Cole's merge sort, n = 1024, blocks of 64 (b = 6), d = 4: each block takes 3b = 18 stages of
// three syncthreads, one after loading and one after storing: 56; four blocks per SM. Then
// R = 4 rounds, each with n/s = 32 tiles (samples every s = 32 keys), 8 per SM, 4 syncthreads
// each: 4 * 56 + 4 * 8 * 4 = 352.
TEST(Sort, ColeTakesThreeStagesPerLevel) {
  const RunOutcome o =
      sorted_run(hmm("dmm", {"oldest_ready"}, "cole_merge_sort", "n: 1024, block: 64"), 1024);
  EXPECT_EQ(figure(o, "stages"), 18);
  EXPECT_EQ(figure(o, "rounds"), 4);
  EXPECT_EQ(o.result.syncthreads, 4u * (3 * 18 + 2) + 4u * 8 * 4);
  EXPECT_EQ(o.result.grid_syncs, 8u);
  // Every step of a merge is O(1) per key: good samplers leave at most 4 keys to compare, covers
  // at most 4 ranks to hand on.
  EXPECT_LE(figure(o, "longest_scan"), 4);
  EXPECT_GE(figure(o, "longest_scan"), 2);
  EXPECT_LE(figure(o, "longest_scatter"), 4);
  // One block of 4096 keys: 36 stages, and the same bounds.
  const RunOutcome big =
      sorted_run(hmm("pram", {"round_robin"}, "cole_merge_sort", "n: 4096, block: 4096"), 4096);
  EXPECT_EQ(figure(big, "stages"), 36);
  EXPECT_EQ(big.result.syncthreads, 3u * 36 + 2);
  EXPECT_LE(figure(big, "longest_scan"), 4);
  EXPECT_LE(figure(big, "longest_scatter"), 4);
  EXPECT_NE(find_bound(big, "thesis_formula"), nullptr);
}

// The pipeline of the thesis' section 4: a node becomes complete three stages after its
// children, receiving every fourth, every second, then every key of their lists.
TEST(Sort, ColePlanFollowsThePipeline) {
  for (unsigned b = 1; b <= 12; ++b) {
    const ColePlan plan(b);
    EXPECT_EQ(plan.stages(), 3 * b);
    for (unsigned h = 1; h <= b; ++h) {
      const std::uint64_t child = std::uint64_t{1} << (h - 1);
      EXPECT_EQ(plan.size(h, 3 * h), 2 * child) << b << " " << h;
      EXPECT_LT(plan.size(h, 3 * h - 1), 2 * child);
      // Children complete at 3(h-1): then x/4, x/2, x of each.
      EXPECT_EQ(plan.size(h, 3 * h - 2), 2 * (child / 4));
      EXPECT_EQ(plan.size(h, 3 * h - 1), 2 * (child / 2));
      EXPECT_EQ(plan.divisor(h - 1, 3 * h - 2), 4u);
      EXPECT_EQ(plan.divisor(h - 1, 3 * h - 1), 2u);
      EXPECT_EQ(plan.divisor(h - 1, 3 * h), 1u);
      for (unsigned s = 1; s <= 3 * h - 3; ++s) EXPECT_EQ(plan.divisor(h - 1, s), 4u);
    }
    // Sizes and divisors are powers of two, e.g. b = 3, the root at stage 8: |L_8| = 4 = 2 (4/2),
    // every second key of its children, complete (4 keys) since stage 6.
    for (unsigned s = 1; s <= 3 * b; ++s)
      for (const ColeLevelStage& l : plan.at(s)) {
        EXPECT_TRUE(std::has_single_bit(l.size) && std::has_single_bit(l.child_prev_size) &&
                    std::has_single_bit(l.child_size) && std::has_single_bit(l.divisor))
            << b << " " << s << " " << l.level;
        EXPECT_TRUE(l.prev_size == 0 || std::has_single_bit(l.prev_size));
        EXPECT_TRUE(!l.prepares ||
                    (std::has_single_bit(l.next_half) && std::has_single_bit(l.next_divisor)));
      }
    if (b == 3) {
      const ColeLevelStage& root = plan.at(8).back();
      EXPECT_EQ(root.level, 3u);
      EXPECT_EQ(root.size, 4u);
      EXPECT_EQ(root.divisor, 2u);
      EXPECT_EQ(root.child_prev_size, 4u);
    }
    // Every stage's arrays fit the arenas; the root's list is complete at the last stage.
    EXPECT_GE(plan.words(), 2u << b);
    EXPECT_EQ(plan.at(3 * b).size(), 1u);
    EXPECT_EQ(plan.at(3 * b).front().level, b);
    EXPECT_EQ(plan.at(3 * b).front().size, std::uint64_t{1} << b);
  }
}

// Deliberately broken variants: leaving out a needed barrier is caught by the race detector.
TEST(Sort, ADroppedBarrierIsCaught) {
  const Policy rr{"lowest_ready"};
  // The flat network's first barrier, before the first step with j > w.
  const RunOutcome bitonic = run_yaml(flat("dmm", rr, "bitonic_sort", "n: 256, drop_sync: 1"));
  EXPECT_GT(bitonic.race_count, 0u);
  EXPECT_FALSE(bitonic.verified.value_or(true));
  // merge_sort_hmm's fourth (w = 8): before the first level that merges runs of two warps.
  // (The first three are not needed: merges of runs within w keys stay inside one warp.)
  const RunOutcome merge =
      run_yaml(hmm("dmm", rr, "merge_sort_hmm", "n: 1024, block: 64, drop_sync: 4"));
  EXPECT_GT(merge.race_count, 0u);
  EXPECT_FALSE(merge.verified.value_or(true));
  // Cole's: between phases B1 and B2 of stage 3b - 1 = 17 of the first block, where the keys
  // hand on the ranks other keys wrote: barrier 1 + 3 * 16 + 2.
  const RunOutcome cole =
      run_yaml(hmm("dmm", rr, "cole_merge_sort", "n: 1024, block: 64, drop_sync: 51"));
  EXPECT_GT(cole.race_count, 0u);
  EXPECT_FALSE(cole.verified.value_or(true));
  // A grid_sync: the second of the first round, between ranking the samples and merging.
  const RunOutcome grid =
      run_yaml(hmm("dmm", rr, "cole_merge_sort",
                   "n: 1024, block: 64, drop_sync: " + std::to_string(4 * 56 + 2)));
  EXPECT_GT(grid.race_count, 0u);
}

TEST(Sort, KeysFromAFile) {
  TempDir dir;
  dir.write("keys.txt", "# eight keys\n5, -3, 7 7\n-2147483648 2147483647 0 -3\n");
  const auto bench = [&](const std::string& machine, const std::string& program) {
    return dir.write("t.yaml", machine + "\nprogram: {name: " + program +
                                   ", params: {file: keys.txt, block: 4}}\n");
  };
  const std::string hier =
      "machine: {model: hmm, multiprocessors: 2, width: 4, latency: 5, race_check: true}";
  for (const std::string program : {"bitonic_sort", "merge_sort_hmm", "cole_merge_sort"}) {
    const RunOutcome o = run_testbench(load_testbench(bench(hier, program)));
    EXPECT_TRUE(o.verified.value_or(false)) << program << o.first_mismatch;
    EXPECT_EQ(o.elements_checked, 8u);
  }
  const RunOutcome flat_run = run_testbench(load_testbench(
      bench("machine: {model: umm, width: 2, latency: 3, race_check: true}", "bitonic_sort")));
  EXPECT_TRUE(flat_run.verified.value_or(false));
  EXPECT_EQ(flat_run.machine.threads, 4u);  // one per comparator
}

TEST(Sort, GeneratedInputsAreWhatTheySay) {
  const auto keys = [](const std::string& input, std::int64_t key_bits = 32,
                       std::int64_t seed = 1) {
    ParamValues params;
    params.set("n", std::int64_t{1000});
    params.set("seed", seed);
    params.set("file", std::string());
    params.set("input", input);
    params.set("key_bits", key_bits);
    return sort_keys(params, ".");
  };
  const auto distinct = [](std::vector<Word> v) {
    std::sort(v.begin(), v.end());
    return static_cast<std::size_t>(std::unique(v.begin(), v.end()) - v.begin());
  };
  const std::vector<Word> random = keys("random");
  EXPECT_EQ(random, keys("random"));
  EXPECT_NE(random, keys("random", 32, 2));
  EXPECT_GT(distinct(random), 990u);
  EXPECT_FALSE(std::is_sorted(random.begin(), random.end()));
  for (const Word key : random) {
    EXPECT_GE(key, -(Word{1} << 31));
    EXPECT_LT(key, Word{1} << 31);
  }
  const std::vector<Word> wide = keys("random", 64);
  EXPECT_GT(std::count_if(wide.begin(), wide.end(),
                          [](Word k) { return k < -(Word{1} << 31) || k >= Word{1} << 31; }),
            900);
  const std::vector<Word> sorted = keys("sorted");
  EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));
  EXPECT_GT(distinct(sorted), 990u);
  const std::vector<Word> reversed = keys("reversed");
  EXPECT_TRUE(std::is_sorted(reversed.rbegin(), reversed.rend()));
  EXPECT_EQ(distinct(keys("equal")), 1u);
  EXPECT_LE(distinct(keys("few")), kFewDistinctKeys);
  EXPECT_GE(distinct(keys("few")), 2u);
}

std::string error_of(const std::string& yaml) {
  try {
    run_yaml(yaml);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Sort, RejectsWhatTheProgramsCannotTake) {
  const Policy rr{"round_robin"};
  EXPECT_EQ(error_of(flat("dmm", rr, "bitonic_sort", "n: 100")),
            "program.params.n: n = 100 is not a power of two; 64 or 128 would be (bitonic_sort "
            "sorts a power of two of at least 2 keys)");
  EXPECT_EQ(error_of(flat("dmm", rr, "bitonic_sort", "n: 1")),
            "program.params.n: n = 1 is too small (bitonic_sort sorts a power of two of at least "
            "2 keys)");
  EXPECT_EQ(error_of(flat("dmm", rr, "bitonic_sort", "")),
            "program.params.n: give n (the number of keys) or params.file");
  EXPECT_EQ(error_of(flat("dmm", rr, "bitonic_sort", "n: 64, input: shuffled")),
            "program.params.input: expected random, sorted, reversed, equal or few, got "
            "'shuffled'");
  EXPECT_EQ(error_of(flat("dmm", rr, "bitonic_sort", "n: 64, key_bits: 16")),
            "program.params.key_bits: expected 32 or 64, got 16");
  EXPECT_EQ(error_of(flat("dmm", rr, "bitonic_sort", "n: 64, layout: diagonal")),
            "program.params.layout: expected plain or conflict_free, got 'diagonal'");
  EXPECT_EQ(error_of(flat("dmm", rr, "bitonic_sort", "n: 64, drop_sync: 99")),
            "program.params.drop_sync: expected 0 (none) or a barrier from 1 to 5, got 99");
  EXPECT_EQ(error_of(hmm("dmm", rr, "merge_sort_hmm", "n: 64, block: 48")),
            "program.params.block: block = 48 is not a power of two");
  EXPECT_EQ(error_of(hmm("dmm", rr, "cole_merge_sort", "n: 64, key_bits: 64")),
            "program.params.key_bits: cole_merge_sort sorts 32-bit keys: it makes them distinct "
            "as items key << 32 | index in one 64-bit word");
  EXPECT_EQ(error_of(flat("dmm", rr, "cole_merge_sort", "n: 64")),
            "machine.model: cole_merge_sort runs on the hierarchical machine (model hmm): each "
            "multiprocessor sorts blocks of keys in its shared memory; model dmm is flat");
  EXPECT_EQ(error_of(flat("umm", rr, "merge_sort_hmm", "n: 64")),
            "machine.model: merge_sort_hmm runs on the hierarchical machine (model hmm): each "
            "multiprocessor sorts blocks of keys in its shared memory; model umm is flat");
}

TEST(Sort, BadKeyFilesAreRefusedWhereTheyAre) {
  TempDir dir;
  dir.write("word.txt", "1 2\n3 x4\n");
  dir.write("wide.txt", "1 2\n3,  2147483648\n");
  dir.write("three.txt", "1 2 3\n");
  dir.write("empty.txt", "# nothing\n");
  const auto bench = [&](const std::string& params) {
    return dir.write("t.yaml",
                     "machine: {model: dmm, width: 2, latency: 3}\n"
                     "program: {name: bitonic_sort, params: {" +
                         params + "}}\n");
  };
  const auto located = [&](const std::string& params) -> std::string {
    try {
      run_testbench(load_testbench(bench(params)));
    } catch (const InputError& e) {
      return e.describe();
    }
    return "no error";
  };
  EXPECT_EQ(located("file: word.txt"),
            (dir / "word.txt").string() + ":2:3: expected an integer, got 'x4'");
  EXPECT_EQ(located("file: wide.txt"),
            (dir / "wide.txt").string() +
                ":2:5: expected an integer from -2147483648 to 2147483647, got 2147483648");
  EXPECT_TRUE(run_testbench(load_testbench(bench("file: wide.txt, key_bits: 64")))
                  .verified.value_or(false));  // 64-bit keys take it
  EXPECT_NE(located("file: three.txt, n: 4").find("n = 4 but three.txt holds 3 keys"),
            std::string::npos);
  EXPECT_NE(located("file: empty.txt").find("empty.txt holds no keys"), std::string::npos);
  EXPECT_NE(located("file: none.txt").find("cannot open the input file"), std::string::npos);
  EXPECT_NE(located("file: three.txt, input: sorted").find("input: sorted arranges generated keys"),
            std::string::npos);
}

// The thesis' experiment at two sizes: the sweep's cases (MP as DMM, as PRAM) on the Table 2
// machine, written as JSON and CSV, and the plot drawn from either.
TEST(SortSweep, TableAndPlot) {
  const CommandResult probe = run_command("/usr/bin/python3 -c 'import matplotlib'");
  ASSERT_EQ(probe.status, 0) << "Debian's python3-matplotlib is needed: run scripts/setup";
  TempDir dir;
  const std::string source = MMSIM_SOURCE_DIR;
  const auto sweep =
      dir.write("s.yaml", "testbench: " + source + "/configs/sweeps/sort_hmm_base.yaml\n" +
                              "cases:\n  - {label: MP as DMM, set: {machine.shared.model: dmm}}\n" +
                              "  - {label: MP as PRAM, set: {machine.shared.model: pram}}\n" +
                              "grid: {program.params.n: [2^10, 2^13]}\n" +
                              "columns: [cycles, bounds.thesis_formula.value, verified]\n");
  const auto json = dir / "s.json";
  const auto csv = dir / "s.csv";
  const CommandResult r =
      mmsim("sweep " + shell_word(sweep) + " --json " + shell_word(json) + " --csv " +
            shell_word(csv) + " --results " + shell_word(dir / "s.results.jsonl"));
  ASSERT_EQ(r.status, 0) << r.err;
  // One block on one MP (2^10), two blocks and a merge round (2^13); bank conflicts cost time.
  EXPECT_NE(r.out.find("| MP as DMM | 2^10 | 25950 | 1588.0 | yes |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| MP as PRAM | 2^10 | 19209 | 1588.0 | yes |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| MP as DMM | 2^13 | 157807 |"), std::string::npos) << r.out;
  // The plot: time against n, log-log, one line per model (scripts/plot_sweep).
  const auto png = dir / "s.png";
  const std::string plot_sweep = source + "/scripts/plot_sweep ";
  const CommandResult plot =
      run_command(plot_sweep + shell_word(json) + " --x n --y cycles --log -o " + shell_word(png));
  ASSERT_EQ(plot.status, 0) << plot.err;
  EXPECT_EQ(read_file(png).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  const CommandResult bad = run_command(plot_sweep + shell_word(dir / "none.json") +
                                        " --x n --y cycles -o " + shell_word(dir / "x.png"));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("scripts/plot_sweep: cannot read"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.png"));
}

}  // namespace
}  // namespace mmsim::test
