#include "sw/programs/block_steps.hpp"

#include <cstring>

#include "hw/support/four_lanes.hpp"
#include "hw/support/vector_isa.hpp"
#include "sw/program/word_arithmetic.hpp"

namespace mmsim {
namespace {

// Warps of w lanes that hold some thread of [from, to).
std::uint64_t warps_spanning(std::uint64_t from, std::uint64_t to, unsigned w) {
  return from < to ? (to + w - 1) / w - from / w : 0;
}

}  // namespace

// The per-lane loops live outside the coroutines: GCC optimises (vectorises) them only there.
bool lanes_in_range(std::span<Address> addresses, std::uint64_t first, std::uint64_t from,
                    std::uint64_t to, Address base) {
  // Most calls find every lane in range (the rounds of a grid-stride loop but the last): one
  // run of addresses, written as a vector loop.
  const std::uint64_t last = first + (addresses.size() - 1);
  if (!addresses.empty() && last >= first && first >= from && last < to) {
    with_vector_isa([a = addresses.data(), n = addresses.size(), start = base + first] {
      for (std::size_t lane = 0; lane < n; ++lane) a[lane] = start + lane;
    });
    return true;
  }
  bool any = false;
  for (std::size_t lane = 0; lane < addresses.size(); ++lane) {
    const std::uint64_t t = first + lane;
    const bool active = t >= from && t < to;
    addresses[lane] = active ? base + t : kInactive;
    any |= active;
  }
  return any;
}

void add_read(std::span<Word> sums, std::span<const Word> got, std::span<const Address> addresses) {
  // An inactive lane adds 0: selected four lanes at a time, not branched on.
  with_vector_isa([s = sums.data(), g = got.data(), a = addresses.data(), n = sums.size()] {
    std::size_t lane = 0;
    for (; lane + 4 <= n; lane += 4) {
      FourAddresses at;
      FourAddresses sum;
      FourAddresses value;
      std::memcpy(&at, a + lane, sizeof at);
      std::memcpy(&sum, s + lane, sizeof sum);
      std::memcpy(&value, g + lane, sizeof value);
      sum += value & static_cast<FourAddresses>(at != kInactive);  // all ones where active
      std::memcpy(s + lane, &sum, sizeof sum);
    }
    for (; lane < n; ++lane)
      if (a[lane] != kInactive) s[lane] = wrapping_add(s[lane], g[lane]);
  });
}

void add_all(std::span<Word> sums, std::span<const Word> got) {
  // Four lanes at a time, as add_read (a plain loop gets an aliasing check and a scalar tail).
  with_vector_isa([s = sums.data(), g = got.data(), n = sums.size()] {
    std::size_t lane = 0;
    for (; lane + 4 <= n; lane += 4) {
      FourAddresses sum;  // unsigned: the addition wraps
      FourAddresses value;
      std::memcpy(&sum, s + lane, sizeof sum);
      std::memcpy(&value, g + lane, sizeof value);
      sum += value;
      std::memcpy(s + lane, &sum, sizeof sum);
    }
    for (; lane < n; ++lane) s[lane] = wrapping_add(s[lane], g[lane]);
  });
}

Task copy_to_shared(Warp& warp, BlockLanes& lanes, Address from, Address to, std::uint64_t count) {
  const std::uint64_t first = warp.block_thread(0);
  for (std::uint64_t done = 0; done < count; done += warp.block_threads()) {
    if (!lanes_in_range(lanes.addresses, first, 0, count - done, from + done)) co_return;
    co_await warp.read(lanes.addresses);  // into the lanes' registers
    lanes_in_range(lanes.addresses, first, 0, count - done, to + done);
    co_await warp.write(lanes.addresses, Space::shared);  // the registers
  }
}

Task block_tree(Warp& warp, BlockLanes& lanes, std::span<Word> values, Address scratch,
                std::uint64_t size, std::uint64_t keep) {
  const std::uint64_t first = warp.block_thread(0);
  for (std::uint64_t z = size; z > keep;) {
    const std::uint64_t h = (z + 1) / 2;
    if (lanes_in_range(lanes.addresses, first, h, z, scratch))
      co_await warp.write(lanes.addresses, values, Space::shared);
    // Thread t reads what thread t + h wrote: another warp's write once z exceeds w.
    if (z > warp.width()) co_await warp.sync();
    if (lanes_in_range(lanes.addresses, first, 0, z - h, scratch + h))
      add_read(values, co_await warp.read(lanes.addresses, Space::shared), lanes.addresses);
    z = h;
  }
}

std::uint64_t block_tree_syncs(std::uint64_t size, std::uint64_t keep, unsigned w) {
  std::uint64_t syncs = 0;
  for (std::uint64_t z = size; z > keep; z = (z + 1) / 2) syncs += z > w ? 1 : 0;
  return syncs;
}

std::uint64_t block_tree_dispatches(std::uint64_t size, std::uint64_t keep, unsigned w) {
  std::uint64_t dispatches = 0;
  for (std::uint64_t z = size; z > keep; z = (z + 1) / 2) {
    const std::uint64_t h = (z + 1) / 2;
    dispatches += warps_spanning(h, z, w) + warps_spanning(0, z - h, w);
  }
  return dispatches;
}

}  // namespace mmsim
