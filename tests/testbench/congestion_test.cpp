// mmsim congestion (Nakano and Matsumae 2013, section VI): exact on tiny cases, reproducible,
// independent of the number of threads, and its command line.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "support/command.hpp"
#include "sw/program/input_error.hpp"
#include "testbench/experiments/congestion_experiment.hpp"
#include "testbench/input/integer_list.hpp"

namespace mmsim::test {
namespace {

// E[Y] by enumeration of every choice of the s*w addresses (and, for random_shift, of every
// shift table), each bank found by the map's formula; with banks of k `ports`, Y = ceil(c/k)
// for c the most distinct addresses of one bank (docs/semantics.md §10).
double exact_congestion(unsigned w, unsigned s, std::uint64_t n, const std::string& map,
                        unsigned ports = 1) {
  const std::size_t lanes = std::size_t{w} * s;
  const std::uint64_t rows = (n + w - 1) / w;
  std::uint64_t tables = 1;
  if (map == "random_shift")
    for (std::uint64_t j = 0; j < rows; ++j) tables *= w;
  std::uint64_t choices = 1;
  for (std::size_t i = 0; i < lanes; ++i) choices *= n;
  double total = 0;
  for (std::uint64_t table = 0; table < tables; ++table) {
    std::vector<std::uint64_t> shift(rows);
    for (std::uint64_t j = 0, t = table; j < rows; ++j, t /= w) shift[j] = t % w;
    for (std::uint64_t choice = 0; choice < choices; ++choice) {
      std::set<std::uint64_t> addresses;
      for (std::uint64_t i = 0, c = choice; i < lanes; ++i, c /= n) addresses.insert(c % n);
      std::map<std::uint64_t, unsigned> per_bank;
      unsigned y = 0;
      for (const std::uint64_t a : addresses) {
        const std::uint64_t j = a / w;
        const std::uint64_t k = a % w;
        const std::uint64_t bank = map == "random_shift" ? (k + shift[j]) % w
                                   : map == "skew"       ? (k + j) % w
                                   : map == "xor"        ? k ^ (j % w)
                                                         : k;
        y = std::max(y, ++per_bank[bank]);
      }
      total += (y + ports - 1) / ports;
    }
  }
  return total / static_cast<double>(tables * choices);
}

CongestionSpec spec(std::vector<unsigned> widths, std::vector<unsigned> super_warps,
                    std::vector<std::uint64_t> arrays, std::uint64_t rounds,
                    const std::string& map = "random_shift", std::uint64_t seed = 1) {
  CongestionSpec s;
  s.widths = std::move(widths);
  s.super_warps = std::move(super_warps);
  s.arrays = std::move(arrays);
  s.rounds = rounds;
  s.map = map;
  s.seed = seed;
  return s;
}

TEST(Congestion, TinyCellsMatchTheExactValuesByEnumeration) {
  struct Tiny {
    unsigned w, s;
    std::uint64_t n;
  };
  // n = 4, w = 2, s = 1: two addresses; Y = 2 exactly when they differ in one bank: E[Y] = 1.25.
  EXPECT_DOUBLE_EQ(exact_congestion(2, 1, 4, "interleaved"), 1.25);
  for (const std::string map : {"random_shift", "rap", "interleaved", "skew", "xor"})
    for (const Tiny t :
         {Tiny{2, 1, 4}, Tiny{2, 2, 4}, Tiny{2, 1, 6}, Tiny{4, 1, 8}, Tiny{3, 2, 6}}) {
      if (map == "xor" && t.w == 3) continue;
      const std::vector<CongestionCell> cells =
          run_congestion(spec({t.w}, {t.s}, {t.n}, 1 << 18, map, 7));
      ASSERT_EQ(cells.size(), 1u);
      const CongestionCell& c = cells[0];
      // rap: its shift tables are bijections of the cells, as every map is, and uniformly random
      // addresses stay uniformly random cells: E[Y] is the interleaved map's.
      const double exact = exact_congestion(t.w, t.s, t.n, map == "rap" ? "interleaved" : map);
      const std::string where = map + " w=" + std::to_string(t.w) + " s=" + std::to_string(t.s) +
                                " n=" + std::to_string(t.n);
      EXPECT_GT(c.standard_error, 0) << where;
      EXPECT_LT(c.standard_error, 0.002) << where;
      // Within four standard errors (the seed is fixed: this either always holds or never).
      EXPECT_NEAR(c.congestion, exact, 4 * c.standard_error * t.s) << where;
      EXPECT_DOUBLE_EQ(c.ratio, c.congestion / t.s) << where;
    }
}

TEST(Congestion, BanksOfKPortsTakeCeilingOfCOverKStages) {
  // w = 2, s = 2, n = 6: bank 0 holds 0, 2, 4. Four draws send all three to one bank in
  // 2 * (36 + 72) of the 6^4 choices (36 within the bank, 72 with one draw elsewhere): c = 3,
  // ceil(3/2) = 2 stages with probability 1/6, one stage otherwise.
  EXPECT_DOUBLE_EQ(exact_congestion(2, 2, 6, "interleaved", 2), 7.0 / 6);
  struct Ported {
    unsigned w, s;
    std::uint64_t n;
    unsigned ports;
  };
  for (const std::string map : {"random_shift", "interleaved", "skew", "xor"})
    for (const Ported t :
         {Ported{2, 2, 6, 2}, Ported{2, 2, 8, 2}, Ported{2, 2, 8, 3}, Ported{3, 2, 9, 2}}) {
      if (map == "xor" && t.w == 3) continue;
      if (map == "random_shift" && t.n > 6) continue;  // w^(n/w) tables: enough with n = 6
      CongestionSpec ported = spec({t.w}, {t.s}, {t.n}, 1 << 18, map, 7);
      ported.ports = t.ports;
      const CongestionCell c = run_congestion(ported).at(0);
      const double exact = exact_congestion(t.w, t.s, t.n, map, t.ports);
      const std::string where = map + " w=" + std::to_string(t.w) + " n=" + std::to_string(t.n) +
                                " k=" + std::to_string(t.ports);
      EXPECT_GT(c.standard_error, 0) << where;
      EXPECT_NEAR(c.congestion, exact, 4 * c.standard_error * t.s) << where;
      EXPECT_DOUBLE_EQ(c.ratio, c.congestion / t.s) << where;
    }
  // The same draws (the same seed) with one port and with two: every round's ceil(c/2) lies in
  // [c/2, (c+1)/2], so the means do too.
  CongestionSpec one = spec({4, 16}, {1, 3}, {64, 1024}, 20000, "random_shift", 5);
  CongestionSpec two = one;
  two.ports = 2;
  const std::vector<CongestionCell> by_one = run_congestion(one);
  const std::vector<CongestionCell> by_two = run_congestion(two);
  ASSERT_EQ(by_one.size(), by_two.size());
  for (std::size_t i = 0; i < by_one.size(); ++i) {
    EXPECT_GE(by_two[i].congestion, by_one[i].congestion / 2) << i;
    EXPECT_LE(by_two[i].congestion, (by_one[i].congestion + 1) / 2) << i;
    EXPECT_LT(by_two[i].congestion, by_one[i].congestion) << i;
  }
  // k >= s*w: one stage in every round, exactly.
  CongestionSpec wide = spec({4, 8}, {1, 2}, {64}, 5000, "interleaved", 3);
  wide.ports = 16;
  for (const CongestionCell& c : run_congestion(wide)) {
    EXPECT_EQ(c.congestion, 1.0) << c.width << " " << c.super_warp;
    EXPECT_EQ(c.standard_error, 0.0) << c.width << " " << c.super_warp;
  }
}

TEST(Congestion, SameSeedSameTableWhateverTheNumberOfThreads) {
  // 100000 rounds: one whole chunk of 2^16 and a partial one.
  CongestionSpec s = spec({4, 16}, {1, 3}, {64, 1024}, 100000);
  s.threads = 1;
  const auto one = run_congestion(s);
  s.threads = 2;
  const auto two = run_congestion(s);
  s.threads = 5;
  const auto five = run_congestion(s);
  ASSERT_EQ(one.size(), 8u);
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].ratio, two[i].ratio) << i;
    EXPECT_EQ(one[i].ratio, five[i].ratio) << i;
    EXPECT_EQ(one[i].standard_error, five[i].standard_error) << i;
  }
  s.seed = 2;
  EXPECT_NE(run_congestion(s)[5].ratio, one[5].ratio);
  // Table order: n, then s, then w.
  EXPECT_EQ(one[0].width, 4u);
  EXPECT_EQ(one[1].width, 16u);
  EXPECT_EQ(one[2].super_warp, 3u);
  EXPECT_EQ(one[4].array, 1024u);
}

TEST(Congestion, ThePapersQuotedCellIsReproduced) {
  // Nakano and Matsumae 2013 quote E[Y]/s = 1.819 for w = 32, s = 5, n = 1024: a sanity
  // check, not a target.
  const auto cells = run_congestion(spec({32}, {5}, {1024}, 200000));
  EXPECT_NEAR(cells[0].ratio, 1.819, 0.005);
  EXPECT_NEAR(cells[0].analytic, 2.0, 1e-12);  // f_w(s)/(es) = 1 * ... = 2 at s = log w
}

TEST(Congestion, AnalyticRowIsTwoLogSPlusOneLogWOverSLogLogWPlusOne) {
  EXPECT_NEAR(analytic_ratio(16, 1), 2.0 * 4 / 3, 1e-12);
  EXPECT_NEAR(analytic_ratio(256, 8), 2.0, 1e-12);
  EXPECT_NEAR(analytic_ratio(64, 3), 2 * (std::log2(3.0) + 1) * 6 / (3 * (std::log2(6.0) + 1)),
              1e-12);
}

TEST(Congestion, IntegerListsTakeCommasRangesAndPowers) {
  EXPECT_EQ(parse_integer_list("--x", "1-3,5,2^4", 0, 100),
            (std::vector<std::uint64_t>{1, 2, 3, 5, 16}));
  EXPECT_THROW(parse_integer_list("--x", "3-1", 0, 100), InputError);
  EXPECT_THROW(parse_integer_list("--x", "1,,2", 0, 100), InputError);
  EXPECT_THROW(parse_integer_list("--x", "2^40", 0, 100), InputError);
}

TEST(CongestionCommand, PrintsTheTableAndWritesCsvAndJson) {
  TempDir dir;
  const auto csv = dir / "c.csv";
  const auto json = dir / "c.json";
  const CommandResult r = mmsim(
      "congestion --width 4,8 --super-warp 1-2 --array 64 --rounds 3000 "
      "--seed 3 --threads 2 --csv '" +
      csv.string() + "' --json '" + json.string() + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("3000 rounds per cell, seed 3, address map random_shift"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("n = 64\n s \\ w         4         8\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("f_w(s)/(es)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2.000*"), std::string::npos)
      << "f_w(s)/(es) = 2 at s = log w, marked: " << r.out;
  const auto table = nlohmann::json::parse(read_file(json));
  for (const char* key : {"version", "command", "date", "host"})
    EXPECT_TRUE(table[key].is_string()) << key;
  EXPECT_NE(table["command"].get<std::string>().find(" congestion --width 4,8 --super-warp 1-2"),
            std::string::npos);
  EXPECT_EQ(table["resolved"]["widths"], nlohmann::json({4, 8}));
  EXPECT_EQ(table["resolved"]["map"], "random_shift");
  const auto& cells = table["cells"];
  ASSERT_EQ(cells.size(), 4u);
  for (const auto& cell : cells)
    for (const char* key : {"width", "super_warp", "array", "rounds", "ratio", "stderr"})
      EXPECT_TRUE(cell.contains(key)) << key;
  EXPECT_EQ(cells[3]["width"], 8);
  EXPECT_EQ(cells[3]["super_warp"], 2);
  EXPECT_EQ(cells[3]["rounds"], 3000);
  const std::string text = read_file(csv);
  EXPECT_EQ(text.rfind("width,super_warp,array,rounds,ratio,stderr,", 0), 0u) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 5);
}

TEST(CongestionCommand, PortsSayTheRuleAndReachTheJson) {
  TempDir dir;
  const auto json = dir / "c.json";
  const CommandResult r = mmsim(
      "congestion --width 4 --super-warp 1-2 --array 64 --rounds 2000 "
      "--ports 2 --map interleaved --json '" +
      json.string() + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("address map interleaved, banks of k = 2 ports\n(Y = ceil(c/k), c the "
                       "most distinct addresses sent to one bank by the s*w threads"),
            std::string::npos)
      << r.out;
  const auto table = nlohmann::json::parse(read_file(json));
  EXPECT_EQ(table["resolved"]["ports"], 2);
  // w = 4, s = 1: 4 draws, at most 4 to one bank, ceil(c/2) <= 2 stages; s = 2 at most 4.
  for (const auto& cell : table["cells"]) {
    EXPECT_GE(cell["congestion"].get<double>(), 1.0);
    EXPECT_LE(cell["congestion"].get<double>(), cell["super_warp"] == 1 ? 2.0 : 4.0);
  }
}

TEST(CongestionPlot, DrawsThePngFromTheJsonAndTheCsv) {
  const CommandResult probe = run_command("/usr/bin/python3 -c 'import matplotlib'");
  ASSERT_EQ(probe.status, 0) << "Debian's python3-matplotlib is needed: run scripts/setup";
  TempDir dir;
  const auto json = dir / "c.json";
  const auto csv = dir / "c.csv";
  ASSERT_EQ(mmsim("congestion --width 4,8 --super-warp 1-3 --array 64,256 --rounds 500 --json '" +
                  json.string() + "' --csv '" + csv.string() + "'")
                .status,
            0);
  for (const auto& table : {json, csv}) {
    const auto png = dir / (table.filename().string() + ".png");
    const CommandResult r =
        run_command(std::string(MMSIM_SOURCE_DIR) + "/scripts/plot_congestion '" + table.string() +
                    "' '" + png.string() + "'");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_file(png).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  }
  const CommandResult bad =
      run_command(std::string(MMSIM_SOURCE_DIR) + "/scripts/plot_congestion '" +
                  (dir / "none.json").string() + "' '" + (dir / "x.png").string() + "'");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("scripts/plot_congestion: cannot read"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.png"));
}

struct BadOption {
  std::string name;
  std::string arguments;
  std::string message;
};

void PrintTo(const BadOption& b, std::ostream* os) { *os << b.name; }

class CongestionBadOption : public ::testing::TestWithParam<BadOption> {};

TEST_P(CongestionBadOption, ExitsWithStatusTwoAndNoFiles) {
  TempDir dir;
  const auto csv = dir / "c.csv";
  const auto json = dir / "c.json";
  const CommandResult r = mmsim("congestion " + GetParam().arguments + " --csv '" + csv.string() +
                                "' --json '" + json.string() + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(GetParam().message), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CongestionBadOption,
    ::testing::Values(
        BadOption{"SuperWarpZero", "--super-warp 0-3",
                  "mmsim: --super-warp: the super warp size s must be at least 1 (got 0)"},
        BadOption{"XorNeedsAPowerOfTwo", "--width 12 --map xor",
                  "mmsim: --map: address map xor needs w a power of two (got w = 12)"},
        BadOption{"ArraySmallerThanW", "--width 16,32 --array 16",
                  "mmsim: --array: the array of n = 16 words is smaller than w = 32"},
        BadOption{"UnknownMap", "--map randomshift",
                  "mmsim: --map: unknown address map 'randomshift' (did you mean 'random_shift'?)"},
        BadOption{"NotAList", "--width 16,x", "mmsim: --width: 'x' is not an integer or a range"},
        BadOption{"NoRounds", "--rounds 0", "mmsim: --rounds: expected an integer from 1 to"},
        BadOption{"NegativeRounds", "--rounds -3",
                  "mmsim: --rounds: expected an integer from 1 to"},
        BadOption{"NoPorts", "--ports 0", "mmsim: --ports: expected an integer from 1 to"},
        BadOption{"UnknownOption", "--widht 16", "widht"}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace mmsim::test
