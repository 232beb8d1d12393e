#include "support/reference_machine.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace mmsim::test {
namespace {

std::uint64_t stages_of(const RefConfig& c, const std::vector<Address>& addresses) {
  std::set<Address> distinct;
  for (const Address a : addresses)
    if (a != kInactive) distinct.insert(a);
  if (c.model == "bpram") return (distinct.size() + c.width - 1) / c.width;
  if (c.model == "umm") {
    std::set<Address> rows;
    for (const Address a : distinct) rows.insert(a / c.width);
    return rows.size();
  }
  std::map<Address, std::uint64_t> per_bank;
  std::uint64_t k = 0;
  for (const Address a : distinct) k = std::max(k, ++per_bank[a % c.width]);
  return k;
}

bool empty(const RefInstruction& in) {
  return std::all_of(in.addresses.begin(), in.addresses.end(),
                     [](Address a) { return a == kInactive; });
}

}  // namespace

RefResult run_reference(const RefConfig& c, const RefProgram& program) {
  const std::size_t n = program.warps.size();
  const Cycle latency = c.model == "bpram" ? 1 : c.latency;
  RefResult result;
  result.memory.resize(c.memory_words);
  for (std::size_t a = 0; a < c.memory_words; ++a) result.memory[a] = static_cast<Word>(a);
  result.reads.resize(n);

  std::vector<std::size_t> pc(n, 0);
  std::vector<std::uint64_t> issued(n, 0);  // memory instructions sent and syncthreads reached
  std::vector<Cycle> free_at(n, 0);  // the warp may issue its next instruction from here
  std::vector<bool> at_barrier(n, false), done(n, false);
  std::vector<Word> registers;
  Cycle last_event = 0;
  Cycle mmu_free = 0;
  std::size_t turn = 0;
  bool any = false;
  Cycle last_completion = 0;

  for (Cycle t = 0;; ++t) {
    // Warps run up to their next memory instruction; barriers and ends happen here.
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t u = 0; u < n; ++u) {
        if (done[u] || at_barrier[u] || free_at[u] > t) continue;
        const auto& code = program.warps[u];
        while (pc[u] < code.size() && code[pc[u]].kind != RefInstruction::sync && empty(code[pc[u]]))
          ++pc[u];
        if (pc[u] == code.size()) {
          done[u] = true;
          last_event = std::max(last_event, free_at[u]);
          changed = true;
        } else if (code[pc[u]].kind == RefInstruction::sync) {
          at_barrier[u] = true;
          ++pc[u];
          ++issued[u];
          last_event = std::max(last_event, free_at[u]);
          changed = true;
        }
      }
      std::size_t waiting = 0, running = 0;
      for (std::size_t u = 0; u < n; ++u) {
        waiting += at_barrier[u];
        running += !done[u];
      }
      if (waiting > 0 && waiting == running) {
        ++result.syncthreads;
        for (std::size_t u = 0; u < n; ++u)
          if (at_barrier[u]) {
            at_barrier[u] = false;
            free_at[u] = last_event + c.barrier_latency;
          }
        changed = true;
      }
    }
    if (std::all_of(done.begin(), done.end(), [](bool d) { return d; })) break;
    if (t > 100000000) throw std::runtime_error("reference machine did not finish");
    if (mmu_free > t) continue;

    const auto ready = [&](std::size_t u) { return !done[u] && !at_barrier[u] && free_at[u] <= t; };
    std::size_t chosen = n;
    if (c.dispatch == "round_robin") {
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t u = (turn + i) % n;
        if (done[u] || at_barrier[u]) continue;
        if (ready(u)) chosen = u;
        break;  // the first unit not skipped holds the turn
      }
    } else if (c.dispatch == "lowest_ready") {
      for (std::size_t u = 0; u < n && chosen == n; ++u)
        if (ready(u)) chosen = u;
    } else if (c.dispatch == "oldest_ready") {
      for (std::size_t u = 0; u < n; ++u)
        if (ready(u) && (chosen == n || free_at[u] < free_at[chosen])) chosen = u;
    } else if (c.dispatch == "adversarial") {
      // The laggard (fewest instructions issued, then the lowest number) goes only alone; the
      // others oldest first (then the lowest number).
      std::size_t laggard = n;
      for (std::size_t u = 0; u < n; ++u)
        if (ready(u) && (laggard == n || issued[u] < issued[laggard])) laggard = u;
      for (std::size_t u = 0; u < n; ++u)
        if (ready(u) && u != laggard && (chosen == n || free_at[u] < free_at[chosen])) chosen = u;
      if (chosen == n) chosen = laggard;
    } else {
      throw std::runtime_error("reference: unknown policy " + c.dispatch);
    }
    if (chosen == n) continue;

    const std::size_t u = chosen;
    const RefInstruction& in = program.warps[u][pc[u]++];
    ++issued[u];
    const std::uint64_t k = stages_of(c, in.addresses);
    // All groups of a dispatch complete before any later dispatch's: apply it now, reads first.
    if (in.kind == RefInstruction::read) {
      for (const Address a : in.addresses)
        if (a != kInactive) result.reads[u].push_back(result.memory.at(a));
    } else {
      for (std::size_t i = 0; i < in.addresses.size(); ++i) {
        const std::size_t lane = c.lowest_lane_wins ? in.addresses.size() - 1 - i : i;
        if (in.addresses[lane] != kInactive) result.memory.at(in.addresses[lane]) = in.values[lane];
      }
    }
    ++result.dispatches;
    result.stages += k;
    mmu_free = t + k;
    const Cycle completion = t + k + latency - 2;
    free_at[u] = completion + 1 + c.compute_latency;
    last_completion = std::max(last_completion, completion);
    any = true;
    turn = (u + 1) % n;
  }
  result.cycles = any ? last_completion + 1 : 0;
  return result;
}

}  // namespace mmsim::test
