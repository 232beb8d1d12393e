// Results files of sweeps (JSON lines) as --resume and --collect read them back: every record
// checked, the table's columns cut out of its statistics. Expected outcome of a bad input:
// InputError (at the file's line). A record accepted that record_problem() refuses traps.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.hpp"
#include "testbench/sweep_results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = mmsim::fuzz::write_input("results.jsonl", data, size);
  const std::vector<std::string> columns = {"cycles", "bounds.time_lower.ratio", "verified"};
  try {
    const mmsim::StoredResults stored = mmsim::read_results({file}, columns);
    for (const auto& [identity, record] : stored.records)
      if (!record.is_object() || record.contains("stats") == record.contains("error"))
        std::abort();  // a record kept without its outcome
  } catch (const mmsim::InputError&) {
  }
  return 0;
}
