#include "sw/program/input_lines.hpp"

namespace mmsim {
namespace {

std::ifstream open(const std::filesystem::path& file, const std::string& what) {
  try {
    return open_text_file(file);
  } catch (const TextInputError& e) {
    throw InputError({file.string(), 0, 0}, "cannot open " + what + ": " + e.what());
  }
}

}  // namespace

InputLines::InputLines(const std::filesystem::path& file, const std::string& what)
    : file_(file.string()), in_(open(file, what)), lines_(in_) {}

bool InputLines::next(std::string& line) {
  try {
    return lines_.next(line);
  } catch (const TextInputError& e) {
    throw InputError({file_, static_cast<int>(e.line()), 0}, e.what());
  }
}

}  // namespace mmsim
