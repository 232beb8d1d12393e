// The small expression language of a sweep's derived values and conditions:
//
//   integers, names, + - * / % (integer arithmetic, division rounds toward zero), unary minus,
//   comparisons < <= > >= == != (1 or 0), parentheses, and the functions
//   log2(x) (floor, x > 0), round_up(x, m) (the least multiple of m >= x, m > 0), min(a, b, ...),
//   max(a, b, ...), pow2(k) (2^k, 0 <= k <= 62).
//
// A name is a key the sweep sets, or a value of the base testbench, by its full path
// (machine.width) or by its last component (width).
// Every value is a signed 64-bit integer; overflow and division by zero are errors of the run.
// An expression nests at most 1000 levels deep (parentheses, unary minus, arguments, and the
// operands of a chain such as 1 + 1 + ...).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sw/program/input_error.hpp"

namespace mmsim {

class SweepExpression {
 public:
  struct Name {
    std::string text;
    SourceLocation where;
  };

  // Parses `text`, whose first character is at `where` (errors point at the column at fault).
  // Throws InputError for a malformed expression or an unknown function.
  SweepExpression(const std::string& text, const SourceLocation& where);

  const std::string& text() const { return text_; }
  const SourceLocation& where() const { return where_; }
  // Every name it refers to, in order of appearance.
  const std::vector<Name>& names() const { return names_; }

  // The value, with `value_of(name)` for each name; throws std::domain_error (overflow, division
  // by zero, log2 of a non-positive number, ...) with a message that quotes the expression.
  std::int64_t evaluate(const std::function<std::int64_t(const std::string&)>& value_of) const;

 private:
  struct Node {
    enum class Kind { number, name, negate, binary, call } kind;
    std::int64_t number = 0;
    std::string text{};  // name, operator or function
    std::vector<std::size_t> operands{};
  };
  class Parser;

  std::int64_t evaluate(std::size_t node,
                        const std::function<std::int64_t(const std::string&)>& value_of) const;

  std::string text_;
  SourceLocation where_;
  std::vector<Node> nodes_;  // the root is the last
  std::vector<Name> names_;
};

}  // namespace mmsim
