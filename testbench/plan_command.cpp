#include "testbench/plan_command.hpp"

#include <chrono>
#include <iostream>
#include <numeric>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sw/planning/dmm_plan.hpp"
#include "sw/planning/errors.hpp"
#include "sw/planning/permutation.hpp"
#include "sw/planning/schedule_file.hpp"
#include "sw/planning/umm_plan.hpp"
#include "testbench/pending_file.hpp"

namespace mmsim {
namespace {

struct Planned {
  std::uint64_t colours = 0;
  std::uint64_t steps = 0;
  std::string algorithm;
  double seconds = 0;
  bool verified = false;
  std::string schedule;  // the schedule file's text
};

template <class F>
double seconds_of(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Planned plan(const PlanCommand& c, const planning::Permutation& p,
             const planning::ColoringOptions& options, bool want_schedule) {
  Planned out;
  std::ostringstream schedule;
  if (c.machine == "dmm") {
    planning::DmmPlan plan;
    out.seconds = seconds_of([&] { plan = planning::plan_dmm(p, c.width, options); });
    out.colours = plan.colors();
    out.steps = 2;  // copy, then the scheduled moves
    out.algorithm = std::string(planning::to_string(plan.algorithm));
    out.verified = planning::check_dmm_plan(plan, p).ok;
    if (want_schedule) planning::write_schedule(schedule, plan, p);
  } else {
    planning::UmmPlan plan;
    out.seconds = seconds_of([&] { plan = planning::plan_umm(p, c.width, options); });
    out.colours = static_cast<std::uint64_t>(std::llround(std::sqrt(static_cast<double>(c.n))));
    out.steps = plan.steps.size();
    out.algorithm = std::string(planning::to_string(options.algorithm));
    std::vector<std::uint64_t> a(c.n);
    std::iota(a.begin(), a.end(), 0);
    const std::vector<std::uint64_t> result = planning::apply(plan, a);
    out.verified = true;
    for (std::uint64_t i = 0; i < c.n; ++i) out.verified = out.verified && result[p[i]] == i;
    if (want_schedule) planning::write_schedule(schedule, plan, p);
  }
  out.schedule = schedule.str();
  return out;
}

}  // namespace

int plan_command(const PlanCommand& c) {
  try {
    if (c.machine != "dmm" && c.machine != "umm")
      throw planning::PlanError("--machine: expected dmm or umm, got '" + c.machine + "'");
    if (c.n == 0) throw planning::PlanError("--n: expected a positive array size");
    if (c.width == 0) throw planning::PlanError("--width: expected a positive width");
    planning::ColoringOptions options;
    options.algorithm = planning::parse_coloring_algorithm(c.algorithm);
    const planning::PermutationSpec spec = planning::parse_permutation_spec(c.permutation, c.seed);
    const std::string input =
        spec.kind == planning::PermutationSpec::Kind::file ? spec.path : std::string();
    OutputFiles outputs({option_output(c.out, "--out"), option_output(c.stats, "--stats")},
                        {option_input(input, "--permutation")});
    const planning::Permutation p = planning::make_permutation(spec, c.n);
    const Planned planned = plan(c, p, options, !c.out.empty());
    const nlohmann::json stats = {
        {"n", c.n},
        {"width", c.width},
        {"machine", c.machine},
        {"permutation", c.permutation},
        {"colours", planned.colours},
        {"steps", planned.steps},
        {"algorithm", planned.algorithm},
        {"plan_seconds", planned.seconds},
        {"verified", planned.verified},
        {"schedule", c.out},
    };
    // Options are bytes: JSON gets U+FFFD where they are not UTF-8.
    outputs.write_all({planned.schedule,
                       stats.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"});
    std::cout << fmt::format("plan: {} permutation of n = {} for the {} with w = {}\n",
                             c.permutation, c.n, c.machine, c.width)
              << fmt::format("  colours      {}\n", planned.colours)
              << fmt::format("  steps        {}\n", planned.steps)
              << fmt::format("  algorithm    {}\n", planned.algorithm)
              << fmt::format("  plan time    {:.4f} s (planning alone)\n", planned.seconds)
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

}  // namespace mmsim
