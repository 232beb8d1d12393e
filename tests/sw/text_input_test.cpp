// Text inputs are read within bounds: the limits of a line and of a whole input end an endless
// input with an error naming the line; UTF-8 is checked byte by byte.
#include "sw/support/text_input.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace mmsim::test {
namespace {

std::vector<std::string> lines_of(const std::string& text, TextLimits limits = {}) {
  std::istringstream in(text);
  LineReader reader(in, limits);
  std::vector<std::string> lines;
  for (std::string line; reader.next(line);) {
    lines.push_back(line);
    EXPECT_EQ(reader.number(), lines.size());
  }
  return lines;
}

std::string limit_error(const std::string& text, TextLimits limits) {
  try {
    lines_of(text, limits);
  } catch (const TextInputError& e) {
    return "line " + std::to_string(e.line()) + ": " + e.what();
  }
  return "no error";
}

TEST(LineReader, ReadsLinesWithOrWithoutAFinalNewline) {
  EXPECT_EQ(lines_of("a\nbb\n\nc"), (std::vector<std::string>{"a", "bb", "", "c"}));
  EXPECT_EQ(lines_of("a\n"), (std::vector<std::string>{"a"}));
  EXPECT_EQ(lines_of(""), (std::vector<std::string>{}));
  // Lines longer than the reader's chunk of 64 KiB.
  const std::string long_line(200000, 'x');
  EXPECT_EQ(lines_of(long_line + "\n" + long_line),
            (std::vector<std::string>{long_line, long_line}));
}

TEST(LineReader, StopsAtTheLimitOfALineAndOfTheInput) {
  EXPECT_EQ(lines_of("12345\n", {.line_bytes = 5}), (std::vector<std::string>{"12345"}));
  EXPECT_EQ(limit_error("1\n123456\n", {.line_bytes = 5}),
            "line 2: line 2 is longer than 5 bytes (the limit of a line)");
  EXPECT_EQ(limit_error(std::string(3 << 20, '\n'), {.total_bytes = 2 << 20}),
            "line 2097153: the input holds more than 2 MiB (the limit of an input file)");
  std::istringstream in(std::string(3 << 20, 'a'));
  EXPECT_THROW(read_text(in, {.total_bytes = 2 << 20}), TextInputError);
}

TEST(OpenTextFile, SaysWhyAFileCannotBeOpened) {
  const auto reason = [](const std::string& path) -> std::string {
    try {
      open_text_file(path);
    } catch (const TextInputError& e) {
      return e.what();
    }
    return "opened";
  };
  EXPECT_EQ(reason("/nonexistent/x"), "No such file or directory");
  EXPECT_EQ(reason("/"), "is a folder");
  EXPECT_EQ(reason("/" + std::string(5000, 'a')), "File name too long");
  EXPECT_EQ(reason("/dev/zero"), "opened");
}

TEST(InvalidUtf8, FindsTheFirstByteThatIsNotUtf8) {
  EXPECT_EQ(invalid_utf8("plain ascii"), std::nullopt);
  EXPECT_EQ(invalid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), std::nullopt);  // é € 😀
  EXPECT_EQ(invalid_utf8("ab\xff"), 2u);
  EXPECT_EQ(invalid_utf8("ab\xc3"), 2u);            // cut short
  EXPECT_EQ(invalid_utf8("\xc0\xaf"), 0u);          // overlong '/'
  EXPECT_EQ(invalid_utf8("x\xed\xa0\x80"), 1u);     // a surrogate
  EXPECT_EQ(invalid_utf8("\xf4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(invalid_utf8("\xe2\x82"), 0u);          // a 3-byte sequence of 2
  EXPECT_EQ(invalid_utf8("\x80"), 0u);              // a lone continuation byte
}

}  // namespace
}  // namespace mmsim::test
