// The site of a warp instruction (hw/pe/site.hpp): the line of a C++ program's co_await, or the
// Site a program gives; the run's site table interns them by place.
#include <gtest/gtest.h>

#include <vector>

#include "hw/pe/site_table.hpp"
#include "hw/pe/warp.hpp"

namespace mmsim {
namespace {

// Each instruction, after the line it should record.
Task sites_of_every_instruction(Warp& warp, std::span<const Address> a, const Site& given,
                                std::vector<std::uint32_t>& lines) {
  lines.push_back(CodeLocation::current().line() + 1);
  co_await warp.read(a);
  lines.push_back(CodeLocation::current().line() + 1);
  co_await warp.write(a);
  lines.push_back(CodeLocation::current().line() + 1);
  co_await warp.write(a, warp.registers(), Space::global);
  lines.push_back(CodeLocation::current().line() + 1);
  co_await warp.sync();
  lines.push_back(CodeLocation::current().line() + 1);
  co_await warp.grid_sync();
  co_await warp.read(a, Space::global, given);
  co_await warp.sync(given);
}

TEST(Site, EveryInstructionRecordsTheLineOfItsCoAwaitOrTheGivenSite) {
  Warp warp(Warp::Placement{}, 2, 0);
  const std::vector<Address> a{0, 1};
  const Site given{"kernel.py", 12, "transpose"};
  std::vector<std::uint32_t> lines;
  warp.start(sites_of_every_instruction(warp, a, given, lines));
  SiteTable table;
  std::vector<SiteId> ids;
  for (Warp::Instruction in = warp.advance(); in.kind != Warp::Instruction::Kind::done;
       in = warp.advance())
    ids.push_back(table.intern(in.site));
  ASSERT_EQ(ids.size(), 7u);
  ASSERT_EQ(lines.size(), 5u);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const SiteInfo& site = table[ids[i]];
    EXPECT_EQ(site.file, "tests/hw/site_test.cpp") << i;
    EXPECT_EQ(site.line, lines[i]) << i;
    EXPECT_EQ(site.label, "sites_of_every_instruction") << i;
  }
  EXPECT_EQ(table[ids[5]], (SiteInfo{"kernel.py", 12, "transpose"}));
  EXPECT_EQ(ids[6], ids[5]);  // one Site, one id
  EXPECT_EQ(table.size(), 6u);
}

TEST(Site, OnePlaceIsOneSiteWhicheverObjectNamesIt) {
  const Site a{"trace.csv", 3, "read"};
  const Site b{"trace.csv", 3, "read"};
  const Site c{"trace.csv", 4, "read"};
  SiteTable table;
  EXPECT_EQ(table.intern(a), 0u);
  EXPECT_EQ(table.intern(b), 0u);
  EXPECT_EQ(table.intern(c), 1u);
  EXPECT_EQ(table.intern(SiteRef{}), 2u);
  EXPECT_EQ(table[2].label, "(no site)");
}

TEST(Site, FunctionNamesLoseTheirReturnTypeParametersAndNamespaces) {
  EXPECT_EQ(short_function_name("mmsim::Task mmsim::{anonymous}::Transpose::run(mmsim::Warp&)"),
            "run");
  EXPECT_EQ(short_function_name("Task mmsim::(anonymous namespace)::Transpose::run(Warp &)"), "run");
  EXPECT_EQ(short_function_name("mmsim::Task mmsim::steps::halve<std::vector<int, A> >(Warp&)"),
            "halve");
  EXPECT_EQ(short_function_name("run"), "run");  // clang 14: __builtin_FUNCTION's spelling
  EXPECT_EQ(short_function_name("main"), "main");
}

}  // namespace
}  // namespace mmsim
