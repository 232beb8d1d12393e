// The lines of a text file a program reads (a CSV trace, input values), within the bounds of
// sw/support/text_input.hpp, every problem an InputError located in the file.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "sw/program/input_error.hpp"
#include "sw/support/text_input.hpp"

namespace mmsim {

class InputLines {
 public:
  // `what` names the file in messages ("trace file": "cannot open trace file: <why>").
  InputLines(const std::filesystem::path& file, const std::string& what);

  // The next line, without its '\n'; false at the end.
  bool next(std::string& line);
  // The 1-based number of the line last read.
  int number() const { return static_cast<int>(lines_.number()); }

 private:
  std::string file_;
  std::ifstream in_;
  LineReader lines_;
};

}  // namespace mmsim
