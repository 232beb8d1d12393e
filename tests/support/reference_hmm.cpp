#include "support/reference_hmm.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace mmsim::test {
namespace {

bool empty(const RefInstruction& in) {
  return std::all_of(in.addresses.begin(), in.addresses.end(),
                     [](Address a) { return a == kInactive; });
}

bool is_barrier(const RefInstruction& in) {
  return in.kind == RefInstruction::sync || in.kind == RefInstruction::grid_sync;
}

}  // namespace

RefHmmResult run_reference_hmm(const RefHmmConfig& c, const RefProgram& program) {
  const std::size_t n = program.warps.size();
  const std::size_t per_block = n / c.blocks;
  const std::size_t memories = 1 + c.blocks;
  RefHmmResult result;
  result.memories.resize(memories);
  for (std::size_t m = 0; m < memories; ++m) {
    result.memories[m].resize(m == 0 ? c.global_words : c.shared_words);
    for (std::size_t a = 0; a < result.memories[m].size(); ++a)
      result.memories[m][a] = static_cast<Word>(a);
  }
  result.dispatches.assign(memories, 0);
  result.stages.assign(memories, 0);
  result.block_syncthreads.assign(c.blocks, 0);
  result.reads.resize(n);

  const auto block_of = [&](std::size_t v) { return v / per_block; };
  const auto memory_of = [&](std::size_t v, const RefInstruction& in) {
    return in.space == Space::shared ? 1 + block_of(v) : 0;
  };
  // Stage groups by §10: address groups i*k .. i*k+k-1 (in increasing order) share stage group
  // i of the global memory, requests i*k .. i*k+k-1 of a bank (by lane) that of a shared one.
  const auto stages_of = [&](std::size_t m, const std::vector<Address>& addresses) {
    std::vector<Address> distinct;  // in lane order
    std::set<Address> seen;
    for (const Address a : addresses)
      if (a != kInactive && seen.insert(a).second) distinct.push_back(a);
    std::uint64_t last = 0;  // the highest stage group a request went to
    if (m == 0) {            // the UMM: address groups of w_g words
      std::set<Address> rows;
      for (const Address a : distinct) rows.insert(a / c.global_width);
      std::uint64_t n = 0;
      for (auto it = rows.begin(); it != rows.end(); ++it, ++n) last = std::max(last, n / c.ports);
      return rows.empty() ? 0 : last + 1;
    }
    if (c.shared_pram) return std::uint64_t{1};
    std::map<Address, std::uint64_t> per_bank;
    for (const Address a : distinct)
      last = std::max(last, per_bank[a % c.width]++ / c.shared_ports);
    return distinct.empty() ? 0 : last + 1;
  };

  std::vector<std::size_t> pc(n, 0);
  std::vector<bool> at_sync(n, false), at_grid(n, false), done(n, false), pending(n, false);
  std::vector<std::uint64_t> issued(n, 0);
  std::vector<Cycle> free_at(n, 0);
  std::vector<bool> advanced(n, false);
  std::vector<Cycle> block_event(c.blocks, 0);
  Cycle grid_event = 0;
  std::vector<Cycle> mmu_free(memories, 0);
  std::vector<std::size_t> turn(memories, 0);
  for (std::size_t b = 0; b < c.blocks; ++b) turn[1 + b] = b * per_block;
  bool any = false;
  Cycle last_completion = 0;

  for (Cycle t = 0;; ++t) {
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t v = 0; v < n; ++v) {
        if (advanced[v] || free_at[v] > t) continue;
        advanced[v] = changed = true;
        if (done[v] || at_sync[v] || at_grid[v] || pending[v]) continue;
        const auto& code = program.warps[v];
        while (pc[v] < code.size() && !is_barrier(code[pc[v]]) && empty(code[pc[v]])) ++pc[v];
        const Cycle now = free_at[v];
        if (pc[v] == code.size()) {
          done[v] = true;
        } else if (is_barrier(code[pc[v]])) {
          (code[pc[v]].kind == RefInstruction::sync ? at_sync : at_grid)[v] = true;
          ++pc[v];
          ++issued[v];
        } else {
          pending[v] = true;
          ++issued[v];
          continue;
        }
        block_event[block_of(v)] = std::max(block_event[block_of(v)], now);
        grid_event = std::max(grid_event, now);
      }
      // Block barriers: every unfinished warp of the block at a barrier, one at syncthreads.
      for (std::size_t b = 0; b < c.blocks; ++b) {
        std::size_t syncing = 0, waiting = 0, running = 0;
        for (std::size_t v = b * per_block; v < (b + 1) * per_block; ++v) {
          syncing += at_sync[v];
          waiting += at_sync[v] || at_grid[v];
          running += !done[v];
        }
        if (syncing == 0 || waiting != running) continue;
        ++result.block_syncthreads[b];
        for (std::size_t v = b * per_block; v < (b + 1) * per_block; ++v)
          if (at_sync[v]) {
            at_sync[v] = false;
            free_at[v] = block_event[b] + c.barrier_latency;
            advanced[v] = false;
          }
        changed = true;
      }
      std::size_t gridding = 0, running = 0;
      for (std::size_t v = 0; v < n; ++v) {
        gridding += at_grid[v];
        running += !done[v];
      }
      if (gridding > 0 && gridding == running) {
        ++result.grid_syncs;
        for (std::size_t v = 0; v < n; ++v)
          if (at_grid[v]) {
            at_grid[v] = false;
            free_at[v] = grid_event + c.kernel_latency;
            advanced[v] = false;
          }
        changed = true;
      }
    }
    if (std::all_of(done.begin(), done.end(), [](bool d) { return d; })) break;
    if (t > 100000000) throw std::runtime_error("reference hmm did not finish");

    const auto present = [&](std::size_t v) { return !done[v] && !at_sync[v] && !at_grid[v]; };
    const auto ready = [&](std::size_t v) { return free_at[v] <= t && pending[v]; };
    const auto target = [&](std::size_t v) { return memory_of(v, program.warps[v][pc[v]]); };
    // Every memory chooses from the state at the start of t; the choices act afterwards.
    std::vector<std::size_t> chosen_by(memories, n);
    for (std::size_t m = 0; m < memories; ++m) {
      if (mmu_free[m] > t) continue;
      const std::size_t first = m == 0 ? 0 : (m - 1) * per_block;
      const std::size_t count = m == 0 ? n : per_block;
      const auto ready_here = [&](std::size_t v) { return ready(v) && target(v) == m; };
      std::size_t chosen = n;
      if (c.dispatch == "round_robin") {
        for (std::size_t i = 0; i < count; ++i) {
          const std::size_t v = first + (turn[m] - first + i) % count;
          if (!present(v)) continue;
          if (ready_here(v)) chosen = v;
          if (ready(v) && !ready_here(v)) continue;  // its turn is at another memory
          break;                                     // the first unit not skipped holds the turn
        }
      } else if (c.dispatch == "lowest_ready") {
        for (std::size_t v = first; v < first + count && chosen == n; ++v)
          if (ready_here(v)) chosen = v;
      } else if (c.dispatch == "oldest_ready") {
        for (std::size_t v = first; v < first + count; ++v)
          if (ready_here(v) && (chosen == n || free_at[v] < free_at[chosen])) chosen = v;
      } else if (c.dispatch == "adversarial") {
        std::size_t laggard = n;
        for (std::size_t v = first; v < first + count; ++v)
          if (ready_here(v) && (laggard == n || issued[v] < issued[laggard])) laggard = v;
        for (std::size_t v = first; v < first + count; ++v)
          if (ready_here(v) && v != laggard && (chosen == n || free_at[v] < free_at[chosen]))
            chosen = v;
        if (chosen == n) chosen = laggard;
      } else {
        throw std::runtime_error("reference hmm: unknown policy " + c.dispatch);
      }
      chosen_by[m] = chosen;
    }
    for (std::size_t m = 0; m < memories; ++m) {
      if (chosen_by[m] == n) continue;
      const std::size_t v = chosen_by[m];
      const std::size_t first = m == 0 ? 0 : (m - 1) * per_block;
      const std::size_t count = m == 0 ? n : per_block;
      const RefInstruction& in = program.warps[v][pc[v]];
      ++pc[v];
      pending[v] = false;
      std::vector<Word>& memory = result.memories[m];
      const std::uint64_t k = stages_of(m, in.addresses);
      if (in.kind == RefInstruction::read) {
        for (const Address a : in.addresses)
          if (a != kInactive) result.reads[v].push_back(memory.at(a));
      } else {
        for (unsigned i = 0; i < c.width; ++i)
          if (in.addresses[i] != kInactive) memory.at(in.addresses[i]) = in.values[i];
      }
      ++result.dispatches[m];
      result.stages[m] += k;
      mmu_free[m] = t + k;
      const Cycle latency = m == 0 ? c.latency : c.shared_latency;
      const Cycle completion = t + k + latency - 2;
      free_at[v] = completion + 1;
      advanced[v] = false;
      last_completion = std::max(last_completion, completion);
      any = true;
      turn[m] = v + 1 == first + count ? first : v + 1;
    }
  }
  result.cycles = any ? last_completion + 1 : 0;
  return result;
}

}  // namespace mmsim::test
