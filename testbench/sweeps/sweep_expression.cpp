#include "testbench/sweeps/sweep_expression.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "sw/support/suggest.hpp"

namespace mmsim {
namespace {

struct Function {
  const char* name;
  std::size_t min_arguments;
  std::size_t max_arguments;
};

constexpr Function kFunctions[] = {
    {.name = "log2", .min_arguments = 1, .max_arguments = 1},
    {.name = "round_up", .min_arguments = 2, .max_arguments = 2},
    {.name = "min", .min_arguments = 1, .max_arguments = 64},
    {.name = "max", .min_arguments = 1, .max_arguments = 64},
    {.name = "pow2", .min_arguments = 1, .max_arguments = 1},
};

const Function* find_function(const std::string& name) {
  for (const Function& f : kFunctions)
    if (name == f.name) return &f;
  return nullptr;
}

std::vector<std::string> function_names() {
  std::vector<std::string> names;
  for (const Function& f : kFunctions) names.emplace_back(f.name);
  return names;
}

const std::vector<std::string> kComparisons = {"<=", ">=", "==", "!=", "<", ">"};

// Parsing and evaluating recurse once per level of nesting (parentheses, unary minus, function
// arguments) and per operand of a chain (1 + 1 + ... is a tree as deep as it is long): deeper
// expressions are refused instead of overflowing the stack.
constexpr std::size_t kMaxDepth = 1000;

}  // namespace

// Recursive descent over the grammar
//   comparison := sum [("<" | "<=" | ">" | ">=" | "==" | "!=") sum]
//   sum        := product {("+" | "-") product}
//   product    := unary {("*" | "/" | "%") unary}
//   unary      := "-" unary | primary
//   primary    := integer | name | function "(" comparison {"," comparison} ")" | "(" comparison
//   ")"
class SweepExpression::Parser {
 public:
  explicit Parser(SweepExpression& e) : e_(e), s_(e.text_) {}

  void parse() {
    comparison();
    skip_space();
    if (at_ < s_.size()) fail(at_, "unexpected '" + std::string(1, s_[at_]) + "'");
  }

 private:
  // One level of the parser's recursion, refused beyond kMaxDepth.
  class Level {
   public:
    explicit Level(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxDepth) p_.fail(p_.at_, too_deep());
    }
    ~Level() { --p_.depth_; }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;

   private:
    Parser& p_;
  };

  static std::string too_deep() {
    return "nested more than " + std::to_string(kMaxDepth) + " levels deep";
  }

  [[noreturn]] void fail(std::size_t column, const std::string& message) const {
    SourceLocation where = e_.where_;
    if (where.line > 0) where.column += static_cast<int>(column);
    throw InputError(where, "in '" + s_ + "': " + message);
  }

  void skip_space() {
    while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_]))) ++at_;
  }

  bool take(const std::string& token) {
    skip_space();
    if (s_.compare(at_, token.size(), token) != 0) return false;
    at_ += token.size();
    return true;
  }

  std::size_t add(Node node) {
    std::size_t depth = 1;
    for (const std::size_t operand : node.operands) depth = std::max(depth, 1 + depths_[operand]);
    if (depth > kMaxDepth) fail(at_, too_deep());
    depths_.push_back(depth);
    e_.nodes_.push_back(std::move(node));
    return e_.nodes_.size() - 1;
  }

  std::size_t binary(const std::string& op, std::size_t left, std::size_t right) {
    return add({.kind = Node::Kind::binary, .text = op, .operands = {left, right}});
  }

  std::size_t comparison() {
    const Level level(*this);
    const std::size_t left = sum();
    for (const std::string& op : kComparisons)
      if (take(op)) return binary(op, left, sum());
    return left;
  }

  std::size_t sum() {
    std::size_t left = product();
    while (true) {
      if (take("+"))
        left = binary("+", left, product());
      else if (take("-"))
        left = binary("-", left, product());
      else
        return left;
    }
  }

  std::size_t product() {
    std::size_t left = unary();
    while (true) {
      if (take("*"))
        left = binary("*", left, unary());
      else if (take("/"))
        left = binary("/", left, unary());
      else if (take("%"))
        left = binary("%", left, unary());
      else
        return left;
    }
  }

  std::size_t unary() {
    if (take("-")) {
      const Level level(*this);
      return add({.kind = Node::Kind::negate, .operands = {unary()}});
    }
    return primary();
  }

  std::size_t primary() {
    skip_space();
    if (at_ == s_.size()) fail(at_, "expected a number, a name or '(' at the end");
    const std::size_t start = at_;
    const char c = s_[at_];
    if (c == '(') {
      ++at_;
      const std::size_t inner = comparison();
      if (!take(")")) fail(at_, "expected ')'");
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::int64_t value = 0;
      while (at_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[at_]))) {
        if (__builtin_mul_overflow(value, 10, &value) ||
            __builtin_add_overflow(value, s_[at_] - '0', &value))
          fail(start, "the number is too large");
        ++at_;
      }
      return add({.kind = Node::Kind::number, .number = value});
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (at_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[at_])) ||
                                 s_[at_] == '_' || s_[at_] == '.'))
        ++at_;
      const std::string name = s_.substr(start, at_ - start);
      if (!take("(")) {
        SourceLocation where = e_.where_;
        if (where.line > 0) where.column += static_cast<int>(start);
        e_.names_.push_back({name, where});
        return add({.kind = Node::Kind::name, .text = name});
      }
      const Function* f = find_function(name);
      if (!f) fail(start, "unknown function '" + name + "'" + suggestion(name, function_names()));
      std::vector<std::size_t> arguments = {comparison()};
      while (take(",")) arguments.push_back(comparison());
      if (!take(")")) fail(at_, "expected ',' or ')'");
      if (arguments.size() < f->min_arguments || arguments.size() > f->max_arguments)
        fail(start, name + " takes " +
                        (f->min_arguments == f->max_arguments
                             ? std::to_string(f->min_arguments)
                             : "at least " + std::to_string(f->min_arguments)) +
                        (f->max_arguments == 1 ? " argument" : " arguments"));
      return add({.kind = Node::Kind::call, .text = name, .operands = std::move(arguments)});
    }
    fail(start, "expected a number, a name or '(', got '" + std::string(1, c) + "'");
  }

  SweepExpression& e_;
  const std::string& s_;
  std::size_t at_ = 0;
  std::size_t depth_ = 0;            // levels of recursion now
  std::vector<std::size_t> depths_;  // of each node's tree
};

SweepExpression::SweepExpression(const std::string& text, const SourceLocation& where)
    : text_(text), where_(where) {
  Parser(*this).parse();
}

std::int64_t SweepExpression::evaluate(
    const std::function<std::int64_t(const std::string&)>& value_of) const {
  return evaluate(nodes_.size() - 1, value_of);
}

std::int64_t SweepExpression::evaluate(
    std::size_t index, const std::function<std::int64_t(const std::string&)>& value_of) const {
  const Node& node = nodes_[index];
  const auto fail = [&](const std::string& message) -> std::int64_t {
    throw std::domain_error("'" + text_ + "': " + message);
  };
  const auto operand = [&](std::size_t i) { return evaluate(node.operands[i], value_of); };
  std::int64_t r = 0;
  switch (node.kind) {
    case Node::Kind::number:
      return node.number;
    case Node::Kind::name:
      return value_of(node.text);
    case Node::Kind::negate:
      if (__builtin_sub_overflow(std::int64_t{0}, operand(0), &r)) return fail("overflow");
      return r;
    case Node::Kind::binary: {
      const std::int64_t a = operand(0);
      const std::int64_t b = operand(1);
      const std::string& op = node.text;
      if (op == "+") return __builtin_add_overflow(a, b, &r) ? fail("overflow") : r;
      if (op == "-") return __builtin_sub_overflow(a, b, &r) ? fail("overflow") : r;
      if (op == "*") return __builtin_mul_overflow(a, b, &r) ? fail("overflow") : r;
      if (op == "/" || op == "%") {
        if (b == 0) return fail("division by zero");
        if (b == -1 && a == INT64_MIN) return fail("overflow");
        return op == "/" ? a / b : a % b;
      }
      if (op == "<") return a < b;
      if (op == "<=") return a <= b;
      if (op == ">") return a > b;
      if (op == ">=") return a >= b;
      if (op == "==") return a == b;
      return a != b;
    }
    case Node::Kind::call: {
      std::vector<std::int64_t> x;
      for (std::size_t i = 0; i < node.operands.size(); ++i) x.push_back(operand(i));
      const std::string& f = node.text;
      if (f == "min") return *std::min_element(x.begin(), x.end());
      if (f == "max") return *std::max_element(x.begin(), x.end());
      if (f == "log2") {
        if (x[0] <= 0) return fail("log2 of " + std::to_string(x[0]) + " (it needs x > 0)");
        return 63 - __builtin_clzll(static_cast<std::uint64_t>(x[0]));
      }
      if (f == "pow2") {
        if (x[0] < 0 || x[0] > 62) return fail("pow2(" + std::to_string(x[0]) + ") (0 <= k <= 62)");
        return std::int64_t{1} << x[0];
      }
      // round_up(x, m)
      if (x[1] <= 0) return fail("round_up to a multiple of " + std::to_string(x[1]) + " (m > 0)");
      std::int64_t rest = x[0] % x[1];  // in (-m, m); no overflow on the way to [0, m)
      if (rest < 0) rest += x[1];
      if (rest == 0) return x[0];
      return __builtin_add_overflow(x[0], x[1] - rest, &r) ? fail("overflow") : r;
    }
  }
  return 0;
}

}  // namespace mmsim
