// A small open-addressing hash set that is emptied in O(1) by bumping a generation stamp.
// The splitters use it to merge requests to the same address (or row) inside one dispatch.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace mmsim {

class StampedSet {
 public:
  // Room for up to `capacity` keys per generation.
  explicit StampedSet(std::size_t capacity) {
    const std::size_t slots = std::bit_ceil(std::max<std::size_t>(capacity * 2, 16));
    mask_ = slots - 1;
    keys_.resize(slots);
    values_.resize(slots);
    stamps_.assign(slots, 0);
  }

  void clear() {
    if (++generation_ == 0) {  // wrapped: forget every old stamp for real
      std::fill(stamps_.begin(), stamps_.end(), 0);
      generation_ = 1;
    }
  }

  // Inserts key with `value` unless present. Returns the value stored for key and whether the
  // key was new.
  std::pair<std::uint32_t, bool> insert(std::uint64_t key, std::uint32_t value) {
    std::size_t slot = hash(key) & mask_;
    while (stamps_[slot] == generation_) {
      if (keys_[slot] == key) return {values_[slot], false};
      slot = (slot + 1) & mask_;
    }
    stamps_[slot] = generation_;
    keys_[slot] = key;
    values_[slot] = value;
    return {value, true};
  }

 private:
  static std::uint64_t hash(std::uint64_t key) {
    key *= 0x9E3779B97F4A7C15ull;
    return key ^ (key >> 29);
  }

  std::size_t mask_ = 0;
  std::uint32_t generation_ = 1;
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> values_;
  std::vector<std::uint32_t> stamps_;
};

}  // namespace mmsim
