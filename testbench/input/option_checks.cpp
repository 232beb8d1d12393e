#include "testbench/input/option_checks.hpp"

#include "sw/program/input_error.hpp"
#include "testbench/input/integer_list.hpp"

namespace mmsim {

CLI::Validator integer_in(std::uint64_t min, std::uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        try {
          text = std::to_string(parse_integer_option("", text, min, max));
          return {};
        } catch (const InputError& e) {
          return e.what();
        }
      },
      "");
}

CLI::Validator output_name() {
  return CLI::Validator(
      [](const std::string& name) -> std::string {
        return name.empty() ? "expected a file name, got an empty one" : "";
      },
      "");
}

}  // namespace mmsim
