#include "sw/planning/schedule_file.hpp"

#include <charconv>
#include <fstream>
#include <limits>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "sw/planning/errors.hpp"
#include "sw/planning/permutation.hpp"
#include "sw/support/text_input.hpp"

namespace mmsim::planning {

namespace {

constexpr std::uint64_t kUnset = std::numeric_limits<std::uint64_t>::max();

// ------------------------------------------------------------------------------------------
// writing
// ------------------------------------------------------------------------------------------

class Writer {
 public:
  explicit Writer(std::ostream& out) : out_(out) {}
  ~Writer() { flush(); }
  template <class... Args>
  void line(fmt::format_string<Args...> f, Args&&... args) {
    fmt::format_to(std::back_inserter(buf_), f, std::forward<Args>(args)...);
    buf_.push_back('\n');
    if (buf_.size() > (1u << 20)) flush();
  }
  fmt::memory_buffer& buffer() { return buf_; }
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

 private:
  std::ostream& out_;
  fmt::memory_buffer buf_;
};

void write_header(Writer& w, std::string_view kind, std::uint64_t n, std::uint64_t width,
                  std::span<const std::uint64_t> p) {
  w.line("mmsim-schedule {}", kScheduleFormatVersion);
  w.line("kind {}", kind);
  w.line("n {}", n);
  w.line("w {}", width);
  w.line("checksum {:016x}", permutation_checksum(p));
}

// ------------------------------------------------------------------------------------------
// reading
// ------------------------------------------------------------------------------------------

class Reader {
 public:
  Reader(std::istream& in, std::string name) : lines_(in), name_(std::move(name)) {}

  // Next non-blank line without its comment, split into tokens; false at the end of the input.
  bool next() {
    try {
      while (lines_.next(current_)) {
        line_ = lines_.number();
        resplit();
        if (!tokens_.empty()) return true;
      }
    } catch (const TextInputError& e) {
      throw ScheduleError(e.what(), name_, e.line());
    }
    return false;
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw ScheduleError(message, name_, line_);
  }
  [[noreturn]] void fail_at(std::size_t line, const std::string& message) const {
    throw ScheduleError(message, name_, line);
  }

  // Requires a next line; `what` names what was expected.
  void expect_line(std::string_view what) {
    if (!next()) fail(fmt::format("unexpected end of file, expected {}", what));
  }

  const std::vector<std::string_view>& tokens() const { return tokens_; }
  std::size_t line() const { return line_; }

  std::uint64_t number(std::string_view token, std::string_view what) const {
    std::uint64_t value = 0;
    if (!parse(token, value))
      fail(fmt::format("expected {} (a non-negative integer), got '{}'", what, token));
    return value;
  }

  // "key VALUE" line with a numeric value.
  std::uint64_t keyed_number(std::string_view key) {
    expect_line(fmt::format("'{} <number>'", key));
    if (tokens_.size() != 2 || tokens_[0] != key)
      fail(fmt::format("expected '{} <number>', got '{}'", key, joined()));
    return number(tokens_[1], key);
  }

  std::string joined() const {
    std::string s;
    for (auto t : tokens_) {
      if (!s.empty()) s += ' ';
      s += t;
    }
    if (s.size() > 60) s = s.substr(0, 57) + "...";
    return s;
  }

  static bool parse(std::string_view s, std::uint64_t& out) {
    if (s.empty()) return false;
    for (char c : s)
      if (c < '0' || c > '9') return false;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size();
  }

 private:
  static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
  }
  void resplit() {
    tokens_.clear();
    std::string_view s = current_;
    if (auto hash = s.find('#'); hash != std::string_view::npos) s = s.substr(0, hash);
    std::size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && is_space(s[i])) ++i;
      std::size_t j = i;
      while (j < s.size() && !is_space(s[j])) ++j;
      if (j > i) tokens_.emplace_back(s.substr(i, j - i));
      i = j;
    }
  }

  LineReader lines_;
  std::string name_;
  std::string current_;
  std::vector<std::string_view> tokens_;
  std::size_t line_ = 0;
};

struct Header {
  std::string kind;
  std::size_t kind_line = 0;
  std::uint64_t n = 0;
  std::uint64_t w = 0;
};

Header read_header(Reader& r, std::span<const std::uint64_t> p, std::uint64_t expected_w) {
  r.expect_line("'mmsim-schedule <version>'");
  if (r.tokens().size() != 2 || r.tokens()[0] != "mmsim-schedule")
    r.fail(fmt::format("expected 'mmsim-schedule {}' as the first line, got '{}'",
                       kScheduleFormatVersion, r.joined()));
  if (r.number(r.tokens()[1], "format version") != kScheduleFormatVersion)
    r.fail(fmt::format("format version {} is not supported (expected {})", r.tokens()[1],
                       kScheduleFormatVersion));
  Header h;
  r.expect_line("'kind dmm|umm'");
  if (r.tokens().size() != 2 || r.tokens()[0] != "kind" ||
      (r.tokens()[1] != "dmm" && r.tokens()[1] != "umm"))
    r.fail(fmt::format("expected 'kind dmm' or 'kind umm', got '{}'", r.joined()));
  h.kind = std::string(r.tokens()[1]);
  h.kind_line = r.line();
  h.n = r.keyed_number("n");
  if (h.n != p.size())
    r.fail(fmt::format("n = {} but the permutation has {} elements", h.n, p.size()));
  h.w = r.keyed_number("w");
  if (h.w == 0) r.fail("w must be at least 1");
  if (expected_w != 0 && h.w != expected_w)
    r.fail(fmt::format("w = {} but the machine has width w = {}", h.w, expected_w));
  r.expect_line("'checksum <16 hex digits>'");
  if (r.tokens().size() != 2 || r.tokens()[0] != "checksum")
    r.fail(fmt::format("expected 'checksum <16 hex digits>', got '{}'", r.joined()));
  const std::string expected = fmt::format("{:016x}", permutation_checksum(p));
  if (r.tokens()[1] != expected)
    r.fail(
        fmt::format("checksum {} does not match the permutation's {} (a schedule for "
                    "another permutation?)",
                    r.tokens()[1], expected));
  return h;
}

void read_end(Reader& r) {
  r.expect_line("'end'");
  if (r.tokens().size() != 1 || r.tokens()[0] != "end")
    r.fail(fmt::format("expected 'end', got '{}'", r.joined()));
  if (r.next()) r.fail(fmt::format("unexpected '{}' after 'end'", r.joined()));
}

DmmPlan read_dmm_body(Reader& r, const Header& h, std::span<const std::uint64_t> p) {
  const std::uint64_t n = h.n, w = h.w;
  if (n % w != 0) r.fail(fmt::format("n = {} is not a multiple of w = {}", n, w));
  if (n >= std::numeric_limits<std::uint32_t>::max())
    r.fail(fmt::format("n = {} is too large for a DMM schedule (at most 2^32-2)", n));
  const std::uint64_t colors = r.keyed_number("colors");
  if (colors != n / w) r.fail(fmt::format("colors = {}, expected n / w = {}", colors, n / w));
  DmmPlan plan;
  plan.n = n;
  plan.w = w;
  plan.source.resize(n);
  constexpr std::uint32_t kNoColor = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> color_of(n, kNoColor);  // colours are below n / w < 2^32
  std::vector<std::size_t> line_of_color(colors, 0);
  std::vector<std::uint64_t> read_bank(w, kUnset), write_bank(w, kUnset);
  for (std::uint64_t c = 0; c < colors; ++c) {
    r.expect_line(fmt::format("'color {} ...'", c));
    const auto& t = r.tokens();
    if (t[0] != "color" || t.size() < 2)
      r.fail(fmt::format("expected 'color {} <{} source:destination pairs>', got '{}'", c, w,
                         r.joined()));
    if (r.number(t[1], "colour index") != c)
      r.fail(fmt::format("expected colour {} next, got colour {}", c, t[1]));
    if (t.size() != w + 2)
      r.fail(fmt::format("colour {} has {} source:destination pairs, expected w = {}", c,
                         t.size() - 2, w));
    line_of_color[c] = r.line();
    // A colour's sources lie in w distinct banks, and so do its destinations: `bank_color`
    // holds the last colour that used each bank.
    const auto claim_bank = [&](std::vector<std::uint64_t>& bank_color, std::uint64_t address,
                                const char* access, const char* word) {
      if (bank_color[address % w] == c)
        r.fail(
            fmt::format("colour {}: bank conflict on {}, two {}s in bank {} (expected w "
                        "distinct {} banks)",
                        c, access, word, address % w, word));
      bank_color[address % w] = c;
    };
    for (std::uint64_t j = 0; j < w; ++j) {
      const std::string_view pair = t[j + 2];
      const auto colon = pair.find(':');
      std::uint64_t s = 0, d = 0;
      if (colon == std::string_view::npos || !Reader::parse(pair.substr(0, colon), s) ||
          !Reader::parse(pair.substr(colon + 1), d))
        r.fail(
            fmt::format("colour {} lane {}: expected 'source:destination', got '{}'", c, j, pair));
      if (s >= n)
        r.fail(fmt::format("colour {} lane {}: source {} is not below n = {}", c, j, s, n));
      if (d != p[s])
        r.fail(fmt::format("colour {} lane {}: source {} goes to {}, but P({}) = {}", c, j, s, d, s,
                           p[s]));
      if (color_of[s] != kNoColor)
        r.fail(fmt::format("source {} is scheduled twice: colour {} (line {}) and colour {}", s,
                           color_of[s], line_of_color[color_of[s]], c));
      color_of[s] = static_cast<std::uint32_t>(c);
      claim_bank(read_bank, s, "reading", "source");
      claim_bank(write_bank, d, "writing", "destination");
      plan.source[c * w + j] = static_cast<std::uint32_t>(s);
    }
  }
  // n distinct sources below n were read, so every source is scheduled exactly once.
  read_end(r);
  return plan;
}

UmmPlan read_umm_body(Reader& r, const Header& h, std::span<const std::uint64_t> p) {
  const std::uint64_t n = h.n, w = h.w;
  const std::uint64_t step_count = r.keyed_number("steps");
  UmmPlan plan;
  plan.n = n;
  plan.w = w;
  // per row-wise step, the line of each row (to point at the row that placed an element)
  std::vector<std::vector<std::size_t>> row_lines;
  std::vector<std::uint32_t> seen;
  for (std::uint64_t k = 0; k < step_count; ++k) {
    r.expect_line(fmt::format("'step {} rowperm|transpose <length> level <d>'", k));
    const auto& t = r.tokens();
    if (t.size() != 6 || t[0] != "step" || (t[2] != "rowperm" && t[2] != "transpose") ||
        t[4] != "level")
      r.fail(fmt::format("expected 'step {} rowperm|transpose <length> level <d>', got '{}'", k,
                         r.joined()));
    if (r.number(t[1], "step index") != k)
      r.fail(fmt::format("expected step {} next, got step {}", k, t[1]));
    UmmStep step;
    step.length = r.number(t[3], "length");
    step.level = static_cast<unsigned>(r.number(t[5], "level"));
    if (t[2] == "transpose") {
      step.kind = UmmStep::Kind::transpose;
      const std::uint64_t side = step.length;
      // side <= n / side first: side * side must not wrap (side = 2^32 would make it 0).
      if (side == 0 || side > n / side || n % (side * side) != 0)
        r.fail(fmt::format("transpose side {}: blocks of side^2 elements must divide n = {}", side,
                           n));
      plan.steps.push_back(std::move(step));
      row_lines.emplace_back();
      continue;
    }
    step.kind = UmmStep::Kind::row_permutation;
    const std::uint64_t len = step.length;
    if (len == 0 || n % len != 0 || len > std::numeric_limits<std::uint32_t>::max())
      r.fail(fmt::format("row length {} must divide n = {}", len, n));
    step.perm.resize(n);
    std::vector<std::size_t> lines(n / len);
    seen.assign(len, 0);
    for (std::uint64_t row = 0; row < n / len; ++row) {
      r.expect_line(fmt::format("'r {} <{} columns>' of step {}", row, len, k));
      const auto& rt = r.tokens();
      if (rt[0] != "r" || rt.size() < 2 || r.number(rt[1], "row index") != row)
        r.fail(fmt::format("expected 'r {} <{} columns>' of step {}, got '{}'", row, len, k,
                           r.joined()));
      if (rt.size() != len + 2)
        r.fail(fmt::format("step {} row {} has {} entries, expected the row length {}", k, row,
                           rt.size() - 2, len));
      const auto stamp = static_cast<std::uint32_t>(row + 1);
      for (std::uint64_t j = 0; j < len; ++j) {
        const std::uint64_t col = r.number(rt[j + 2], "destination column");
        if (col >= len)
          r.fail(fmt::format("step {} row {}: column {} is not below the row length {}", k, row,
                             col, len));
        if (seen[col] == stamp)
          r.fail(
              fmt::format("step {} row {}: column {} is used twice (a row-wise step "
                          "must permute each row)",
                          k, row, col));
        seen[col] = stamp;
        step.perm[row * len + j] = static_cast<std::uint32_t>(col);
      }
      lines[row] = r.line();
    }
    plan.steps.push_back(std::move(step));
    row_lines.push_back(std::move(lines));
  }
  read_end(r);
  const std::size_t end_line = r.line();

  // Does the plan realise P? Trace every source through the steps.
  std::vector<std::uint64_t> where = identity_permutation(n);  // where[pos] = source at pos
  std::vector<std::uint64_t> tmp(n);
  std::vector<std::size_t> placed_by(n, end_line);  // line of the row that placed pos last
  std::vector<std::size_t> tmp_lines(n);
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const UmmStep& step = plan.steps[k];
    apply_step(step, where, tmp);
    if (step.kind == UmmStep::Kind::row_permutation) {
      for (std::uint64_t pos = 0; pos < n; ++pos) tmp_lines[pos] = row_lines[k][pos / step.length];
    } else {
      apply_step(step, placed_by, tmp_lines);
    }
    where.swap(tmp);
    placed_by.swap(tmp_lines);
  }
  for (std::uint64_t pos = 0; pos < n; ++pos) {
    const std::uint64_t s = where[pos];
    if (p[s] != pos)
      r.fail_at(placed_by[pos],
                fmt::format("the plan moves source {} to {}, but P({}) = {}", s, pos, s, p[s]));
  }
  return plan;
}

}  // namespace

void write_schedule(std::ostream& out, const DmmPlan& plan, std::span<const std::uint64_t> p) {
  Writer w(out);
  write_header(w, "dmm", plan.n, plan.w, p);
  w.line("colors {}", plan.colors());
  for (std::uint64_t c = 0; c < plan.colors(); ++c) {
    auto& buf = w.buffer();
    fmt::format_to(std::back_inserter(buf), "color {}", c);
    for (const std::uint32_t source : plan.sources_of(c))
      fmt::format_to(std::back_inserter(buf), " {}:{}", source, p[source]);
    w.line("");
  }
  w.line("end");
  w.flush();
  if (!out) throw ScheduleError("write error");
}

void write_schedule(std::ostream& out, const UmmPlan& plan, std::span<const std::uint64_t> p) {
  Writer w(out);
  write_header(w, "umm", plan.n, plan.w, p);
  w.line("steps {}", plan.steps.size());
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const UmmStep& step = plan.steps[k];
    if (step.kind == UmmStep::Kind::transpose) {
      w.line("step {} transpose {} level {}", k, step.length, step.level);
      continue;
    }
    w.line("step {} rowperm {} level {}", k, step.length, step.level);
    for (std::uint64_t row = 0; row < plan.n / step.length; ++row) {
      auto& buf = w.buffer();
      fmt::format_to(std::back_inserter(buf), "r {}", row);
      for (std::uint64_t j = 0; j < step.length; ++j)
        fmt::format_to(std::back_inserter(buf), " {}", step.perm[row * step.length + j]);
      w.line("");
    }
  }
  w.line("end");
  w.flush();
  if (!out) throw ScheduleError("write error");
}

template <class Plan>
static void save_any(const std::filesystem::path& path, const Plan& plan,
                     std::span<const std::uint64_t> p) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw ScheduleError("cannot open for writing", path.string());
  write_schedule(out, plan, p);
  out.close();
  if (!out) throw ScheduleError("write error", path.string());
}

void save_schedule(const std::filesystem::path& path, const DmmPlan& plan,
                   std::span<const std::uint64_t> p) {
  save_any(path, plan, p);
}

void save_schedule(const std::filesystem::path& path, const UmmPlan& plan,
                   std::span<const std::uint64_t> p) {
  save_any(path, plan, p);
}

DmmPlan read_dmm_schedule(std::istream& in, const std::string& name,
                          std::span<const std::uint64_t> p, std::uint64_t expected_w) {
  Reader r(in, name);
  const Header h = read_header(r, p, expected_w);
  if (h.kind != "dmm") r.fail_at(h.kind_line, "expected 'kind dmm', the file holds a umm schedule");
  return read_dmm_body(r, h, p);
}

UmmPlan read_umm_schedule(std::istream& in, const std::string& name,
                          std::span<const std::uint64_t> p, std::uint64_t expected_w) {
  Reader r(in, name);
  const Header h = read_header(r, p, expected_w);
  if (h.kind != "umm") r.fail_at(h.kind_line, "expected 'kind umm', the file holds a dmm schedule");
  return read_umm_body(r, h, p);
}

std::variant<DmmPlan, UmmPlan> read_schedule(std::istream& in, const std::string& name,
                                             std::span<const std::uint64_t> p,
                                             std::uint64_t expected_w) {
  Reader r(in, name);
  const Header h = read_header(r, p, expected_w);
  if (h.kind == "dmm") return read_dmm_body(r, h, p);
  return read_umm_body(r, h, p);
}

std::variant<DmmPlan, UmmPlan> load_schedule(const std::filesystem::path& path,
                                             std::span<const std::uint64_t> p,
                                             std::uint64_t expected_w) {
  std::ifstream in;
  try {
    in = open_text_file(path);
  } catch (const TextInputError& e) {
    throw ScheduleError(std::string("cannot open schedule file: ") + e.what(), path.string());
  }
  return read_schedule(in, path.string(), p, expected_w);
}

}  // namespace mmsim::planning
