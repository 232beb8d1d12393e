#include "sw/program/input_values.hpp"

#include <charconv>

#include "hw/support/random.hpp"
#include "sw/program/input_lines.hpp"

namespace mmsim {

void for_each_input_value(const std::filesystem::path& file, Word min, Word max,
                          const std::function<void(Word)>& take) {
  InputLines lines(file, "the input file");
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
      take(value);
      i = end;
    }
  }
}

std::vector<Word> read_input_file(const std::filesystem::path& file, Word min, Word max) {
  std::vector<Word> values;
  for_each_input_value(file, min, max, [&](Word value) { values.push_back(value); });
  return values;
}

std::vector<ParamSpec> input_value_params() {
  return {
      {"n", ParamType::integer, "number of inputs (0 with file: as many as the file holds)", "0"},
      {"seed", ParamType::integer, "seed of the generator of the inputs (without file)", "1"},
      {"file", ParamType::string, "text file of integers, instead of generated inputs", "\"\""},
  };
}

std::vector<Word> read_counted_input_file(const std::filesystem::path& file, Word min, Word max,
                                          std::uint64_t count) {
  const auto changed = [&] {
    return ParamError("file", file.string() + " changed since it was read (it held " +
                                  std::to_string(count) + " numbers)");
  };
  std::vector<Word> values;
  values.reserve(count);
  for_each_input_value(file, min, max, [&](Word value) {
    if (values.size() == count) throw changed();
    values.push_back(value);
  });
  if (values.size() != count) throw changed();
  return values;
}

InputValues::InputValues(const ParamValues& params, const std::filesystem::path& base_dir) {
  const std::int64_t n = params.integer("n");
  if (n < 0) throw ParamError("n", "n must be at least 1 (got " + std::to_string(n) + ")");
  const std::string& file = params.string("file");
  if (!file.empty()) {
    file_ = base_dir / file;
    for_each_input_value(file_, std::numeric_limits<Word>::min(), std::numeric_limits<Word>::max(),
                         [&](Word) { ++count_; });
    if (count_ == 0) throw ParamError("file", file + " holds no numbers");
    if (n != 0 && static_cast<std::uint64_t>(n) != count_)
      throw ParamError("n", "n = " + std::to_string(n) + " but " + file + " holds " +
                                std::to_string(count_) + " numbers");
    return;
  }
  if (n == 0) throw ParamError("n", "give n (the number of inputs) or params.file");
  if (static_cast<std::uint64_t>(n) > kMaxMemoryWords)
    throw ParamError("n", "n = " + std::to_string(n) + " exceeds the memory limit of 2^32 words");
  count_ = static_cast<std::uint64_t>(n);
  seed_ = static_cast<std::uint64_t>(params.integer("seed"));
}

std::vector<Word> InputValues::make() const {
  if (file_.empty()) return random_values(count_, seed_);
  return read_counted_input_file(file_, std::numeric_limits<Word>::min(),
                                 std::numeric_limits<Word>::max(), count_);
}

std::vector<Word> input_values(const ParamValues& params, const std::filesystem::path& base_dir) {
  return InputValues(params, base_dir).make();
}

std::vector<Word> random_values(std::uint64_t count, std::uint64_t seed) {
  Random random(seed);
  std::vector<Word> values(static_cast<std::size_t>(count));
  const auto span = static_cast<std::uint64_t>(2 * kInputMagnitude + 1);
  for (Word& v : values) v = static_cast<Word>(uniform_below(random, span)) - kInputMagnitude;
  return values;
}

}  // namespace mmsim
