// Sweep files with their --set overrides (lines "#set key.path=value" of the input), then what
// `mmsim sweep` does before it runs anything: the runs expanded (derived values computed,
// conditions applied) and checked against a few previewed runs of every case. The input sits
// in configs/sweeps/ of the work folder, so that it can name the configs as the real sweeps do
// (testbench: ../dmm_fig4.yaml). Expected outcome of a bad input: InputError.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_input.hpp"
#include "testbench/sweeps/sweep_check.hpp"
#include "testbench/sweeps/sweep_file.hpp"
#include "testbench/sweeps/sweep_plan.hpp"

namespace {

// Far below mmsim's default (100000): the expansion of a large grid is linear work.
constexpr std::uint64_t kMaxRuns = 2000;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  mmsim::fuzz::limit_run_memory();
  mmsim::fuzz::work_dir();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = mmsim::fuzz::write_input("configs/sweeps/input.yaml", data, size);
  try {
    const mmsim::Sweep sweep =
        mmsim::load_sweep(file, mmsim::fuzz::set_lines(mmsim::fuzz::as_text(data, size)));
    const mmsim::SweepPlan plan = mmsim::plan_sweep(sweep, kMaxRuns);
    mmsim::check_sweep(sweep, plan, mmsim::UserCode::left_alone);
  } catch (const mmsim::InputError&) {
  }
  return 0;
}
