// Permutation files (one destination per line) and permutation specs (`random:SEED`,
// `stride:S`, ...: the input's first line). Expected outcome of a bad input: PermutationError.
// What they accept must be a permutation (checked here: a wrong one traps).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_input.hpp"
#include "sw/planning/errors.hpp"
#include "sw/planning/permutation.hpp"

namespace {

using mmsim::planning::Permutation;

void check(const Permutation& p, std::uint64_t n) {
  if ((n != 0 && p.size() != n) || !mmsim::planning::is_permutation(p) ||
      mmsim::planning::inverse_permutation(mmsim::planning::inverse_permutation(p)) != p)
    __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = mmsim::fuzz::write_input("permutation.txt", data, size);
  for (const std::uint64_t n : {std::uint64_t{0}, std::uint64_t{16}}) {
    try {
      check(mmsim::planning::permutation_from_file(file, n), n);
    } catch (const mmsim::planning::PlanningError&) {
    }
  }
  // The first line as a spec; a file it names is not read (it could be any file of the machine).
  const std::string spec_text(mmsim::fuzz::first_line(mmsim::fuzz::as_text(data, size)).first);
  try {
    const auto spec = mmsim::planning::parse_permutation_spec(spec_text, 1, 4);
    if (spec.kind != mmsim::planning::PermutationSpec::Kind::file)
      for (const std::uint64_t n : {std::uint64_t{16}, std::uint64_t{48}}) {
        try {
          check(mmsim::planning::make_permutation(spec, n), n);
        } catch (const mmsim::planning::PlanningError&) {
        }
      }
  } catch (const mmsim::planning::PlanningError&) {
  }
  return 0;
}
