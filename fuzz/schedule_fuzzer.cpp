// Schedule files (`mmsim plan --out`, params.schedule), read against the permutation P they
// must realise. P comes from the input's first line when it reads "#P SPEC N" (a comment of the
// format; N <= 4096), else P = bit_reversal of 16. Expected outcome of a bad input:
// ScheduleError (or PermutationError from the #P line). A schedule the reader accepts must
// realise P (checked here by executing it: a wrong one traps).
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string_view>
#include <variant>

#include "fuzz/fuzz_input.hpp"
#include "sw/planning/dmm_plan.hpp"
#include "sw/planning/errors.hpp"
#include "sw/planning/permutation.hpp"
#include "sw/planning/schedule_file.hpp"
#include "sw/planning/umm_plan.hpp"

namespace {

namespace planning = mmsim::planning;

constexpr std::uint64_t kMaxN = 4096;

planning::Permutation permutation_of(std::string_view line) {
  constexpr std::string_view kPrefix = "#P ";
  if (!line.starts_with(kPrefix)) return planning::bit_reversal_permutation(16);
  line.remove_prefix(kPrefix.size());
  const std::size_t space = line.rfind(' ');
  std::uint64_t n = 0;
  const std::string_view count = space == std::string_view::npos ? "" : line.substr(space + 1);
  const auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), n);
  if (error != std::errc() || end != count.data() + count.size() || n > kMaxN)
    return planning::bit_reversal_permutation(16);
  const auto spec = planning::parse_permutation_spec(line.substr(0, space));
  if (spec.kind == planning::PermutationSpec::Kind::file) return planning::identity_permutation(n);
  return planning::make_permutation(spec, n);
}

// Where each element of 0, 1, ..., n-1 ends up must be P.
void check(const planning::DmmPlan& plan, const planning::Permutation& p) {
  if (!planning::check_dmm_plan(plan, p)) __builtin_trap();
  std::vector<std::uint64_t> a(p.size());
  std::iota(a.begin(), a.end(), 0);
  planning::apply(plan, p, a);
  for (std::uint64_t i = 0; i < p.size(); ++i)
    if (a[p[i]] != i) __builtin_trap();
}

void check(const planning::UmmPlan& plan, const planning::Permutation& p) {
  std::vector<std::uint64_t> a(p.size());
  std::iota(a.begin(), a.end(), 0);
  const std::vector<std::uint64_t> r = planning::apply(plan, a);
  for (std::uint64_t i = 0; i < p.size(); ++i)
    if (r[p[i]] != i) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = mmsim::fuzz::write_input("schedule.txt", data, size);
  try {
    const planning::Permutation p =
        permutation_of(mmsim::fuzz::first_line(mmsim::fuzz::as_text(data, size)).first);
    for (const std::uint64_t w : {std::uint64_t{0}, std::uint64_t{4}}) {
      try {
        std::visit([&](const auto& plan) { check(plan, p); }, planning::load_schedule(file, p, w));
      } catch (const planning::ScheduleError&) {
      }
    }
  } catch (const planning::PermutationError&) {
  }
  return 0;
}
