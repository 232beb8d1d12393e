// Files of input values (params.file of the sums and prefix sums). Expected outcome of a bad
// input: InputError (at the file's line and column) or ParamError (a file without numbers).
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_input.hpp"
#include "sw/program/input_values.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mmsim::fuzz::write_input("values.txt", data, size);
  mmsim::ParamValues params;
  params.set("n", std::int64_t{0});
  params.set("seed", std::int64_t{1});
  params.set("file", std::string("values.txt"));
  try {
    mmsim::input_values(params, mmsim::fuzz::work_dir());
  } catch (const mmsim::InputError&) {
  } catch (const mmsim::ParamError&) {
  }
  return 0;
}
