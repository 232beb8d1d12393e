#include "testbench/pending_file.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace mmsim::test {
namespace {

TEST(PendingFile, AppearsOnlyWhenCommitted) {
  TempDir dir;
  const auto target = dir / "out.json";
  {
    PendingFile file(target);
    file.write("{}");
    EXPECT_TRUE(std::filesystem::exists(file.temporary()));
    EXPECT_FALSE(std::filesystem::exists(target));
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  {
    PendingFile file(target);
    file.write("{\"a\": 1}");
    file.commit();
  }
  EXPECT_EQ(read_file(target), "{\"a\": 1}");
}

TEST(PendingFile, KeepsTheSuffixSystemCAppends) {
  PendingFile file("/tmp/x.vcd", ".vcd");
  EXPECT_EQ(file.temporary_base(), "/tmp/x.vcd.partial");
  EXPECT_EQ(file.temporary(), "/tmp/x.vcd.partial.vcd");
}

}  // namespace
}  // namespace mmsim::test
