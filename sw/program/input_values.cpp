#include "sw/program/input_values.hpp"

#include <charconv>

#include "hw/support/random.hpp"
#include "sw/program/input_lines.hpp"

namespace mmsim {

std::vector<Word> read_input_file(const std::filesystem::path& file, Word min, Word max) {
  InputLines lines(file, "the input file");
  std::vector<Word> values;
  std::string line;
  while (lines.next(line)) {
    const int number = lines.number();
    const std::string_view content = std::string_view(line).substr(0, line.find('#'));
    std::size_t i = 0;
    while (i < content.size()) {
      if (content[i] == ' ' || content[i] == '\t' || content[i] == ',' || content[i] == '\r') {
        ++i;
        continue;
      }
      const std::size_t end = std::min(content.find_first_of(" \t,\r", i), content.size());
      Word value = 0;
      const auto [ptr, ec] = std::from_chars(content.data() + i, content.data() + end, value);
      if (ec != std::errc() || ptr != content.data() + end)
        throw InputError(
            {file.string(), number, static_cast<int>(i) + 1},
            "expected an integer, got '" + std::string(content.substr(i, end - i)) + "'");
      if (value < min || value > max)
        throw InputError({file.string(), number, static_cast<int>(i) + 1},
                         "expected an integer from " + std::to_string(min) + " to " +
                             std::to_string(max) + ", got " + std::to_string(value));
      values.push_back(value);
      i = end;
    }
  }
  return values;
}

std::vector<ParamSpec> input_value_params() {
  return {
      {"n", ParamType::integer, "number of inputs (0 with file: as many as the file holds)", "0"},
      {"seed", ParamType::integer, "seed of the generator of the inputs (without file)", "1"},
      {"file", ParamType::string, "text file of integers, instead of generated inputs", "\"\""},
  };
}

std::vector<Word> input_values(const ParamValues& params, const std::filesystem::path& base_dir) {
  const std::int64_t n = params.integer("n");
  if (n < 0) throw ParamError("n", "n must be at least 1 (got " + std::to_string(n) + ")");
  const std::string& file = params.string("file");
  if (!file.empty()) {
    std::vector<Word> values = read_input_file(base_dir / file);
    if (values.empty()) throw ParamError("file", file + " holds no numbers");
    if (n != 0 && static_cast<std::uint64_t>(n) != values.size())
      throw ParamError("n", "n = " + std::to_string(n) + " but " + file + " holds " +
                                std::to_string(values.size()) + " numbers");
    return values;
  }
  if (n == 0) throw ParamError("n", "give n (the number of inputs) or params.file");
  if (static_cast<std::uint64_t>(n) > kMaxMemoryWords)
    throw ParamError("n", "n = " + std::to_string(n) + " exceeds the memory limit of 2^32 words");
  return random_values(static_cast<std::uint64_t>(n),
                       static_cast<std::uint64_t>(params.integer("seed")));
}

std::vector<Word> random_values(std::uint64_t count, std::uint64_t seed) {
  Random random(seed);
  std::vector<Word> values(static_cast<std::size_t>(count));
  const auto span = static_cast<std::uint64_t>(2 * kInputMagnitude + 1);
  for (Word& v : values) v = static_cast<Word>(uniform_below(random, span)) - kInputMagnitude;
  return values;
}

}  // namespace mmsim
