// mmsim plan: plans an offline permutation (Nakano 2012, sections V, VI), writes the schedule.
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hw/support/types.hpp"
#include "sw/planning/dmm_plan.hpp"
#include "sw/planning/errors.hpp"
#include "sw/planning/permutation.hpp"
#include "sw/planning/schedule_file.hpp"
#include "sw/planning/umm_plan.hpp"
#include "sw/support/integer_sqrt.hpp"
#include "testbench/cli/subcommands.hpp"
#include "testbench/input/memory_budget.hpp"
#include "testbench/outputs/pending_file.hpp"
#include "testbench/outputs/provenance.hpp"

namespace mmsim {
namespace {

struct PlanCommand {
  std::uint64_t n = 0;
  unsigned width = 0;
  std::string permutation = "random";
  std::uint64_t seed = 1;
  std::string machine = "dmm";  // dmm | umm
  std::string algorithm = "automatic";
  std::string out;    // schedule file
  std::string stats;  // statistics JSON
};

struct Planned {
  std::uint64_t colours = 0;
  std::uint64_t steps = 0;
  std::string algorithm;
  double seconds = 0;
  std::uint64_t memory_bytes = 0;  // the planning step's peak above what was resident before it
  bool verified = false;
};

// Runs `f`, timing it; notes how far the process's peak resident memory rose above what was
// resident when it began.
template <class F>
void measured(Planned& out, F&& f) {
  const std::uint64_t before = resident_bytes();
  const auto start = std::chrono::steady_clock::now();
  f();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::uint64_t peak = peak_resident_bytes();
  out.memory_bytes = peak > before ? peak - before : 0;
}

// Runs `f`; a planning error it throws becomes an InputError at the file's line when it names
// one, else at `option` (the option whose value it is about).
template <class F>
auto for_option(const std::string& option, F&& f) {
  try {
    return f();
  } catch (const planning::PlanningError& e) {
    if (!e.file().empty() && e.line() > 0)
      throw InputError({e.file(), static_cast<int>(e.line()), 0}, e.message());
    throw InputError({option, 0, 0},
                     e.file().empty() ? e.message() : e.file() + ": " + e.message());
  }
}

// Plans, checks the plan and writes its schedule to `schedule` (when given) line by line, so
// that the schedule's text is never held in memory as a whole.
Planned plan(const PlanCommand& c, const planning::Permutation& p,
             const planning::ColoringOptions& options, std::ostream* schedule) {
  Planned out;
  if (c.machine == "dmm") {
    planning::DmmPlan plan;
    measured(out, [&] { plan = planning::plan_dmm(p, c.width, options); });
    out.colours = plan.colors();
    out.steps = 2;  // copy, then the scheduled moves
    out.algorithm = std::string(planning::to_string(plan.algorithm));
    out.verified = planning::check_dmm_plan(plan, p).ok;
    if (schedule) planning::write_schedule(*schedule, plan, p);
  } else {
    planning::UmmPlan plan;
    measured(out, [&] { plan = planning::plan_umm(p, c.width, options); });
    out.colours = integer_sqrt(c.n);
    out.steps = plan.steps.size();
    out.algorithm = std::string(planning::to_string(options.algorithm));
    // Positions fit 32 bits (plan_umm takes n < 2^32).
    std::vector<std::uint32_t> a(c.n);
    std::iota(a.begin(), a.end(), 0u);
    const std::vector<std::uint32_t> result = planning::apply(plan, std::move(a));
    out.verified = true;
    for (std::uint64_t i = 0; i < c.n; ++i) out.verified = out.verified && result[p[i]] == i;
    if (schedule) planning::write_schedule(*schedule, plan, p);
  }
  return out;
}

// Exit status: 0 planned and checked, 1 the plan failed its check, 2 invalid input.
int plan_command(const PlanCommand& c) {
  try {
    if (c.machine != "dmm" && c.machine != "umm")
      throw InputError({"--machine", 0, 0}, "expected dmm or umm, got '" + c.machine + "'");
    if (c.n == 0) throw InputError({"--n", 0, 0}, "expected a positive array size");
    if (c.width == 0) throw InputError({"--width", 0, 0}, "expected a positive width");
    planning::ColoringOptions options;
    options.algorithm =
        for_option("--algorithm", [&] { return planning::parse_coloring_algorithm(c.algorithm); });
    const planning::PermutationSpec spec = for_option(
        "--permutation", [&] { return planning::parse_permutation_spec(c.permutation, c.seed); });
    const std::string input =
        spec.kind == planning::PermutationSpec::Kind::file ? spec.path : std::string();
    OutputFiles outputs({option_output(c.out, "--out"), option_output(c.stats, "--stats")},
                        {option_input(input, "--permutation")});
    for_option("--n", [&] {
      if (c.machine == "dmm")
        planning::check_dmm_size(c.n, c.width);
      else
        planning::check_umm_size(c.n, c.width);
    });
    check_memory(plan_memory(c.n, c.width, c.machine, spec, options.algorithm), "plan",
                 {"--n", 0, 0}, "");
    const planning::Permutation p =
        for_option("--permutation", [&] { return planning::make_permutation(spec, c.n); });

    // The schedule goes into its file line by line, never held in memory as a whole.
    std::optional<PendingStream> schedule;
    if (PendingFile* file = outputs.file(0)) schedule.emplace(*file);
    const Planned planned =
        for_option("--n", [&] { return plan(c, p, options, schedule ? &*schedule : nullptr); });
    if (schedule) schedule->flush();
    nlohmann::json stats = {
        {"n", c.n},
        {"width", c.width},
        {"machine", c.machine},
        {"permutation", c.permutation},
        {"colours", planned.colours},
        {"steps", planned.steps},
        {"algorithm", planned.algorithm},
        {"plan_seconds", planned.seconds},
        {"plan_memory_bytes", planned.memory_bytes},
        {"peak_memory_bytes", peak_resident_bytes()},
        {"verified", planned.verified},
        {"schedule", c.out},
        {"resolved",
         {{"n", c.n},
          {"width", c.width},
          {"machine", c.machine},
          {"permutation", c.permutation},
          {"seed", c.seed},
          {"algorithm", c.algorithm}}},
    };
    add_provenance(stats, provenance_now());
    // Options are bytes: JSON gets U+FFFD where they are not UTF-8.
    outputs.write_all(
        {"", stats.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"});
    std::cout << fmt::format("plan: {} permutation of n = {} for the {} with w = {}\n",
                             c.permutation, c.n, c.machine, c.width)
              << fmt::format("  colours      {}\n", planned.colours)
              << fmt::format("  steps        {}\n", planned.steps)
              << fmt::format("  algorithm    {}\n", planned.algorithm)
              << fmt::format("  plan time    {:.4f} s (planning alone)\n", planned.seconds)
              << fmt::format(
                     "  memory       {} at the peak, {:.1f} bytes per element ({} for "
                     "planning alone)\n",
                     format_bytes(peak_resident_bytes()),
                     static_cast<double>(peak_resident_bytes()) / static_cast<double>(c.n),
                     format_bytes(planned.memory_bytes))
              << fmt::format("  verified     {}\n", planned.verified ? "yes" : "NO");
    if (!c.out.empty()) std::cout << "  schedule     " << c.out << "\n";
    return planned.verified ? 0 : 1;
  } catch (const InputError& e) {
    std::cerr << "mmsim: " << e.describe() << "\n";
    return 2;
  } catch (const planning::PlanningError& e) {
    std::cerr << "mmsim: plan: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "mmsim: plan: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

Subcommand add_plan_command(CLI::App& app) {
  auto plan = std::make_shared<PlanCommand>();
  CLI::App* plan_app =
      add_subcommand(app, "plan", "plan an offline permutation and write its schedule",
                     "0 planned and checked, 1 the plan failed its check, 2 invalid input or an "
                     "output that cannot be written");
  plan_app->add_option("--n", plan->n, "array size")
      ->required()
      ->default_str("")
      ->type_name("INT|2^k")
      ->transform(integer_in(1, kMaxMemoryWords));
  plan_app->add_option("--width", plan->width, "machine width w")
      ->required()
      ->default_str("")
      ->type_name("INT|2^k")
      ->transform(integer_in(1, 1 << 16));
  plan_app->add_option("--permutation", plan->permutation,
                       "random[:seed] | bit_reversal | transpose | stride[:s] | identity | FILE "
                       "(one destination per line)");
  plan_app->add_option("--seed", plan->seed, "seed of a random permutation")
      ->type_name("INT|2^k")
      ->transform(integer_in(0, ~std::uint64_t{0}));
  plan_app->add_option("--machine", plan->machine, "dmm (Theorem 6) or umm (Theorem 8)");
  plan_app->add_option("--algorithm", plan->algorithm,
                       "edge colouring: automatic | matching_decomposition | euler_split");
  plan_app->add_option("--out", plan->out, "write the schedule to this file")->check(output_name());
  plan_app->add_option("--stats", plan->stats, "write statistics (JSON) to this file")
      ->check(output_name());
  return {plan_app, [plan] { return plan_command(*plan); }};
}

}  // namespace mmsim
