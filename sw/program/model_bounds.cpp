#include "sw/program/model_bounds.hpp"

#include <algorithm>
#include <cmath>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"

namespace mmsim {

Column column_of(const MachineConfig& m) {
  switch (machine_model(m).memory.splitting) {
    case Splitting::crossbar:
      return Column::pram;
    case Splitting::bandwidth:
      return Column::bpram;
    case Splitting::coalesced:
      return Column::umm;
    case Splitting::banked:
      break;
  }
  const AddressMapInfo& map = address_map_of(m);
  if (map.shift_table) return Column::rsdmm;
  if (!map.identity) return Column::other;
  return m.super_warp > 1 ? Column::sdmm : Column::dmm;
}

unsigned ports_of(const MachineConfig& m) {
  return machine_model(m).memory.splitting == Splitting::crossbar ? 1 : m.ports;
}

std::vector<Bound> bounds_for_ports(const MachineConfig& m, std::vector<Bound> bounds) {
  const MachineModel& model = machine_model(m);
  const bool global_ports = ports_of(m) > 1;
  const bool shared_ports = model.hierarchical &&
                            shared_memory_model(m).memory.splitting != Splitting::crossbar &&
                            m.shared.ports > 1;
  if (!global_ports && !shared_ports) return bounds;
  std::erase_if(bounds, [&](const Bound& b) {
    switch (b.measure) {
      case Bound::Measure::syncthreads:
      case Bound::Measure::grid_syncs:
        return false;
      case Bound::Measure::global_stages:
        return global_ports && b.ports == Bound::Ports::one;
      case Bound::Measure::shared_stages:
        return shared_ports && b.ports == Bound::Ports::one;
      case Bound::Measure::cycles:
      case Bound::Measure::stages:
        break;
    }
    return b.ports == Bound::Ports::one;
  });
  return bounds;
}

Bound time_lower_bound(const MachineConfig& m, const Requests& r) {
  // A stage group holds at most w requests per port of a bank, and no more than its dispatch
  // sends: w per warp of the unit.
  const unsigned fill = std::min(ports_of(m), m.super_warp);
  const double bandwidth = static_cast<double>(fill) * m.width;  // requests per time unit
  const std::string per_unit = fill == 1 ? "w" : fill == m.super_warp ? "sw" : "kw";
  const std::string over_bandwidth = r.total_text + (fill == 1 ? "/w" : "/(" + per_unit + ")");
  const double l = m.latency;
  const double groups = std::ceil(r.total / bandwidth);
  const std::string where = r.where.empty() ? "" : "; " + r.where;
  const std::string chain = r.chain_text + " " + r.chain_label;
  switch (column_of(m)) {
    case Column::pram:
      return {"time_lower",
              "lower bound: " + r.total_text + " requests, p per time unit; " + chain +
                  ", one time unit each" + where,
              r.total_text + "/p" == r.chain_text
                  ? r.chain_text
                  : "max(" + r.total_text + "/p, " + r.chain_text + ")",
              std::max(std::ceil(r.total / static_cast<double>(m.threads)), r.chain),
              Bound::Kind::lower,
              Bound::Measure::cycles,
              "docs/semantics.md §3",
              Bound::Ports::any};
    case Column::bpram:
      return {"time_lower",
              "lower bound: " + r.total_text + " requests, " + per_unit + " per time unit; " +
                  chain + ", one time unit each" + where,
              "max(" + over_bandwidth + ", " + r.chain_text + ")",
              std::max(groups, r.chain),
              Bound::Kind::lower,
              Bound::Measure::cycles,
              "docs/semantics.md §3",
              Bound::Ports::any};
    default:
      return {"time_lower",
              "lower bound: " + r.total_text + " requests, " + per_unit +
                  " per time unit through l stages; " + chain + ", l time units each" + where,
              "max(" + over_bandwidth + " + l - 1, l*" + r.chain_text + ")",
              std::max(groups + l - 1, l * r.chain),
              Bound::Kind::lower,
              Bound::Measure::cycles,
              "docs/semantics.md §3",
              Bound::Ports::any};
  }
}

Bound lemma1_upper(const MachineConfig& m, std::optional<double> congestion,
                   const RunResult& result, double rounds, const std::string& rounds_text) {
  const double c = congestion ? *congestion : static_cast<double>(result.counters.stages);
  return {"time_upper",
          std::string(congestion ? "Lemma 1" : "Lemma 1 with the measured congestion C") +
              ": C + (l-1) per round of " + rounds_text,
          "C + (l - 1)*" + rounds_text,
          c + (m.latency - 1) * rounds,
          Bound::Kind::upper,
          Bound::Measure::cycles,
          "Nakano and Matsumae 2013, Lemma 1",
          congestion ? Bound::Ports::one : Bound::Ports::any};  // measured stages count ports
}

double round_robin_time(double rounds, double units, double k, double l) {
  return (rounds - 1) * std::max(units * k, k + l - 1) + units * k + l - 1;
}

void add_time_order(std::vector<Bound>& out, const MachineConfig& m, const OrdersByColumn& o) {
  const std::optional<TimeOrder>* order = nullptr;
  switch (column_of(m)) {
    case Column::pram:
      order = &o.pram;
      break;
    case Column::bpram:
      order = &o.bpram;
      break;
    case Column::dmm:
      order = &o.dmm;
      break;
    case Column::sdmm:
      order = &o.sdmm;
      break;
    case Column::rsdmm:
      order = &o.rsdmm;
      break;
    case Column::umm:
      order = &o.umm;
      break;
    case Column::other:
      return;
  }
  if (!*order) return;
  const TimeOrder& e = **order;
  out.push_back({"time_order", e.label, e.formula, e.value, Bound::Kind::order,
                 Bound::Measure::cycles, e.source, e.ports});
}

TimeOrder pram_order(const MachineConfig& m, double n, std::string label, std::string source) {
  return {std::move(label), "n/p", n / static_cast<double>(m.threads), std::move(source),
          Bound::Ports::any};
}

TimeOrder bpram_order(const MachineConfig& m, double n, std::string label, std::string source) {
  // Ports multiply the BPRAM's bandwidth, but its dispatch is one warp: w requests, one stage.
  return {std::move(label), "n/w", n / m.width, std::move(source), Bound::Ports::any};
}

TimeOrder optimal_order(const MachineConfig& m, double n, std::string label, std::string source) {
  return {std::move(label), "n/w + n*l/p",
          n / m.width + n * m.latency / static_cast<double>(m.threads), std::move(source)};
}

OrdersByColumn orders_everywhere(const MachineConfig& m, double n, const std::string& what,
                                 const std::string& source, const TimeOrder& order) {
  return {.pram = pram_order(m, n, what + " on the PRAM", source),
          .bpram = bpram_order(m, n, what + " on the BPRAM", source),
          .dmm = order,
          .sdmm = order,
          .rsdmm = order,
          .umm = order};
}

TimeOrder random_shift_order(const MachineConfig& m, double n, std::string source) {
  return optimal_order(m, n, "expected, with super warps of log w warps (random shift)",
                       std::move(source));
}

}  // namespace mmsim
