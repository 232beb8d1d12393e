// A map from 64-bit keys to 32-bit numbers in one array (open addressing, linear probing): the
// mem_trace reader looks up a CTA and a warp for every line, among hundreds of thousands where
// CTAs are small, and std::unordered_map's node per key (an allocation each, a cache miss each)
// cost more than the rest of the line's bookkeeping.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace mmsim {

class FlatIndex {
 public:
  // The number of `key`, given `number` if it had none; and whether it was added.
  std::pair<std::uint32_t, bool> try_emplace(std::uint64_t key, std::uint32_t number) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    for (std::size_t at = slot_of(key);; at = (at + 1) & mask_) {
      Slot& slot = slots_[at];
      if (!slot.used) {
        slot = {key, number, true};
        ++size_;
        return {number, true};
      }
      if (slot.key == key) return {slot.number, false};
    }
  }
  std::size_t size() const { return size_; }
  // Forgets every key, keeping the array.
  void clear() {
    if (size_ == 0) return;
    for (Slot& slot : slots_) slot.used = false;
    size_ = 0;
  }
  // Host memory held.
  std::size_t bytes() const { return slots_.size() * sizeof(Slot); }

 private:
  struct Slot {
    std::uint64_t key = 0;
    std::uint32_t number = 0;
    bool used = false;
  };
  std::size_t slot_of(std::uint64_t key) const {
    return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ull) >> 32) & mask_;
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(std::max<std::size_t>(64, 2 * old.size()), Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& slot : old)
      if (slot.used) {
        std::size_t at = slot_of(slot.key);
        while (slots_[at].used) at = (at + 1) & mask_;
        slots_[at] = slot;
      }
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace mmsim
