// The word requests of one recorded memory instruction (docs/gpu_traces.md, "Words and
// widths"): lane i of the 32 accesses `bytes` bytes at byte address a_i, that is the words
// a_i / word_bytes .. (a_i + bytes - 1) / word_bytes, k_i of them. With k the most words of an
// active lane, the requests are laid out lane by lane, each lane's words in increasing order, in
// 32·k slots (slot i·k + j: lane i's word j, empty when j >= k_i or lane i is inactive), relocated
// (address_relocation.hpp), and cut into instructions of the machine's w lanes in that order: a
// 32-bit warp access on w = 32 stays one instruction, a 64-bit one becomes two (lanes 0-15, then
// 16-31, as a GPU serves it in half warps), a 128-bit one four; on w = 16 a 32-bit access
// becomes two (lanes 0-15, 16-31).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "hw/support/types.hpp"
#include "sw/gpu_traces/address_relocation.hpp"
#include "sw/gpu_traces/trace_format.hpp"
#include "sw/gpu_traces/warp_records.hpp"

namespace mmsim {

class LaneWords {
 public:
  // `word_shift`: log2 of the bytes of a word; `width`: the machine's w.
  LaneWords(unsigned word_shift, unsigned width);

  // Lays out the requests of the active lanes of `in`, each accessing `bytes` bytes, relocated
  // by `relocation` and moved by `offset` words; returns the instructions of w lanes they make.
  unsigned layout(const RecordedInstruction& in, unsigned bytes,
                  const AddressRelocation& relocation, std::uint64_t offset);
  // Instruction `i` of the last layout: w addresses, kInactive where a slot is empty.
  std::span<const Address> instruction(unsigned i) const {
    return std::span<const Address>(slots_).subspan(std::size_t{i} * width_, width_);
  }
  // Whether instruction `i` has an active slot.
  bool active(unsigned i) const { return active_[i] != 0; }
  // Words per lane (k) of the last layout.
  unsigned words_per_lane() const { return words_per_lane_; }
  // The first word of the last layout when it is one instruction whose w lanes access w
  // consecutive words (lane i word run() + i, a coalesced access): a LaneRun the MMU takes
  // whole. kInactive otherwise.
  Address run() const { return run_; }

  // The recorded words of one lane: first and last.
  std::uint64_t first_word(std::uint64_t address) const { return address >> shift_; }
  std::uint64_t last_word(std::uint64_t address, unsigned bytes) const {
    return (address + bytes - 1) >> shift_;
  }

 private:
  // The common cases, w = 32 and every lane active, each in one word, the words in one range:
  // lanes a whole number of words apart (one stride), or any addresses.
  bool layout_strided(const RecordedInstruction& in, unsigned bytes,
                      const AddressRelocation& relocation, std::uint64_t offset);
  bool layout_words(const std::array<std::uint64_t, kTraceLanes>& address, unsigned bytes,
                    const AddressRelocation& relocation, std::uint64_t offset);

  unsigned shift_;
  unsigned width_;
  unsigned words_per_lane_ = 1;
  Address run_ = kInactive;
  std::vector<Address> slots_;
  std::vector<unsigned char> active_;
};

}  // namespace mmsim
