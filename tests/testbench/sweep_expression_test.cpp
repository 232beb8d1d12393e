// The expression language of sweeps: integer arithmetic, comparisons, the named helpers, and
// errors that point at the column at fault.
#include "testbench/sweeps/sweep_expression.hpp"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

namespace mmsim {
namespace {

std::int64_t evaluate(const std::string& text,
                      const std::map<std::string, std::int64_t>& names = {}) {
  const SweepExpression e(text, {"s.yaml", 3, 10});
  return e.evaluate([&](const std::string& name) { return names.at(name); });
}

std::string parse_error(const std::string& text) {
  try {
    SweepExpression(text, {"s.yaml", 3, 10});
  } catch (const InputError& e) {
    return e.describe();
  }
  return "no error";
}

std::string evaluation_error(const std::string& text) {
  try {
    evaluate(text);
  } catch (const std::domain_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(SweepExpression, Arithmetic) {
  EXPECT_EQ(evaluate("1 + 2 * 3"), 7);
  EXPECT_EQ(evaluate("(1 + 2) * 3"), 9);
  EXPECT_EQ(evaluate("7 / 2"), 3);
  EXPECT_EQ(evaluate("-7 / 2"), -3);  // toward zero
  EXPECT_EQ(evaluate("7 % 3"), 1);
  EXPECT_EQ(evaluate("10 - 4 - 3"), 3);  // left to right
  EXPECT_EQ(evaluate("--3"), 3);
  EXPECT_EQ(evaluate("2 * -3"), -6);
}

TEST(SweepExpression, ComparisonsGiveOneOrZero) {
  EXPECT_EQ(evaluate("3 < 4"), 1);
  EXPECT_EQ(evaluate("4 <= 4"), 1);
  EXPECT_EQ(evaluate("3 > 4"), 0);
  EXPECT_EQ(evaluate("4 >= 5"), 0);
  EXPECT_EQ(evaluate("2 + 2 == 4"), 1);
  EXPECT_EQ(evaluate("2 + 2 != 4"), 0);
}

TEST(SweepExpression, Functions) {
  EXPECT_EQ(evaluate("log2(32)"), 5);
  EXPECT_EQ(evaluate("log2(33)"), 5);  // floor
  EXPECT_EQ(evaluate("log2(1)"), 0);
  EXPECT_EQ(evaluate("round_up(1000, 160)"), 1120);
  EXPECT_EQ(evaluate("round_up(1120, 160)"), 1120);
  EXPECT_EQ(evaluate("round_up(0, 7)"), 0);
  EXPECT_EQ(evaluate("round_up(-5, 4)"), -4);
  EXPECT_EQ(evaluate("min(4, 2, 9)"), 2);
  EXPECT_EQ(evaluate("max(4, 2, 9)"), 9);
  EXPECT_EQ(evaluate("pow2(10)"), 1024);
  EXPECT_EQ(evaluate("pow2(log2(100))"), 64);
}

TEST(SweepExpression, NamesByPathOrLastComponent) {
  // Theorem 8: s = log2 w, p = a multiple of s*w.
  const std::map<std::string, std::int64_t> names = {
      {"width", 32}, {"super_warp", 5}, {"machine.latency", 8}};
  EXPECT_EQ(evaluate("round_up(1024, super_warp * width)", names), 1120);
  EXPECT_EQ(evaluate("machine.latency * width", names), 256);
  const SweepExpression e("round_up(1024, super_warp*width) + width", {"s.yaml", 3, 10});
  ASSERT_EQ(e.names().size(), 3u);
  EXPECT_EQ(e.names()[0].text, "super_warp");
  EXPECT_EQ(e.names()[0].where.column, 10 + 15);
  EXPECT_EQ(e.names()[1].text, "width");
  EXPECT_EQ(e.names()[2].where.column, 10 + 35);
}

TEST(SweepExpression, MalformedExpressionsPointAtTheColumn) {
  EXPECT_EQ(parse_error("1 +"),
            "s.yaml:3:13: in '1 +': expected a number, a name or '(' at the end");
  EXPECT_EQ(parse_error("(1 + 2"), "s.yaml:3:16: in '(1 + 2': expected ')'");
  EXPECT_EQ(parse_error("1 2"), "s.yaml:3:12: in '1 2': unexpected '2'");
  EXPECT_EQ(parse_error("2 ^ 3"), "s.yaml:3:12: in '2 ^ 3': unexpected '^'");
  EXPECT_EQ(parse_error("lg2(8)"),
            "s.yaml:3:10: in 'lg2(8)': unknown function 'lg2' (did you mean 'log2'?)");
  EXPECT_EQ(parse_error("round_up(8)"),
            "s.yaml:3:10: in 'round_up(8)': round_up takes 2 arguments");
  EXPECT_EQ(parse_error("log2(8, 2)"), "s.yaml:3:10: in 'log2(8, 2)': log2 takes 1 argument");
  EXPECT_EQ(parse_error("99999999999999999999"),
            "s.yaml:3:10: in '99999999999999999999': the number is too large");
}

TEST(SweepExpression, RunTimeErrors) {
  EXPECT_EQ(evaluation_error("4 / (2 - 2)"), "'4 / (2 - 2)': division by zero");
  EXPECT_EQ(evaluation_error("4 % 0"), "'4 % 0': division by zero");
  EXPECT_EQ(evaluation_error("log2(0)"), "'log2(0)': log2 of 0 (it needs x > 0)");
  EXPECT_EQ(evaluation_error("pow2(63)"), "'pow2(63)': pow2(63) (0 <= k <= 62)");
  EXPECT_EQ(evaluation_error("round_up(5, 0)"),
            "'round_up(5, 0)': round_up to a multiple of 0 (m > 0)");
  EXPECT_EQ(evaluation_error("pow2(62) * 2"), "'pow2(62) * 2': overflow");
  EXPECT_EQ(evaluation_error("round_up(pow2(62) + (pow2(62) - 1), 2)"),
            "'round_up(pow2(62) + (pow2(62) - 1), 2)': overflow");
}

// Parsing and evaluating recurse per level: 200000 parentheses overflowed the stack (a sweep
// file may hold 64 MiB). At most 1000 levels, counting the expression itself, each parenthesis,
// each unary minus, and each operand of a chain.
TEST(SweepExpression, NestingIsBoundedInsteadOfOverflowingTheStack) {
  const auto parenthesised = [](std::size_t parentheses) {
    return std::string(parentheses, '(') + "1" + std::string(parentheses, ')');
  };
  const auto chain = [](std::size_t operators) {
    std::string text = "1";
    for (std::size_t i = 0; i < operators; ++i) text += "+1";
    return text;
  };
  const std::string too_deep = "nested more than 1000 levels deep";
  EXPECT_EQ(evaluate(parenthesised(999)), 1);
  EXPECT_NE(parse_error(parenthesised(1000)).find(too_deep), std::string::npos);
  EXPECT_NE(parse_error(parenthesised(200000)).find(too_deep), std::string::npos);
  EXPECT_EQ(evaluate(std::string(999, '-') + "1"), -1);
  EXPECT_NE(parse_error(std::string(1000, '-') + "1").find(too_deep), std::string::npos);
  EXPECT_EQ(evaluate(chain(999)), 1000);
  EXPECT_NE(parse_error(chain(1000)).find(too_deep), std::string::npos);
  EXPECT_NE(parse_error(chain(500000)).find(too_deep), std::string::npos);
}

}  // namespace
}  // namespace mmsim
