#include "hw/mmu/mmu.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include "hw/pe/warp_unit.hpp"
#include "hw/support/consecutive_lanes.hpp"
#include "hw/support/errors.hpp"
#include "hw/support/vector_isa.hpp"

namespace mmsim {

Mmu::Mmu(const sc_core::sc_module_name& name, const Config& config, unsigned latency,
         std::unique_ptr<AddressMap> map, std::unique_ptr<StageSplitter> splitter)
    : sc_core::sc_module(name),
      config_(config),
      map_(std::move(map)),
      pipeline_("pipeline", latency),
      cells_(config.values ? (config.words + config.width - 1) / config.width * config.width : 0),
      identity_(map_->identity()) {
  if (const auto* shift = dynamic_cast<const RandomShiftMap*>(map_.get()))
    rsu_ = std::make_unique<RandomShiftUnit>("random_shift_unit", *shift);
  const std::string splitter_name = splitter->name();
  splitter_unit_ = std::make_unique<SplitterUnit>(splitter_name.c_str(), std::move(splitter));
  splitter_ = &splitter_unit_->logic();
  const std::uint64_t rows = (config.words + config.width - 1) / config.width;
  for (unsigned b = 0; b < config.width; ++b)
    banks_.push_back(std::make_unique<MemoryBank>(("bank_" + std::to_string(b)).c_str(),
                                                  cells_.data(), b, config.width, rows));
  for (const auto& bank : banks_)
    for (unsigned j = 1; j < splitter_->ports(); ++j)
      ports_.emplace_back(std::string(bank->name()) + ".port_" + std::to_string(j),
                          rows * config.width);
}

void Mmu::reject(WarpUnit& unit, std::size_t lane, Address a) const {
  const unsigned width = unit.warps().front().width();  // lanes per warp
  const Warp& warp = unit.warps()[lane / width];
  throw SimulationError("warp " + std::to_string(warp.index()) + " lane " +
                        std::to_string(lane % width) + " (instruction " +
                        std::to_string(warp.pc()) + ") addressed m[" + std::to_string(a) +
                        "] outside memory " + std::to_string(config_.id) + " of " +
                        std::to_string(config_.words) + " words");
}

MmuPipeline::InFlight& Mmu::accept(WarpUnit& unit, Cycle t, unsigned k, unsigned active) {
  MmuPipeline::InFlight& record = pipeline_.push(&unit, t, k);
  const Cycle completion = pipeline_.completion(record);
  const Cycle waited = t - unit.ready_since();
  const unsigned warps = unit.dispatched(t, completion + 1 - t);
  counters_.count(k, active, t, completion, warps, waited);
  return record;
}

Mmu::Accepted Mmu::dispatch(WarpUnit& unit, Cycle t) {
  // A run in range, through an identity map: taken whole, from its first address (a waveform
  // that shows each request's slot takes the lane-by-lane path below).
  if (const Address first = unit.dispatch_run(); first != kInactive && identity_ &&
                                                 !config_.keep_groups &&
                                                 first + (unit.lanes() - 1) < config_.words) {
    unit.set_dispatch_run();
    const unsigned k = splitter_->count_consecutive_stages(first, unit.lanes());
    const MmuPipeline::InFlight& record = accept(unit, t, k, unit.lanes());
    return {k, unit.lanes(), pipeline_.completion(record)};
  }
  const std::span<const Address> addresses = unit.dispatch_addresses();
  // A coalesced access (one run of consecutive addresses, as most are) is in range when its
  // last lane is. Otherwise one vectorised pass counts the lanes at or beyond
  // `words`: kInactive lies beyond every memory, so when no lane is beyond, every lane is active
  // and in range; else the inactive lanes are counted, and one more lane beyond `words` than them
  // is an address outside the memory.
  const std::uint64_t words = config_.words;
  const bool consecutive = consecutive_lanes(addresses);
  const std::uint64_t beyond =
      consecutive ? std::uint64_t{addresses.back() >= words}
                  : with_vector_isa([&] {
                      std::uint64_t n = 0;
#pragma GCC unroll 2
                      for (const Address a : addresses) n += a >= words;
                      return n;
                    });
  auto active = static_cast<unsigned>(addresses.size());
  if (beyond != 0) {
    const std::uint64_t inactive = with_vector_isa([&] { return inactive_lanes(addresses); });
    if (beyond != inactive)
      for (std::size_t i = 0; i < addresses.size(); ++i)
        if (addresses[i] != kInactive && addresses[i] >= words) reject(unit, i, addresses[i]);
    active -= static_cast<unsigned>(inactive);
  }
  std::span<const Address> cells = addresses;
  if (!identity_) {
    map_->locate(addresses, unit.cell_buffer());
    cells = unit.cell_buffer();
  }
  // A coalesced access in range: its stages and counts in closed form, its data moved as one
  // block (with an identity map, its cells are consecutive too).
  const bool coalesced = consecutive && beyond == 0 && identity_;
  const LaneLayout layout = active != cells.size()         ? LaneLayout::some_inactive
                            : coalesced && unit.one_warp() ? LaneLayout::consecutive
                                                           : LaneLayout::all_active;
  unit.set_dispatch_cells(cells, layout);
  const unsigned k = coalesced ? splitter_->count_consecutive_stages(
                                     cells.front(), static_cast<unsigned>(cells.size()))
                               : splitter_->count_stages(cells, active);
  MmuPipeline::InFlight& record = accept(unit, t, k, active);
  const Cycle completion = pipeline_.completion(record);
  if (config_.keep_groups) keep_slots(record, cells, addresses);
  return {k, active, completion};
}

void Mmu::keep_slots(MmuPipeline::InFlight& record, std::span<const Address> cells,
                     std::span<const Address> addresses) {
  groups_.resize(cells.size());
  slot_ports_.resize(cells.size());
  splitter_->assign_slots(cells, groups_, slot_ports_);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == kInactive) continue;
    const MmuPipeline::Slot slot{groups_[i], slot_ports_[i], splitter_->bank(cells[i]),
                                 addresses[i]};
    const bool merged = std::any_of(record.slots.begin(), record.slots.end(), [&](const auto& s) {
      return s.group == slot.group && s.bank == slot.bank && s.address == slot.address;
    });
    if (!merged) record.slots.push_back(slot);
  }
}

void Mmu::complete_until(Cycle t) {
  while (!pipeline_.empty() && pipeline_.completion(pipeline_.front()) <= t) {
    perform(pipeline_.front());
    pipeline_.pop();
  }
}

void Mmu::perform(const MmuPipeline::InFlight& dispatch) {
  WarpUnit& unit = *dispatch.unit;
  const Cycle completion = pipeline_.completion(dispatch);
  const std::span<Warp> warps = unit.warps();
  const LaneLayout layout = unit.lane_layout();
  // A coalesced dispatch moves its data as one block from its first cell (a run's cells are
  // never written out).
  const Address first_cell = layout == LaneLayout::consecutive ? unit.first_dispatch_cell() : 0;
  const Address* cells =
      layout == LaneLayout::consecutive ? &first_cell : unit.dispatch_cells().data();
  if (unit.one_warp()) {  // the dispatch is its instruction (most machines)
    const WarpUnit::PendingAccess& pending = unit.pending();
    if (pending.access == AccessKind::read)
      read_lanes(warps.front(), pending.registers, pending.addresses, unit.lanes(), cells, layout,
                 completion);
    else
      write_lanes(warps.front(), pending.values, pending.addresses, unit.lanes(), cells, layout,
                  completion);
    return;
  }
  // Merged requests: every read returns the value from before the dispatch's writes; of
  // several writes to one address the one performed last wins.
  const unsigned width = warps.front().width();  // lanes per warp (not banks)
  for (std::size_t slot = 0; slot < warps.size(); ++slot)
    if (unit.in_flight(slot) && warps[slot].instruction().access == AccessKind::read)
      read_lanes(warps[slot], warps[slot].registers().data(), warps[slot].addresses().data(), width,
                 cells + slot * width, layout, completion);
  const bool ascending = config_.write_conflict == WriteConflict::highest_lane;
  for (std::size_t n = 0; n < warps.size(); ++n) {
    const std::size_t slot = ascending ? n : warps.size() - 1 - n;
    if (unit.in_flight(slot) && warps[slot].instruction().access == AccessKind::write)
      write_lanes(warps[slot], warps[slot].instruction().values.data(),
                  warps[slot].addresses().data(), width, cells + slot * width, layout, completion);
  }
}

void Mmu::read_lanes(const Warp& warp, Word* registers, const Address* addresses, unsigned width,
                     const Address* lane_cells, LaneLayout layout, Cycle completion) {
  const Word* cells = cells_.data();
  if (!config_.values) {  // zeros; an inactive lane keeps its register
    for (unsigned lane = 0; lane < width; ++lane)
      if (layout != LaneLayout::some_inactive || addresses[lane] != kInactive) registers[lane] = 0;
  } else if (layout == LaneLayout::consecutive) {
    std::copy_n(cells + lane_cells[0], width, registers);
  } else if (layout == LaneLayout::all_active) {
#pragma GCC unroll 8
    for (unsigned lane = 0; lane < width; ++lane) registers[lane] = cells[lane_cells[lane]];
  } else if (width <= 64) {  // the active lanes alone; an inactive lane keeps its register
    std::uint64_t on = with_vector_isa([=] { return active_lane_mask({addresses, width}); });
    for (; on != 0; on &= on - 1) {
      const auto lane = static_cast<unsigned>(std::countr_zero(on));
      registers[lane] = cells[lane_cells[lane]];
    }
  } else {  // an inactive lane keeps its register: selected, not branched on (which lanes are
            // active follows no pattern a branch predictor learns: the scans of sorting)
    for (unsigned lane = 0; lane < width; ++lane) {
      const Word active = -static_cast<Word>(addresses[lane] != kInactive);  // all ones, or 0
      const Word value = cells[lane_cells[lane] & static_cast<Address>(active)];  // m[0] unused
      registers[lane] = (value & active) | (registers[lane] & ~active);
    }
  }
  if (observer_) notify(warp, AccessKind::read, completion);
}

void Mmu::write_lanes(const Warp& warp, const Word* values, const Address* addresses,
                      unsigned width, const Address* lane_cells, LaneLayout layout,
                      Cycle completion) {
  if (config_.values) store(values, addresses, width, lane_cells, layout);
  if (observer_) notify(warp, AccessKind::write, completion);
}

void Mmu::store(const Word* values, const Address* addresses, unsigned width,
                const Address* lane_cells, LaneLayout layout) {
  Word* cells = cells_.data();
  if (layout == LaneLayout::consecutive) {  // distinct cells: the lanes' order does not matter
    std::copy_n(values, width, cells + lane_cells[0]);
  } else if (layout == LaneLayout::some_inactive && width <= 64) {
    // The active lanes alone, in the order that lets the winning lane write last.
    std::uint64_t on = with_vector_isa([=] { return active_lane_mask({addresses, width}); });
    if (config_.write_conflict == WriteConflict::highest_lane) {
      for (; on != 0; on &= on - 1) {
        const auto lane = static_cast<unsigned>(std::countr_zero(on));
        cells[lane_cells[lane]] = values[lane];
      }
    } else {
      while (on != 0) {  // the highest lane first
        const auto lane = static_cast<unsigned>(std::bit_width(on)) - 1;
        cells[lane_cells[lane]] = values[lane];
        on ^= std::uint64_t{1} << lane;
      }
    }
  } else {
    const bool ascending = config_.write_conflict == WriteConflict::highest_lane;
    for (unsigned m = 0; m < width; ++m) {
      const unsigned lane = ascending ? m : width - 1 - m;
      if (addresses[lane] != kInactive) cells[lane_cells[lane]] = values[lane];
    }
  }
}

void Mmu::notify(const Warp& warp, AccessKind kind, Cycle completion) {
  const MemoryAccess access{.memory = config_.id,
                            .address = 0,
                            .kind = kind,
                            .warp = warp.index(),
                            .block = warp.block(),
                            .pc = warp.pc(),
                            .epoch = warp.barriers(),
                            .grid_epoch = warp.grid_barriers(),
                            .completion = completion};
  observer_->access(access, warp.addresses());
}

void Mmu::trace(Tracer& tracer) {
  if (rsu_) traced_ |= rsu_->trace(tracer);
  traced_ |= splitter_unit_->trace(tracer);
  traced_ |= pipeline_.trace(tracer);
  const std::size_t more_ports = splitter_->ports() - 1;  // per bank
  for (std::size_t b = 0; b < banks_.size(); ++b) {
    traced_ |= banks_[b]->trace(tracer);
    for (std::size_t j = 0; j < more_ports; ++j)
      traced_ |= ports_[b * more_ports + j].trace(tracer);
  }
  config_.keep_groups = config_.keep_groups && traced_;  // an untraced memory records nothing
}

void Mmu::update_trace(Cycle t) {
  if (!traced_) return;
  pipeline_.update_trace(t);
  for (auto& bank : banks_) bank->entering = bank->completing = {};
  for (BankPort& port : ports_) port.entering = port.completing = {};
  const std::size_t more_ports = splitter_->ports() - 1;  // per bank
  const MmuPipeline::InFlight* packed = nullptr;
  const MmuPipeline::InFlight* entering = nullptr;
  pipeline_.for_each([&](const MmuPipeline::InFlight& d) {
    if (d.entry == t) packed = &d;
    const bool enters = t >= d.entry && t < d.entry + d.stages;
    if (enters) entering = &d;
    const Cycle first_completion = pipeline_.first_completion(d);
    const bool completes = t >= first_completion && t < first_completion + d.stages;
    if (!enters && !completes) return;  // most dispatches in flight: no group at either end
    for (const MmuPipeline::Slot& s : d.slots) {
      const bool entry = enters && d.entry + s.group == t;
      const bool completion = completes && first_completion + s.group == t;
      if (!entry && !completion) continue;
      const auto show = [&](auto& port) {  // a bank (its port 0) or one of its other ports
        if (entry) port.entering = {true, s.address};
        if (completion) port.completing = {true, s.address};
      };
      if (s.port == 0)
        show(*banks_[s.bank]);
      else
        show(ports_[s.bank * more_ports + s.port - 1]);
    }
  });
  for (auto& bank : banks_) bank->update_trace();
  for (BankPort& port : ports_) port.update_trace();
  splitter_unit_->update_trace(packed, entering, t);
  if (rsu_) rsu_->update_trace(banks_);
}

}  // namespace mmsim
