#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "sw/planning/errors.hpp"
#include "sw/planning/permutation.hpp"
#include "test_support.hpp"

namespace mmsim::planning {
namespace {

TEST(Generators, Identity) {
  EXPECT_EQ(identity_permutation(5), (Permutation{0, 1, 2, 3, 4}));
  EXPECT_TRUE(identity_permutation(0).empty());
}

TEST(Generators, BitReversal) {
  EXPECT_EQ(bit_reversal_permutation(8), (Permutation{0, 4, 2, 6, 1, 5, 3, 7}));
  EXPECT_EQ(bit_reversal_permutation(1), (Permutation{0}));
  EXPECT_EQ(bit_reversal_permutation(2), (Permutation{0, 1}));
  EXPECT_EQ(bit_reversal_permutation(16),
            (Permutation{0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15}));
  try {
    bit_reversal_permutation(12);
    ADD_FAILURE();
  } catch (const PermutationError& e) {
    EXPECT_EQ(std::string(e.what()),
              "bit_reversal needs n to be a power of two, got 12 (nearest: 8 or 16)");
  }
}

TEST(Generators, Transpose) {
  EXPECT_EQ(transpose_permutation(9), (Permutation{0, 3, 6, 1, 4, 7, 2, 5, 8}));
  EXPECT_EQ(transpose_permutation(4), (Permutation{0, 2, 1, 3}));
  try {
    transpose_permutation(10);
    ADD_FAILURE();
  } catch (const PermutationError& e) {
    EXPECT_EQ(std::string(e.what()),
              "transpose needs n to be a perfect square, got 10 (nearest: 9 or 16)");
  }
}

TEST(Generators, Stride) {
  // i -> (i mod s) * (n/s) + i div s, n = 8, s = 2
  EXPECT_EQ(stride_permutation(8, 2), (Permutation{0, 4, 1, 5, 2, 6, 3, 7}));
  EXPECT_EQ(stride_permutation(6, 3), (Permutation{0, 2, 4, 1, 3, 5}));
  EXPECT_EQ(stride_permutation(6, 1), identity_permutation(6));
  EXPECT_EQ(stride_permutation(9, 3), transpose_permutation(9));
  EXPECT_THROW(stride_permutation(8, 3), PermutationError);
  EXPECT_THROW(stride_permutation(8, 0), PermutationError);
}

TEST(Generators, RandomIsSeededAndReproducible) {
  const Permutation a = random_permutation(1000, 42);
  EXPECT_EQ(a, random_permutation(1000, 42));
  EXPECT_NE(a, random_permutation(1000, 43));
  EXPECT_TRUE(is_permutation(a));
  // Pinned values: mt19937_64 is fully specified and the bounded draw is our own
  // (hw/support/random.hpp), so these are the same on every platform.
  EXPECT_EQ(random_permutation(8, 1), (Permutation{3, 4, 5, 7, 6, 2, 0, 1}));
  EXPECT_EQ(random_permutation(1, 5), (Permutation{0}));
  EXPECT_TRUE(random_permutation(0, 5).empty());
}

TEST(Generators, InverseAndApply) {
  const Permutation p = random_permutation(50, 3);
  const Permutation inv = inverse_permutation(p);
  for (std::uint64_t i = 0; i < p.size(); ++i) EXPECT_EQ(inv[p[i]], i);
  const std::vector<int> a = {10, 20, 30};
  const Permutation q = {2, 0, 1};
  EXPECT_EQ(apply_permutation<int>(q, a), (std::vector<int>{20, 30, 10}));
}

TEST(Validation, FirstRepeatedDestinationNamesBothIndices) {
  try {
    validate_permutation(Permutation{3, 1, 0, 1, 3});
    ADD_FAILURE();
  } catch (const PermutationError& e) {
    EXPECT_EQ(std::string(e.what()),
              "not a permutation: destination 1 is repeated (index 1 and index 3)");
    EXPECT_EQ(e.line(), 0u);
    EXPECT_TRUE(e.file().empty());
  }
}

TEST(Validation, OutOfRange) {
  try {
    validate_permutation(Permutation{0, 7, 1});
    ADD_FAILURE();
  } catch (const PermutationError& e) {
    EXPECT_EQ(std::string(e.what()), "index 1: destination 7 is out of range [0, 3)");
  }
}

TEST(Validation, SmallestMissingWhenNothingIsRepeated) {
  try {
    validate_permutation(Permutation{0, 3, 1}, 5);
    ADD_FAILURE();
  } catch (const PermutationError& e) {
    EXPECT_EQ(std::string(e.what()),
              "not a permutation of [0, 5): destination 2 is missing (3 values given)");
  }
  EXPECT_NO_THROW(validate_permutation(Permutation{2, 0, 1}));
  EXPECT_FALSE(is_permutation(Permutation{0, 0}));
}

std::filesystem::path write_file(const std::string& test, const std::string& text) {
  const auto path = test::scratch_dir(test) / "perm.txt";
  std::ofstream(path) << text;
  return path;
}

TEST(FromFile, CommentsAndBlankLines) {
  const auto path =
      write_file("FromFileOk", "# a permutation of 4\n\n2\n  0 # trailing comment\n3\n\n1\n");
  EXPECT_EQ(permutation_from_file(path), (Permutation{2, 0, 3, 1}));
  EXPECT_EQ(make_permutation(path.string(), 4), (Permutation{2, 0, 3, 1}));
  EXPECT_EQ(make_permutation("file:" + path.string(), 0), (Permutation{2, 0, 3, 1}));
}

TEST(FromFile, RepeatedNamesBothLines) {
  const auto path = write_file("FromFileRepeated", "# header\n1\n0\n\n1\n2\n");
  try {
    permutation_from_file(path);
    ADD_FAILURE();
  } catch (const PermutationError& e) {
    EXPECT_EQ(e.file(), path.string());
    EXPECT_EQ(e.line(), 5u);
    EXPECT_EQ(e.message(), "not a permutation: destination 1 is repeated (line 2 and line 5)");
    EXPECT_EQ(std::string(e.what()), path.string() + ":5: " + e.message());
  }
}

TEST(FromFile, MissingAgainstAGivenSize) {
  const auto path = write_file("FromFileMissing", "0\n1\n3\n");
  try {
    permutation_from_file(path, 4);
    ADD_FAILURE();
  } catch (const PermutationError& e) {
    EXPECT_EQ(e.file(), path.string());
    EXPECT_EQ(e.message(),
              "not a permutation of [0, 4): destination 2 is missing (3 values given)");
  }
  // Without a size, 3 values must be a permutation of [0, 3): 3 is out of range.
  try {
    permutation_from_file(path);
    ADD_FAILURE();
  } catch (const PermutationError& e) {
    EXPECT_EQ(e.line(), 3u);
    EXPECT_EQ(e.message(), "line 3: destination 3 is out of range [0, 3)");
  }
}

TEST(FromFile, BadNumbers) {
  struct Case {
    const char* text;
    std::size_t line;
    const char* message;
  };
  const Case cases[] = {
      {"0\nx1\n", 2, "'x1' is not a destination (a non-negative decimal integer)"},
      {"0\n-1\n", 2, "'-1' is not a destination (a non-negative decimal integer)"},
      {"0\n1.5\n", 2, "'1.5' is not a destination (a non-negative decimal integer)"},
      {"# c\n0 1\n", 2, "expected one destination per line, got '0 1'"},
      {"0\n99999999999999999999999\n", 2,
       "'99999999999999999999999' is not a destination (a non-negative decimal integer)"},
  };
  int k = 0;
  for (const Case& c : cases) {
    const auto path = write_file("FromFileBad" + std::to_string(k++), c.text);
    try {
      permutation_from_file(path);
      ADD_FAILURE() << c.text;
    } catch (const PermutationError& e) {
      EXPECT_EQ(e.line(), c.line) << c.text;
      EXPECT_EQ(e.message(), c.message);
    }
  }
  EXPECT_THROW(permutation_from_file("/nonexistent/perm.txt"), PermutationError);
}

TEST(FromFile, AnEndlessLineStopsAtTheLimitOfALine) {
  try {
    permutation_from_file("/dev/zero");
    ADD_FAILURE() << "no error";
  } catch (const PermutationError& e) {
    EXPECT_EQ(e.file(), "/dev/zero");
    EXPECT_EQ(e.line(), 1u);
    EXPECT_EQ(e.message(), "line 1 is longer than 16 MiB (the limit of a line)");
  }
}

// A keyword is read as a file name when it is none: a mistyped one names the keyword it
// resembles rather than "cannot open permutation file".
TEST(FromFile, AMistypedKeywordNamesTheKeyword) {
  for (const auto& [typo, keyword] : std::vector<std::pair<std::string, std::string>>{
           {"bitreversal", "bit_reversal"}, {"randon", "random"}, {"identiy", "identity"}}) {
    try {
      make_permutation(typo, 16);
      ADD_FAILURE() << typo;
    } catch (const PermutationError& e) {
      EXPECT_EQ(e.message(), "'" + typo + "' is no permutation (did you mean '" + keyword +
                                 "'?) and no file either");
    }
  }
  try {
    permutation_from_file("/nonexistent/perm.txt");
    ADD_FAILURE() << "no error";
  } catch (const PermutationError& e) {
    EXPECT_EQ(e.message(), "cannot open permutation file: No such file or directory");
  }
  // A file of that name is read as a file.
  const auto path = test::scratch_dir("MistypedKeyword") / "bitreversal";
  std::ofstream(path) << "1\n0\n";
  EXPECT_EQ(make_permutation(path.string(), 0), (Permutation{1, 0}));
}

TEST(Spec, Parsing) {
  using K = PermutationSpec::Kind;
  EXPECT_EQ(parse_permutation_spec("random").kind, K::random);
  EXPECT_EQ(parse_permutation_spec("random", 9).seed, 9u);
  EXPECT_EQ(parse_permutation_spec("random:77").seed, 77u);
  EXPECT_EQ(parse_permutation_spec("stride:4").stride, 4u);
  EXPECT_EQ(parse_permutation_spec("stride", 1, 8).stride, 8u);
  EXPECT_EQ(parse_permutation_spec("bit_reversal").kind, K::bit_reversal);
  EXPECT_EQ(parse_permutation_spec("transpose").kind, K::transpose);
  EXPECT_EQ(parse_permutation_spec("identity").kind, K::identity);
  EXPECT_EQ(parse_permutation_spec("perms/p.txt").kind, K::file);
  EXPECT_EQ(parse_permutation_spec("perms/p.txt").path, "perms/p.txt");
  EXPECT_EQ(parse_permutation_spec("file:random").path, "random");
  EXPECT_THROW(parse_permutation_spec("random:x"), PermutationError);
  EXPECT_THROW(parse_permutation_spec("stride"), PermutationError);  // no stride given
  EXPECT_THROW(parse_permutation_spec("identity:3"), PermutationError);
  EXPECT_THROW(parse_permutation_spec(""), PermutationError);

  EXPECT_EQ(make_permutation("bit_reversal", 8), bit_reversal_permutation(8));
  EXPECT_EQ(make_permutation("random:5", 100), random_permutation(100, 5));
  EXPECT_EQ(make_permutation("stride:2", 8), stride_permutation(8, 2));
}

TEST(Checksum, DependsOnEveryDestination) {
  EXPECT_EQ(permutation_checksum(Permutation{}), 0xcbf29ce484222325ull);
  EXPECT_NE(permutation_checksum(Permutation{0, 1}), permutation_checksum(Permutation{1, 0}));
  EXPECT_EQ(permutation_checksum(bit_reversal_permutation(64)),
            permutation_checksum(bit_reversal_permutation(64)));
}

}  // namespace
}  // namespace mmsim::planning
