// The testbench loader with its --set overrides (lines "#set key.path=value" of the input), then
// what `mmsim run` does before it simulates: the program made, the machine resolved and checked,
// the memory estimated and the program's data prepared (within a small memory limit).
// Expected outcome of a bad input: InputError (exit status 2), or SimulationError.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_input.hpp"
#include "hw/support/errors.hpp"
#include "testbench/input/testbench.hpp"
#include "testbench/run/runner.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  mmsim::fuzz::limit_run_memory();
  mmsim::fuzz::work_dir();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = mmsim::fuzz::write_input("configs/input.yaml", data, size);
  try {
    const mmsim::Testbench tb =
        mmsim::load_testbench(file, mmsim::fuzz::set_lines(mmsim::fuzz::as_text(data, size)));
    mmsim::preview_testbench(tb);
  } catch (const mmsim::InputError&) {
  } catch (const mmsim::SimulationError&) {
  }
  return 0;
}
