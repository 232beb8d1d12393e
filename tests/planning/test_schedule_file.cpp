#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "sw/planning/errors.hpp"
#include "sw/planning/permutation.hpp"
#include "sw/planning/schedule_file.hpp"
#include "test_support.hpp"

namespace mmsim::planning {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

// Index (0-based) of the first line starting with `prefix`.
std::size_t find_line(const std::vector<std::string>& lines, const std::string& prefix) {
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (lines[i].rfind(prefix, 0) == 0) return i;
  ADD_FAILURE() << "no line starts with " << prefix;
  return 0;
}

ScheduleError read_error(const std::string& text, const Permutation& p) {
  std::istringstream in(text);
  try {
    read_schedule(in, "sched.txt", p);
  } catch (const ScheduleError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a ScheduleError";
  return ScheduleError("none");
}

TEST(ScheduleFile, DmmExactText) {
  const Permutation p = test::figure8_permutation();
  const DmmPlan plan = plan_dmm(p, 4);
  std::ostringstream out;
  write_schedule(out, plan, p);
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 11u);
  EXPECT_EQ(lines[0], "mmsim-schedule 1");
  EXPECT_EQ(lines[1], "kind dmm");
  EXPECT_EQ(lines[2], "n 16");
  EXPECT_EQ(lines[3], "w 4");
  EXPECT_EQ(lines[4], fmt::format("checksum {:016x}", permutation_checksum(p)));
  EXPECT_EQ(lines[5], "colors 4");
  for (std::uint64_t c = 0; c < 4; ++c) {
    std::string expected = "color " + std::to_string(c);
    for (std::uint64_t j = 0; j < 4; ++j) {
      const std::uint64_t source = plan.source[c * 4 + j];
      expected += ' ';  // appended piece by piece: GCC 12 warns (-Wrestrict) on " " + string
      expected += std::to_string(source);
      expected += ':';
      expected += std::to_string(p[source]);
    }
    EXPECT_EQ(lines[6 + c], expected);
  }
  EXPECT_EQ(lines[10], "end");
}

TEST(ScheduleFile, DmmRoundTripThroughAFile) {
  const Permutation p = random_permutation(4096, 17);
  const DmmPlan plan = plan_dmm(p, 32);
  const auto path = test::scratch_dir("DmmRoundTrip") / "dmm.sched";
  save_schedule(path, plan, p);
  const auto any = load_schedule(path, p);
  ASSERT_TRUE(std::holds_alternative<DmmPlan>(any));
  const DmmPlan& back = std::get<DmmPlan>(any);
  EXPECT_EQ(back.n, plan.n);
  EXPECT_EQ(back.w, plan.w);
  EXPECT_EQ(back.source, plan.source);
  EXPECT_TRUE(check_dmm_plan(back, p).ok);
}

TEST(ScheduleFile, UmmRoundTrip) {
  for (std::uint64_t n : {16u, 256u}) {
    const Permutation p = random_permutation(n, n);
    const UmmPlan plan = plan_umm(p, 4);
    std::stringstream io;
    write_schedule(io, plan, p);
    const UmmPlan back = read_umm_schedule(io, "umm.sched", p);
    ASSERT_EQ(back.steps.size(), plan.steps.size());
    for (std::size_t k = 0; k < plan.steps.size(); ++k) {
      EXPECT_EQ(back.steps[k].kind, plan.steps[k].kind);
      EXPECT_EQ(back.steps[k].length, plan.steps[k].length);
      EXPECT_EQ(back.steps[k].level, plan.steps[k].level);
      EXPECT_EQ(back.steps[k].perm, plan.steps[k].perm);
    }
    std::vector<std::uint64_t> a(n);
    for (std::uint64_t i = 0; i < n; ++i) a[i] = i;
    const auto r = apply(back, a);
    for (std::uint64_t i = 0; i < n; ++i) EXPECT_EQ(r[p[i]], i);
  }
}

TEST(ScheduleFile, UmmText) {
  const Permutation p = test::figure8_permutation();
  std::ostringstream out;
  write_schedule(out, plan_umm(p, 4), p);
  const auto lines = lines_of(out.str());
  EXPECT_EQ(lines[1], "kind umm");
  EXPECT_EQ(lines[5], "steps 5");
  EXPECT_EQ(lines[6], "step 0 rowperm 4 level 0");
  EXPECT_EQ(lines[7].substr(0, 4), "r 0 ");
  EXPECT_EQ(lines[11], "step 1 transpose 4 level 0");
  EXPECT_EQ(lines.back(), "end");
  EXPECT_EQ(lines.size(), 6u + 3 * 5 + 2 + 1);
}

TEST(ScheduleFile, CommentsAndBlankLinesAreAllowed) {
  const Permutation p = test::figure8_permutation();
  std::ostringstream out;
  write_schedule(out, plan_dmm(p, 4), p);
  auto lines = lines_of(out.str());
  lines.insert(lines.begin(), "# written by hand");
  lines.insert(lines.begin() + 3, "");
  lines[4] += "   # the size";
  std::istringstream in(join(lines));
  EXPECT_NO_THROW(read_dmm_schedule(in, "x", p));
}

class TamperedDmm : public ::testing::Test {
 protected:
  void SetUp() override {
    p = test::figure8_permutation();
    plan = plan_dmm(p, 4);
    std::ostringstream out;
    write_schedule(out, plan, p);
    lines = lines_of(out.str());
  }
  Permutation p;
  DmmPlan plan;
  std::vector<std::string> lines;
};

TEST_F(TamperedDmm, WrongDestination) {
  // colour 2, lane 1: say the source goes one further than P says
  const std::uint64_t s = plan.source[2 * 4 + 1], d = p[s];
  const std::string pair = std::to_string(s) + ":" + std::to_string(d);
  const std::size_t at = lines[8].find(" " + pair);
  ASSERT_NE(at, std::string::npos);
  lines[8].replace(at + 1, pair.size(), std::to_string(s) + ":" + std::to_string((d + 1) % 16));
  const ScheduleError e = read_error(join(lines), p);
  EXPECT_EQ(e.file(), "sched.txt");
  EXPECT_EQ(e.line(), 9u);
  EXPECT_EQ(e.message(), fmt::format("colour 2 lane 1: source {} goes to {}, but P({}) = {}", s,
                                     (d + 1) % 16, s, d));
}

TEST_F(TamperedDmm, BankConflict) {
  // Put two sources of bank 0 into colour 0 by exchanging colour 0's lane 1 (bank 1) with
  // colour 1's lane 0 (bank 0); every pair still goes where P says.
  auto pairs_of = [&](std::size_t line) {
    std::istringstream in(lines[line]);
    std::vector<std::string> t;
    for (std::string x; in >> x;) t.push_back(x);
    return t;
  };
  auto c0 = pairs_of(6), c1 = pairs_of(7);
  std::swap(c0[2 + 1], c1[2 + 0]);
  auto rejoin = [](const std::vector<std::string>& t) {
    std::string s;
    for (const auto& x : t) s += (s.empty() ? "" : " ") + x;
    return s;
  };
  lines[6] = rejoin(c0);
  lines[7] = rejoin(c1);
  const ScheduleError e = read_error(join(lines), p);
  EXPECT_EQ(e.line(), 7u);
  EXPECT_EQ(e.message(),
            "colour 0: bank conflict on reading, two sources in bank 0 (expected w distinct "
            "source banks)");
}

TEST_F(TamperedDmm, SourceTwice) {
  lines[7] = lines[6];
  lines[7].replace(0, 7, "color 1");
  const ScheduleError e = read_error(join(lines), p);
  EXPECT_EQ(e.line(), 8u);
  EXPECT_EQ(e.message(), fmt::format("source {} is scheduled twice: colour 0 (line 7) and colour 1",
                                     plan.source[0]));
}

TEST_F(TamperedDmm, HeaderMismatches) {
  {
    auto bad = lines;
    bad[2] = "n 32";
    const ScheduleError e = read_error(join(bad), p);
    EXPECT_EQ(e.line(), 3u);
    EXPECT_EQ(e.message(), "n = 32 but the permutation has 16 elements");
  }
  {
    auto bad = lines;
    bad[3] = "w 8";
    const ScheduleError e = read_error(join(bad), p);
    EXPECT_EQ(e.line(), 6u);
    EXPECT_EQ(e.message(), "colors = 4, expected n / w = 2");
  }
  {
    std::istringstream in(join(lines));
    try {
      read_schedule(in, "sched.txt", p, 8);  // meant for a machine of width 8
      ADD_FAILURE();
    } catch (const ScheduleError& e) {
      EXPECT_EQ(e.line(), 4u);
      EXPECT_EQ(e.message(), "w = 4 but the machine has width w = 8");
    }
    std::istringstream ok(join(lines));
    EXPECT_NO_THROW(read_schedule(ok, "sched.txt", p, 4));
  }
  {
    const Permutation other = random_permutation(16, 1);
    const ScheduleError e = read_error(join(lines), other);
    EXPECT_EQ(e.line(), 5u);
    EXPECT_NE(e.message().find("does not match the permutation's"), std::string::npos);
  }
  {
    auto bad = lines;
    bad[0] = "mmsim-schedule 2";
    EXPECT_EQ(read_error(join(bad), p).message(), "format version 2 is not supported (expected 1)");
  }
  {
    auto bad = lines;
    bad.pop_back();  // no "end": truncated
    const ScheduleError e = read_error(join(bad), p);
    EXPECT_EQ(e.message(), "unexpected end of file, expected 'end'");
  }
  {
    auto bad = lines;
    bad[9] = "color 3 1:2";
    EXPECT_EQ(read_error(join(bad), p).message(),
              "colour 3 has 1 source:destination pairs, expected w = 4");
  }
  {
    std::istringstream in(join(lines));
    try {
      read_umm_schedule(in, "sched.txt", p);
      ADD_FAILURE();
    } catch (const ScheduleError& e) {
      EXPECT_EQ(e.line(), 2u);
    }
  }
}

TEST(TamperedUmm, RowStillAPermutationButThePlanIsWrong) {
  const Permutation p = test::figure8_permutation();
  std::ostringstream out;
  write_schedule(out, plan_umm(p, 4), p);
  auto lines = lines_of(out.str());
  // Step 4 (the last row-wise step), row 2: swap its first two entries.
  const std::size_t step4 = find_line(lines, "step 4 rowperm");
  std::istringstream row(lines[step4 + 3]);
  std::vector<std::string> t;
  for (std::string x; row >> x;) t.push_back(x);
  std::swap(t[2], t[3]);
  lines[step4 + 3] = "r 2 " + t[2] + " " + t[3] + " " + t[4] + " " + t[5];
  const ScheduleError e = read_error(join(lines), p);
  EXPECT_EQ(e.line(), step4 + 4);  // the row that put the element in the wrong place
  EXPECT_NE(e.message().find("the plan moves source"), std::string::npos) << e.message();
}

TEST(TamperedUmm, RowNotAPermutation) {
  const Permutation p = test::figure8_permutation();
  std::ostringstream out;
  write_schedule(out, plan_umm(p, 4), p);
  auto lines = lines_of(out.str());
  lines[7] = "r 0 1 1 2 3";
  const ScheduleError e = read_error(join(lines), p);
  EXPECT_EQ(e.line(), 8u);
  EXPECT_EQ(e.message(),
            "step 0 row 0: column 1 is used twice (a row-wise step must permute each row)");
  lines[7] = "r 0 1 0 2 9";
  EXPECT_EQ(read_error(join(lines), p).message(),
            "step 0 row 0: column 9 is not below the row length 4");
}

// A side of 2^32 once passed the bound and made side^2 wrap to 0 (n % 0: SIGFPE).
TEST(TamperedUmm, ATransposeSideWhoseSquareWrapsIsRefused) {
  const Permutation p = test::figure8_permutation();
  std::ostringstream out;
  write_schedule(out, plan_umm(p, 4), p);
  auto lines = lines_of(out.str());
  for (const std::string side : {"4294967296", "8589934592", "5", "0"}) {
    lines[11] = "step 1 transpose " + side + " level 0";
    const ScheduleError e = read_error(join(lines), p);
    EXPECT_EQ(e.line(), 12u);
    EXPECT_EQ(e.message(),
              "transpose side " + side + ": blocks of side^2 elements must divide n = 16");
  }
}

TEST(ScheduleFile, AnEndlessLineStopsAtTheLimitOfALine) {
  const Permutation p = test::figure8_permutation();
  try {
    load_schedule("/dev/zero", p);
    ADD_FAILURE() << "no error";
  } catch (const ScheduleError& e) {
    EXPECT_EQ(e.line(), 1u);
    EXPECT_EQ(e.message(), "line 1 is longer than 16 MiB (the limit of a line)");
  }
  try {
    load_schedule("/nonexistent/sched.txt", p);
    ADD_FAILURE() << "no error";
  } catch (const ScheduleError& e) {
    EXPECT_EQ(e.message(), "cannot open schedule file: No such file or directory");
  }
}

}  // namespace
}  // namespace mmsim::planning
