#include "support/reference_machine.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace mmsim::test {
namespace {

std::uint64_t bank_of(const RefConfig& c, Address a) {
  const std::uint64_t j = a / c.width;
  const std::uint64_t k = a % c.width;
  if (c.map == "random_shift") return (k + c.shifts.at(j)) % c.width;
  if (c.map == "skew") return (k + j) % c.width;
  if (c.map == "xor") return k ^ (j % c.width);
  return k;
}

// The stage groups of a dispatch, each request placed in its group by §10's table: with k ports,
// requests i*k .. i*k+k-1 of a bank, address groups i*k .. i*k+k-1, requests i*k*w .. of the
// BPRAM share stage group i. Returns the groups (the last one's number + 1).
std::uint64_t stages_of(const RefConfig& c, const std::vector<Address>& addresses) {
  std::vector<Address> distinct;  // in lane order
  std::set<Address> seen;
  for (const Address a : addresses)
    if (a != kInactive && seen.insert(a).second) distinct.push_back(a);
  const std::uint64_t k = c.ports;
  std::uint64_t last = 0;  // the highest stage group a request went to
  if (c.model == "bpram") {
    for (std::uint64_t n = 0; n < distinct.size(); ++n) last = std::max(last, n / (k * c.width));
  } else if (c.model == "umm") {
    std::set<Address> rows;
    for (const Address a : distinct) rows.insert(a / c.width);
    std::uint64_t n = 0;  // the rows in increasing order
    for (auto it = rows.begin(); it != rows.end(); ++it, ++n) last = std::max(last, n / k);
  } else {
    std::map<Address, std::uint64_t> per_bank;  // requests of each bank so far, by lane
    for (const Address a : distinct) last = std::max(last, per_bank[bank_of(c, a)]++ / k);
  }
  return distinct.empty() ? 0 : last + 1;
}

bool empty(const RefInstruction& in) {
  return std::all_of(in.addresses.begin(), in.addresses.end(),
                     [](Address a) { return a == kInactive; });
}

}  // namespace

RefResult run_reference(const RefConfig& c, const RefProgram& program) {
  const std::size_t n = program.warps.size();
  const std::size_t s = c.super_warp;
  const std::size_t units = n / s;
  const Cycle latency = c.model == "bpram" ? 1 : c.latency;
  RefResult result;
  result.memory.resize(c.memory_words);
  for (std::size_t a = 0; a < c.memory_words; ++a) result.memory[a] = static_cast<Word>(a);
  result.reads.resize(n);

  // Per warp: next instruction, and whether it waits at the barrier, has finished, or holds a
  // memory instruction for its unit's next dispatch.
  std::vector<std::size_t> pc(n, 0);
  std::vector<bool> at_barrier(n, false), done(n, false), pending(n, false);
  std::vector<std::uint64_t> issued(n, 0);  // instructions issued (memory and syncthreads)
  // Per unit: when it may go on, and whether its warps have run up to their next instruction.
  std::vector<Cycle> free_at(units, 0);
  std::vector<bool> advanced(units, false);
  Cycle last_event = 0;
  Cycle mmu_free = 0;
  std::size_t turn = 0;
  bool any = false;
  Cycle last_completion = 0;

  for (Cycle t = 0;; ++t) {
    // Units run their warps up to the next instruction; barriers and ends happen here.
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t u = 0; u < units; ++u) {
        if (advanced[u] || free_at[u] > t) continue;
        advanced[u] = changed = true;
        for (std::size_t v = u * s; v < (u + 1) * s; ++v) {
          if (done[v] || at_barrier[v] || pending[v]) continue;
          const auto& code = program.warps[v];
          while (pc[v] < code.size() && code[pc[v]].kind != RefInstruction::sync &&
                 empty(code[pc[v]]))
            ++pc[v];
          if (pc[v] == code.size()) {
            done[v] = true;
            last_event = std::max(last_event, free_at[u]);
          } else if (code[pc[v]].kind == RefInstruction::sync) {
            at_barrier[v] = true;
            ++pc[v];
            ++issued[v];
            last_event = std::max(last_event, free_at[u]);
          } else {
            pending[v] = true;
            ++issued[v];
          }
        }
      }
      std::size_t waiting = 0, running = 0;
      for (std::size_t v = 0; v < n; ++v) {
        waiting += at_barrier[v];
        running += !done[v];
      }
      if (waiting > 0 && waiting == running) {
        ++result.syncthreads;
        for (std::size_t v = 0; v < n; ++v)
          if (at_barrier[v]) {
            at_barrier[v] = false;
            free_at[v / s] = last_event + c.barrier_latency;
            advanced[v / s] = false;
          }
        changed = true;
      }
    }
    if (std::all_of(done.begin(), done.end(), [](bool d) { return d; })) break;
    if (t > 100000000) throw std::runtime_error("reference machine did not finish");
    if (mmu_free > t) continue;

    const auto holds = [&](std::size_t u, const std::vector<bool>& flag) {
      for (std::size_t v = u * s; v < (u + 1) * s; ++v)
        if (flag[v]) return true;
      return false;
    };
    // A unit is present unless each of its warps has finished or waits at the barrier.
    const auto present = [&](std::size_t u) {
      for (std::size_t v = u * s; v < (u + 1) * s; ++v)
        if (!done[v] && !at_barrier[v]) return true;
      return false;
    };
    const auto ready = [&](std::size_t u) { return free_at[u] <= t && holds(u, pending); };
    std::size_t chosen = units;
    if (c.dispatch == "round_robin") {
      for (std::size_t i = 0; i < units; ++i) {
        const std::size_t u = (turn + i) % units;
        if (!present(u)) continue;
        if (ready(u)) chosen = u;
        break;  // the first unit not skipped holds the turn
      }
    } else if (c.dispatch == "lowest_ready") {
      for (std::size_t u = 0; u < units && chosen == units; ++u)
        if (ready(u)) chosen = u;
    } else if (c.dispatch == "oldest_ready") {
      for (std::size_t u = 0; u < units; ++u)
        if (ready(u) && (chosen == units || free_at[u] < free_at[chosen])) chosen = u;
    } else if (c.dispatch == "adversarial") {
      // The laggard (fewest instructions issued, then the lowest number) goes only alone; the
      // others oldest first (then the lowest number).
      const auto progress = [&](std::size_t u) {
        std::uint64_t sum = 0;
        for (std::size_t v = u * s; v < (u + 1) * s; ++v) sum += issued[v];
        return sum;
      };
      std::size_t laggard = units;
      for (std::size_t u = 0; u < units; ++u)
        if (ready(u) && (laggard == units || progress(u) < progress(laggard))) laggard = u;
      for (std::size_t u = 0; u < units; ++u)
        if (ready(u) && u != laggard && (chosen == units || free_at[u] < free_at[chosen]))
          chosen = u;
      if (chosen == units) chosen = laggard;
    } else {
      throw std::runtime_error("reference: unknown policy " + c.dispatch);
    }
    if (chosen == units) continue;

    const std::size_t u = chosen;
    // The dispatch: every lane of the unit, warp after warp (inactive where a warp sends nothing).
    std::vector<Address> lanes;
    std::vector<Word> values;
    std::vector<std::size_t> lane_warp;
    std::vector<bool> lane_reads;
    for (std::size_t v = u * s; v < (u + 1) * s; ++v) {
      const RefInstruction* in = pending[v] ? &program.warps[v][pc[v]] : nullptr;
      for (unsigned lane = 0; lane < c.width; ++lane) {
        lanes.push_back(in ? in->addresses[lane] : kInactive);
        values.push_back(in && in->kind == RefInstruction::write ? in->values[lane] : 0);
        lane_warp.push_back(v);
        lane_reads.push_back(in && in->kind == RefInstruction::read);
      }
      if (in) {
        ++pc[v];
        pending[v] = false;
      }
    }
    const std::uint64_t k = stages_of(c, lanes);
    // All groups of a dispatch complete before any later dispatch's: apply it now, reads
    // first (they see the memory from before the dispatch), then writes in lane order.
    for (std::size_t i = 0; i < lanes.size(); ++i)
      if (lanes[i] != kInactive && lane_reads[i])
        result.reads[lane_warp[i]].push_back(result.memory.at(lanes[i]));
    for (std::size_t m = 0; m < lanes.size(); ++m) {
      const std::size_t i = c.lowest_lane_wins ? lanes.size() - 1 - m : m;
      if (lanes[i] != kInactive && !lane_reads[i]) result.memory.at(lanes[i]) = values[i];
    }
    ++result.dispatches;
    result.stages += k;
    mmu_free = t + k;
    const Cycle completion = t + k + latency - 2;
    free_at[u] = completion + 1 + c.compute_latency;
    advanced[u] = false;
    last_completion = std::max(last_completion, completion);
    any = true;
    turn = (u + 1) % units;
  }
  result.cycles = any ? last_completion + 1 : 0;
  return result;
}

}  // namespace mmsim::test
