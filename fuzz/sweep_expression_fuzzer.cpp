// The expression language of a sweep's derived values and conditions, parsed and evaluated with
// names standing for small and extreme values. Expected outcome: InputError (a malformed
// expression) or std::domain_error (overflow, division by zero, ... while evaluating).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "fuzz/fuzz_input.hpp"
#include "testbench/sweeps/sweep_expression.hpp"

namespace {

// A name's value, chosen by its length: 0, 1, -1, 64, the largest and the smallest integer.
std::int64_t value_of(const std::string& name) {
  constexpr std::int64_t kValues[] = {0,
                                      1,
                                      -1,
                                      64,
                                      std::numeric_limits<std::int64_t>::max(),
                                      std::numeric_limits<std::int64_t>::min()};
  return kValues[name.size() % std::size(kValues)];
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const mmsim::SweepExpression expression(std::string(mmsim::fuzz::as_text(data, size)),
                                            {"fuzz.yaml", 1, 1});
    expression.evaluate(value_of);
  } catch (const mmsim::InputError&) {
  } catch (const std::domain_error&) {
  }
  return 0;
}
