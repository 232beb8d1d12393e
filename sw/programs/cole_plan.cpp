#include "sw/programs/cole_plan.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace mmsim {
namespace {

// Where stage s puts level h's arrays in its arena (offsets from the arena's start).
struct Placement {
  Address list = 0, cross = 0, help = 0, ranks = 0;
};

}  // namespace

ColePlan::ColePlan(unsigned b) : b_(b), stages_(3 * b) {
  const std::uint64_t keys = std::uint64_t{1} << b;
  const unsigned last = 3 * b;
  // Offsets within the arena of each stage, and the arena's size.
  std::vector<std::vector<Placement>> placed(last + 1, std::vector<Placement>(b + 1));
  std::uint64_t arena = 0;
  for (unsigned s = 1; s <= last; ++s) {
    std::uint64_t used = 0;
    const auto take = [&used](std::uint64_t words) {
      const Address at = used;
      used += words;
      return at;
    };
    for (unsigned h = 1; h <= b; ++h) {
      const std::uint64_t nodes = keys >> h;
      const std::uint64_t size = this->size(h, s);
      const bool merges = s <= 3 * h && size > 0;
      if (!merges) continue;
      Placement& p = placed[s][h];
      if (s < 3 * h) p.list = take(nodes * size);
      p.cross = take(nodes * size);
      if (s + 1 <= 3 * h) {
        p.help = take(2 * nodes * size);
        p.ranks = take(2 * nodes * (this->size(h - 1, s) / divisor(h - 1, s + 1)));
      }
    }
    arena = std::max(arena, used);
  }
  const Address arenas[2] = {2 * keys, 2 * keys + arena};
  words_ = 2 * keys + 2 * arena;

  const auto list_at = [&](unsigned h, unsigned s) -> Address {
    if (s >= 3 * h) return complete_list(h);
    return arenas[s % 2] + placed[s][h].list;
  };
  for (unsigned s = 1; s <= last; ++s) {
    for (unsigned h = 1; h <= b; ++h) {
      ColeLevelStage l;
      l.level = h;
      l.nodes = keys >> h;
      l.size = size(h, s);
      l.merges = s <= 3 * h && l.size > 0;
      if (!l.merges) continue;
      l.prev_size = size(h, s - 1);
      l.half = l.size / 2;
      l.divisor = divisor(h - 1, s);
      l.child_prev_size = size(h - 1, s - 1);
      l.child_size = size(h - 1, s);
      l.child_complete_before = s - 1 >= 3 * (h - 1);
      l.prepares = s + 1 <= 3 * h;
      if (l.prepares) {
        l.next_divisor = divisor(h - 1, s + 1);
        l.next_half = l.child_size / l.next_divisor;
      }
      if (l.half != l.child_prev_size / l.divisor)
        throw std::logic_error("Cole plan: a merge of unequal samples");
      const auto power = [](std::uint64_t v) { return std::has_single_bit(v); };
      if (!power(l.size) || !power(l.child_prev_size) || !power(l.child_size) ||
          !power(l.divisor) || (l.prev_size > 0 && !power(l.prev_size)) ||
          (l.prepares && (!power(l.next_half) || !power(l.next_divisor))))
        throw std::logic_error("Cole plan: a size that is not a power of two");
      const Address arena_now = arenas[s % 2];
      const Address arena_before = arenas[(s - 1) % 2];
      l.list = list_at(h, s);
      l.child_prev_list = list_at(h - 1, s - 1);
      l.child_list = list_at(h - 1, s);
      l.cross = arena_now + placed[s][h].cross;
      l.help = arena_now + placed[s][h].help;
      l.ranks = arena_now + placed[s][h].ranks;
      l.prev_ranks = arena_before + placed[s - 1][h].ranks;
      l.prev_help = arena_before + placed[s - 1][h].help;
      l.child_prev_help = arena_before + placed[s - 1][h - 1].help;
      stages_[s - 1].push_back(l);
    }
  }
  for (unsigned h = 0; h <= b; ++h)
    if (size(h, 3 * h) != std::uint64_t{1} << h)
      throw std::logic_error("Cole plan: a node incomplete three stages after its children");
}

std::uint64_t ColePlan::size(unsigned h, unsigned s) const {
  if (h == 0) return 1;
  if (s == 0) return 0;
  if (s > 3 * h) return size(h, 3 * h);
  return 2 * (size(h - 1, s - 1) / divisor(h - 1, s));
}

unsigned ColePlan::divisor(unsigned h, unsigned s) const {
  const long since = static_cast<long>(s) - 3 * static_cast<long>(h);  // stages since complete
  if (since <= 1) return 4;
  return since == 2 ? 2 : 1;
}

Address ColePlan::complete_list(unsigned h) const { return (h % 2) << b_; }

Address ColePlan::root() const { return complete_list(b_); }

}  // namespace mmsim
