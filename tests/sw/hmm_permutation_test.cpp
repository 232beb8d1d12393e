// The offline permutations of the hierarchical machine (hmm_permute_conventional,
// hmm_permute_special, hmm_permute; Kasagi, Nakano and Ito 2014): exactly the papers' times where
// their assumptions hold (p = n threads, w_g = w, shared latency 1, rounds one after another),
// computed here from the permutation; right and free of races under every dispatch policy in
// either round mode, on machines outside those assumptions too; bad input refused where it is
// written.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <random>
#include <set>

#include "hw/dispatch/dispatch_policies.hpp"
#include "support/command.hpp"
#include "support/program_checks.hpp"
#include "sw/planning/permutation.hpp"
#include "sw/planning/schedule_file.hpp"
#include "sw/planning/umm_plan.hpp"
#include "sw/programs/bit_staging.hpp"

namespace mmsim::test {
namespace {

struct Hmm {
  unsigned d;           // multiprocessors
  unsigned w;           // lanes and banks
  unsigned l;           // global latency
  std::uint64_t p = 0;  // threads; 0: the program's own (p = n)
  unsigned l_s = 1;
  unsigned w_g = 0;  // 0: w
  std::string shared = "dmm";
  std::string dispatch = "round_robin";

  std::string yaml(const std::string& program, const std::string& params) const {
    return "machine: {model: hmm, multiprocessors: " + std::to_string(d) +
           ", width: " + std::to_string(w) + ", latency: " + std::to_string(l) +
           (p ? ", threads: " + std::to_string(p) : std::string()) +
           (w_g ? ", global: {width: " + std::to_string(w_g) + "}" : std::string()) +
           ", shared: {model: " + shared + ", latency: " + std::to_string(l_s) +
           "}, dispatch: " + dispatch + ", race_check: true}\nprogram: {name: " + program +
           ", params: {" + params + "}}\n";
  }
  std::string str() const {
    return "d=" + std::to_string(d) + " w=" + std::to_string(w) + " l=" + std::to_string(l) +
           " p=" + (p ? std::to_string(p) : std::string("n")) + " l_s=" + std::to_string(l_s) +
           " w_g=" + std::to_string(w_g ? w_g : w) + " " + shared + " " + dispatch;
  }
};

RunOutcome checked(const Hmm& machine, const std::string& program, const std::string& params) {
  const RunOutcome o = run_yaml(machine.yaml(program, params));
  expect_sound(o, program + " {" + params + "} on " + machine.str());
  return o;
}

// D_w(P): over the warps' w consecutive sources, the address groups of w words their
// destinations touch, summed (b starts at a multiple of w).
std::uint64_t distribution(const std::string& spec, std::uint64_t n, unsigned w) {
  const planning::Permutation p = planning::make_permutation(spec, n);
  std::uint64_t total = 0;
  for (std::uint64_t first = 0; first < n; first += w) {
    std::set<std::uint64_t> groups;
    for (std::uint64_t i = first; i < first + w; ++i) groups.insert(p[i] / w);
    total += groups.size();
  }
  return total;
}

// The papers' assumptions: p = n, w_g = w, l_s = 1, round robin; machines whose n/w is above and
// below L, one and many SMs, w from 2 to 16.
struct Case {
  Hmm machine;
  std::uint64_t n;
};
const std::vector<Case> kPapersCases = {
    {{.d = 1, .w = 4, .l = 5}, 256},   {{.d = 4, .w = 8, .l = 20}, 4096},
    {{.d = 16, .w = 4, .l = 3}, 4096}, {{.d = 2, .w = 16, .l = 100}, 1024},
    {{.d = 2, .w = 8, .l = 200}, 256}, {{.d = 8, .w = 2, .l = 40}, 1024},
};

TEST(HmmPermutations, ConventionalTakesTheDistributionPlusTwoRoundsAndThreeLatencies) {
  for (const Case& c : kPapersCases)
    for (const std::string permutation : {"random", "random:7", "bit_reversal", "identity"}) {
      const double n = static_cast<double>(c.n), w = c.machine.w, l = c.machine.l;
      const RunOutcome o = checked(c.machine, "hmm_permute_conventional",
                                   "n: " + std::to_string(c.n) + ", permutation: " + permutation);
      const double formula =
          static_cast<double>(distribution(permutation, c.n, c.machine.w)) + 2 * n / w + 3 * l - 3;
      EXPECT_EQ(static_cast<double>(o.result.cycles()), formula)
          << permutation << " on " << c.machine.str();
      EXPECT_EQ(bound(o, "time_paper").kind, Bound::Kind::exact);
      EXPECT_EQ(bound(o, "time_paper").value, formula);
      EXPECT_EQ(o.result.grid_syncs, 2u);
    }
}

TEST(HmmPermutations, SpecialPermutationsTakeTwoGlobalAndTwoSharedRounds) {
  for (const Case& c : kPapersCases)
    for (const std::string kind : {"transpose", "shuffle", "bit_reversal"}) {
      const double n = static_cast<double>(c.n), w = c.machine.w, l = c.machine.l;
      const RunOutcome o = checked(c.machine, "hmm_permute_special",
                                   "n: " + std::to_string(c.n) + ", kind: " + kind);
      const double formula = 2 * n / w + 2 * n / (c.machine.d * w) + 2 * l - 2;
      EXPECT_EQ(static_cast<double>(o.result.cycles()), formula)
          << kind << " on " << c.machine.str();
      EXPECT_EQ(bound(o, "time_paper").kind, Bound::Kind::exact);
      EXPECT_EQ(largest_shared_dispatch(o), 1u) << kind << ": a shared access with a conflict";
      EXPECT_EQ(o.result.memories[0].counters.stages, 2 * c.n / c.machine.w);
      EXPECT_EQ(o.elements_checked, c.n);
    }
}

TEST(HmmPermutations, AnyPermutationTakesSixteenGlobalAndSixteenSharedRounds) {
  for (const Case& c : kPapersCases)
    for (const std::string permutation : {"random", "bit_reversal", "transpose", "identity"}) {
      const double n = static_cast<double>(c.n), w = c.machine.w, l = c.machine.l;
      const RunOutcome o = checked(c.machine, "hmm_permute",
                                   "n: " + std::to_string(c.n) + ", permutation: " + permutation);
      const double formula = 16 * n / w + 16 * n / (c.machine.d * w) + 16 * l - 16;
      EXPECT_EQ(static_cast<double>(o.result.cycles()), formula)
          << permutation << " on " << c.machine.str();
      EXPECT_EQ(bound(o, "time_paper").kind, Bound::Kind::exact);
      EXPECT_EQ(largest_shared_dispatch(o), 1u) << permutation << ": a shared conflict";
      EXPECT_EQ(o.result.memories[0].counters.stages, 16 * c.n / c.machine.w);
      EXPECT_EQ(o.result.grid_syncs, 31u);
    }
}

TEST(HmmPermutations, SeparatedRoundsTakeThePapersTimeUnderEveryPolicy) {
  // Every round starts with every warp ready and each makes one access: any order of the
  // dispatches keeps the pipelines full.
  for (const PolicyInfo& policy : dispatch_policies()) {
    Hmm m{.d = 4, .w = 8, .l = 20};
    m.dispatch = policy.name;
    EXPECT_EQ(checked(m, "hmm_permute_conventional", "n: 1024").result.cycles(),
              distribution("random", 1024, 8) + 2 * 1024 / 8 + 3 * 20 - 3)
        << policy.name;
    EXPECT_EQ(checked(m, "hmm_permute_special", "n: 1024, kind: bit_reversal").result.cycles(),
              2u * 1024 / 8 + 2 * 1024 / 32 + 2 * 20 - 2)
        << policy.name;
    EXPECT_EQ(checked(m, "hmm_permute", "n: 1024").result.cycles(),
              16u * 1024 / 8 + 16 * 1024 / 32 + 16 * 20 - 16)
        << policy.name;
  }
}

TEST(HmmPermutations, RightAndRaceFreeUnderEveryPolicyOutsideThePapersAssumptions) {
  // Batches (p < n), w_g below and above w, shared latency above 1, crossbar and randomly
  // shifted shared memories; both round modes.
  const std::vector<Hmm> machines = {
      {.d = 2, .w = 4, .l = 9, .p = 64, .l_s = 2, .w_g = 2},
      {.d = 4, .w = 8, .l = 20, .p = 512, .l_s = 3, .w_g = 16},
      {.d = 1, .w = 8, .l = 6, .p = 64, .l_s = 1, .w_g = 8, .shared = "pram"},
      {.d = 2, .w = 4, .l = 6, .p = 128, .l_s = 2, .w_g = 4, .shared = "rsdmm"},
  };
  for (Hmm machine : machines)
    for (const PolicyInfo& policy : dispatch_policies()) {
      machine.dispatch = policy.name;
      for (const std::string rounds : {"separated", "overlapped"}) {
        const std::string mode = ", rounds: " + rounds;
        const RunOutcome conventional =
            checked(machine, "hmm_permute_conventional", "n: 1024, permutation: random" + mode);
        EXPECT_EQ(bound(conventional, "time_paper").kind, Bound::Kind::order);
        for (const std::string kind : {"transpose", "shuffle", "bit_reversal"})
          checked(machine, "hmm_permute_special", "n: 1024, kind: " + kind + mode);
        const RunOutcome any = checked(machine, "hmm_permute", "n: 1024" + mode);
        // The exact time of separated rounds holds with conflict-free shared memories.
        EXPECT_EQ(find_bound(any, "time_exact") != nullptr,
                  rounds == "separated" && machine.shared != "rsdmm")
            << machine.str();
      }
    }
}

TEST(HmmPermutations, OverlappedRoundsPipelineUnderTheirFormula) {
  // Without the barriers between rounds, round robin: D + 2 max(n/w, L) + L - 1 for the
  // conventional algorithm (n/w = 128 warps against L = 20, and 32 against 200).
  for (const auto& [machine, n] : std::vector<std::pair<Hmm, std::uint64_t>>{
           {{.d = 4, .w = 8, .l = 20}, 1024}, {{.d = 4, .w = 8, .l = 200}, 256}}) {
    const RunOutcome o = checked(machine, "hmm_permute_conventional",
                                 "n: " + std::to_string(n) + ", rounds: overlapped");
    const std::uint64_t rows = n / 8;
    EXPECT_EQ(o.result.cycles(), distribution("random", n, 8) +
                                     2 * std::max<std::uint64_t>(rows, machine.l) + machine.l - 1);
    EXPECT_EQ(bound(o, "time_paper").kind, Bound::Kind::order);
  }
  // The staged passes keep the global pipeline busy: the special permutation in G + L - 1, the
  // lower bound; any permutation within 1 % of it; both well under the papers' sums.
  const Hmm m{.d = 4, .w = 8, .l = 20};
  const RunOutcome special =
      checked(m, "hmm_permute_special", "n: 4096, kind: transpose, rounds: overlapped");
  EXPECT_EQ(special.result.cycles(), 2u * 4096 / 8 + 20 - 1);
  EXPECT_EQ(special.result.syncthreads, 1u);
  const RunOutcome any = checked(m, "hmm_permute", "n: 4096, rounds: overlapped");
  EXPECT_LE(static_cast<double>(any.result.cycles()), 1.01 * bound(any, "time_lower").value);
  EXPECT_LT(any.result.cycles(), 16u * 4096 / 8 + 16 * 4096 / 32 + 16 * 20 - 16);
  EXPECT_EQ(any.result.grid_syncs, 4u);
  EXPECT_EQ(any.result.syncthreads, 8u);
}

TEST(HmmPermutations, LatenciesOfBarriersAndComputationAddOncePerRoundBoundary) {
  const Hmm m{.d = 4, .w = 8, .l = 20};
  const RunOutcome o = run_yaml(m.yaml("hmm_permute", "n: 1024"),
                                {"machine.kernel_latency=3", "machine.compute_latency=2"});
  EXPECT_EQ(o.result.cycles(), 16u * 1024 / 8 + 16 * 1024 / 32 + 16 * 20 - 16 + 31 * (3 + 2));
  EXPECT_EQ(bound(o, "time_paper").kind, Bound::Kind::order);
  EXPECT_EQ(measured(o, bound(o, "time_exact")), bound(o, "time_exact").value);
}

TEST(HmmPermutations, AScheduleReplaysTheTopLevelOfAnyUmmPlan) {
  // Plans of the same permutation at width sqrt(n) (the top level itself) and at w = 4
  // (n = 4^4: the steps between the top-level transposes composed) run alike.
  const std::uint64_t n = 256;
  const planning::Permutation p = planning::make_permutation("random:3", n);
  const Hmm m{.d = 2, .w = 4, .l = 7};
  for (const std::uint64_t width : {16u, 4u}) {
    TempDir dir;
    planning::save_schedule(dir / "plan.txt", planning::plan_umm(p, width), p);
    const RunOutcome o = run_testbench(load_testbench(
        dir.write("testbench.yaml",
                  m.yaml("hmm_permute", "n: 256, permutation: 'random:3', schedule: plan.txt"))));
    EXPECT_TRUE(o.verified.value_or(false)) << width << ": " << o.first_mismatch;
    EXPECT_EQ(o.result.cycles(), 16u * 256 / 4 + 16 * 256 / 8 + 16 * 7 - 16);
  }
  // A plan of width n is one row-wise step: no transposes to run between.
  TempDir dir;
  planning::save_schedule(dir / "plan.txt", planning::plan_umm(p, n), p);
  try {
    run_testbench(load_testbench(
        dir.write("testbench.yaml",
                  m.yaml("hmm_permute", "n: 256, permutation: 'random:3', schedule: plan.txt"))));
    ADD_FAILURE() << "a schedule without transposes ran";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "program.params.schedule: " + (dir / "plan.txt").string() +
                  " has 0 transposes of side sqrt(n) = 16; hmm_permute runs the top level of "
                  "Lemma 7, two of them (mmsim plan --machine umm --width 16 writes one)"),
              std::string::npos)
        << e.what();
  }
}

TEST(HmmPermutations, SweepsTabulateTheirExactFigures) {
  // A sweep loads every case once before it runs (to check its columns): the global stages of
  // a run not yet made are no figure to read.
  TempDir dir;
  dir.write("base.yaml",
            "machine: {model: hmm, multiprocessors: 2, width: 4, latency: 5}\n"
            "program: {name: hmm_permute, params: {n: 256}}\n");
  dir.write("sweep.yaml",
            "testbench: base.yaml\n"
            "cases:\n"
            "  - {label: any}\n"
            "  - {label: conventional, set: {program.name: hmm_permute_conventional}}\n"
            "  - {label: special, set: {program.name: hmm_permute_special, program.params.kind: "
            "shuffle}}\n"
            "columns: [cycles, bounds.global_stages_exact.measured, bounds.time_paper.ratio]\n");
  const CommandResult r = mmsim("sweep " + (dir / "sweep.yaml").string() + " --results " +
                                (dir / "r.jsonl").string());
  EXPECT_EQ(r.status, 0) << r.err;
  // 16n/w + 16n/(kw) + 16L - 16 = 1024 + 512 + 64 and 2n/w + 2n/(kw) + 2L - 2 = 128 + 64 + 8.
  EXPECT_NE(r.out.find("| any | 1600 | 1024.0 | 1 |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| special | 200 | 128.0 | 1 |"), std::string::npos) << r.out;
}

TEST(HmmPermutations, StagingPutsEveryRowAndEveryDestinationRowInDistinctBanks) {
  // Random bit permutations of m = 10 bits, w = 8: in every chunk the slots are a bijection, the
  // w elements of a source row and the w sources of a destination row lie in w distinct banks.
  std::mt19937 random(11);
  const unsigned m = 10, lw = 3, w = 8;
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<unsigned> to(m);
    std::iota(to.begin(), to.end(), 0u);
    std::shuffle(to.begin(), to.end(), random);
    const BitPermutation sigma(to);
    const std::uint64_t smallest = BitStaging::smallest_chunk(sigma, lw);
    const auto f = static_cast<unsigned>(std::countr_zero(smallest)) + trial % 2;
    const BitStaging staging(sigma, lw, f);
    for (std::uint64_t c = 0; c < (std::uint64_t{1} << m) / staging.chunk_size(); ++c) {
      std::set<Address> slots;
      for (std::uint64_t row = 0; row < staging.chunk_size() / w; ++row) {
        std::set<Address> source_banks, target_banks;
        for (unsigned lane = 0; lane < w; ++lane) {
          const std::uint64_t i = staging.source(c, row * w + lane);
          EXPECT_EQ(i, staging.source(c, row * w) + lane);
          slots.insert(staging.slot(i));
          source_banks.insert(staging.slot(i) % w);
          const std::uint64_t j = staging.destination(c, row * w + lane);
          EXPECT_EQ(j, staging.destination(c, row * w) + lane);
          EXPECT_EQ(sigma(staging.source_of(j)), j);
          target_banks.insert(staging.slot(staging.source_of(j)) % w);
        }
        EXPECT_EQ(source_banks.size(), w);
        EXPECT_EQ(target_banks.size(), w);
      }
      EXPECT_EQ(slots.size(), staging.chunk_size());
      EXPECT_EQ(*slots.rbegin(), staging.chunk_size() - 1);
    }
  }
}

TEST(HmmPermutations, RefuseWhatTheirAlgorithmsCannotRun) {
  const auto bench = [](const std::string& machine, const std::string& program,
                        const std::string& params) {
    return "machine: {" + machine + "}\nprogram:\n  name: " + program + "\n  params: {" + params +
           "}\n";
  };
  const std::string hmm = "model: hmm, multiprocessors: 2, width: 4, latency: 5";
  for (const std::string program :
       {"hmm_permute_conventional", "hmm_permute_special", "hmm_permute"})
    EXPECT_EQ(
        input_error_of(bench("model: umm, width: 4, latency: 5, threads: 64", program,
                             program == "hmm_permute_special" ? "n: 64, kind: shuffle" : "n: 64")),
        ":1:18: machine.model: " + program +
            " runs on the hierarchical machine (model hmm): streaming multiprocessors with "
            "shared memories over a global memory; model umm is flat");
  EXPECT_EQ(input_error_of(bench(hmm + ", threads: 64", "hmm_permute_conventional", "n: 96")),
            ":4:15: program.params.n: n = 96 must be a multiple of p = 64 (each thread moves n/p "
            "elements, one per batch)");
  EXPECT_EQ(input_error_of(bench(hmm, "hmm_permute_special", "n: 96, kind: shuffle")),
            ":4:15: program.params.n: hmm_permute_special needs n a power of two (the shuffle "
            "permutation moves the bits of the index); 64 or 128 would be");
  EXPECT_EQ(input_error_of(bench(hmm, "hmm_permute_special", "n: 128, kind: transpose")),
            ":4:15: program.params.n: the transpose of a 2^k x 2^k matrix needs n = 4^k; 64 or "
            "256 would be");
  EXPECT_EQ(input_error_of(bench(hmm, "hmm_permute_special", "n: 64, kind: reversal")),
            ":4:25: program.params.kind: expected transpose, shuffle or bit_reversal, got "
            "'reversal'");
  EXPECT_EQ(input_error_of(bench(hmm, "hmm_permute_special", "n: 64, kind: shuffle, rounds: some")),
            ":4:42: program.params.rounds: expected separated or overlapped, got 'some'");
  EXPECT_EQ(input_error_of(
                bench(hmm + ", threads: 16", "hmm_permute_special", "n: 64, kind: bit_reversal")),
            ":1:74: machine.threads: hmm_permute_special: bit_reversal moves chunks of p/d "
            "elements, one SM at a time, and needs a power of two of at least 16 (a global row "
            "of w words and the w sources of each row it writes, in one SM); p/d = 16/2 = 8");
  EXPECT_EQ(
      input_error_of(bench("model: hmm, multiprocessors: 2, width: 6, latency: 5, threads: 96",
                           "hmm_permute_special", "n: 96, kind: shuffle")),
      ":1:50: machine.width: hmm_permute_special needs w a power of two (the shuffle "
      "permutation moves the bits of the index); w = 6");
  EXPECT_EQ(input_error_of(bench(hmm, "hmm_permute", "n: 128")),
            ":4:15: program.params.n: hmm_permute views the n words as a sqrt(n) x sqrt(n) matrix "
            "(Nakano 2012, Lemma 7): n = 4^k; 64 or 256 would be");
  EXPECT_EQ(input_error_of(bench("model: hmm, width: 8, latency: 5", "hmm_permute", "n: 16")),
            ":4:15: program.params.n: the rows of sqrt(n) = 4 words must hold whole warps of w = "
            "8; n = 64 or more would do");
  EXPECT_EQ(input_error_of(bench(hmm + ", threads: 32", "hmm_permute", "n: 1024")),
            ":1:74: machine.threads: hmm_permute permutes whole rows of sqrt(n) = 32 words in one "
            "SM at a time: p/d = 16 must be a multiple of it");
}

}  // namespace
}  // namespace mmsim::test
