#include "sw/programs/sort_input.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <string>

#include "hw/support/random.hpp"
#include "sw/program/input_values.hpp"

namespace mmsim {
namespace {

Word draw_key(Random& random, unsigned key_bits) {
  if (key_bits == 64) return static_cast<Word>(random());
  const Word half = Word{1} << (key_bits - 1);
  return static_cast<Word>(uniform_below(random, std::uint64_t{1} << key_bits)) - half;
}

std::vector<Word> generated_keys(std::uint64_t n, std::uint64_t seed, unsigned key_bits,
                                 const std::string& input) {
  Random random(seed);
  std::vector<Word> keys(n);
  if (input == "equal") {
    std::fill(keys.begin(), keys.end(), draw_key(random, key_bits));
  } else if (input == "few") {
    std::vector<Word> distinct(kFewDistinctKeys);
    for (Word& key : distinct) key = draw_key(random, key_bits);
    for (Word& key : keys) key = distinct[uniform_below(random, distinct.size())];
  } else {
    for (Word& key : keys) key = draw_key(random, key_bits);
    if (input == "sorted") std::sort(keys.begin(), keys.end());
    if (input == "reversed") std::sort(keys.begin(), keys.end(), std::greater<>());
  }
  return keys;
}

// The keys of key_bits bits: signed, from -2^(key_bits-1) to 2^(key_bits-1) - 1.
Word max_key(unsigned key_bits) {
  return key_bits == 64 ? std::numeric_limits<Word>::max() : (Word{1} << (key_bits - 1)) - 1;
}
Word min_key(unsigned key_bits) { return -max_key(key_bits) - 1; }

}  // namespace

std::vector<ParamSpec> sort_input_params() {
  return {
      {"n", ParamType::integer, "number of keys (0 with file: as many as the file holds)", "0"},
      {"seed", ParamType::integer, "seed of the generator of the keys (without file)", "1"},
      {"file", ParamType::string, "text file of keys, instead of generated ones", "\"\""},
      {"input", ParamType::string,
       "generated keys: random | sorted | reversed | equal | few (8 distinct keys)", "random"},
      {"key_bits", ParamType::integer, "keys are signed integers of 32 or 64 bits", "32"},
  };
}

SortKeys::SortKeys(const ParamValues& params, const std::filesystem::path& base_dir) {
  const std::int64_t key_bits = params.integer("key_bits");
  if (key_bits != 32 && key_bits != 64)
    throw ParamError("key_bits", "expected 32 or 64, got " + std::to_string(key_bits));
  key_bits_ = static_cast<unsigned>(key_bits);
  input_ = params.string("input");
  if (input_ != "random" && input_ != "sorted" && input_ != "reversed" && input_ != "equal" &&
      input_ != "few")
    throw ParamError("input",
                     "expected random, sorted, reversed, equal or few, got '" + input_ + "'");
  const std::int64_t n = params.integer("n");
  if (n < 0) throw ParamError("n", "n must be at least 1 (got " + std::to_string(n) + ")");
  const std::string& file = params.string("file");
  if (!file.empty()) {
    if (input_ != "random")
      throw ParamError("input", "input: " + input_ +
                                    " arranges generated keys; the keys of params.file are "
                                    "sorted as the file gives them");
    file_ = base_dir / file;
    for_each_input_value(file_, min_key(key_bits_), max_key(key_bits_), [&](Word) { ++count_; });
    if (count_ == 0) throw ParamError("file", file + " holds no keys");
    if (n != 0 && static_cast<std::uint64_t>(n) != count_)
      throw ParamError("n", "n = " + std::to_string(n) + " but " + file + " holds " +
                                std::to_string(count_) + " keys");
    return;
  }
  if (n == 0) throw ParamError("n", "give n (the number of keys) or params.file");
  if (static_cast<std::uint64_t>(n) > kMaxMemoryWords / 4)
    throw ParamError("n", "n = " + std::to_string(n) + " exceeds the limit of 2^30 keys");
  count_ = static_cast<std::uint64_t>(n);
  seed_ = static_cast<std::uint64_t>(params.integer("seed"));
}

std::vector<Word> SortKeys::make() const {
  if (file_.empty()) return generated_keys(count_, seed_, key_bits_, input_);
  return read_counted_input_file(file_, min_key(key_bits_), max_key(key_bits_), count_);
}

std::vector<Word> sort_keys(const ParamValues& params, const std::filesystem::path& base_dir) {
  return SortKeys(params, base_dir).make();
}

void verify_sorted(Verification& verification, const Mmu& memory, Address base,
                   const std::vector<Word>& sorted) {
  for (std::uint64_t i = 0; i < sorted.size(); ++i)
    verification.expect_equal(memory.peek(base + i), sorted[i], [&] {
      return "position " + std::to_string(i) + " of the sorted output (m[" +
             std::to_string(base + i) + "])";
    });
}

}  // namespace mmsim
