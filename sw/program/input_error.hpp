// Bad input, with where it was found: every such error reaches the user as one message
// "file:line:column: what was expected" and exit status 2.
#pragma once

#include <stdexcept>
#include <string>

namespace mmsim {

struct SourceLocation {
  std::string file;  // empty: not from a file (a command-line option, say)
  int line = 0;      // 1-based; 0 = unknown
  int column = 0;    // 1-based; 0 = unknown

  std::string str() const {
    std::string s = file.empty() ? std::string("<input>") : file;
    if (line > 0) s.append(1, ':').append(std::to_string(line));
    if (line > 0 && column > 0) s.append(1, ':').append(std::to_string(column));
    return s;
  }
};

class InputError : public std::runtime_error {
 public:
  InputError(SourceLocation where, const std::string& message)
      : std::runtime_error(message), where_(std::move(where)) {}
  const SourceLocation& where() const { return where_; }
  // "file:line:column: message"
  std::string describe() const { return where_.str() + ": " + what(); }

 private:
  SourceLocation where_;
};

// A program parameter that does not fit (n not a power of two, ...): the loader turns it into an
// InputError at that parameter's place in the testbench.
class ParamError : public std::runtime_error {
 public:
  ParamError(std::string param, const std::string& message)
      : std::runtime_error(message), param_(std::move(param)) {}
  const std::string& param() const { return param_; }

 private:
  std::string param_;
};

}  // namespace mmsim
