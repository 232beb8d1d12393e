#include "sw/program/model_bounds.hpp"

#include <algorithm>
#include <cmath>

#include "hw/machine/machine_models.hpp"

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

Bound time_lower_bound(const MachineConfig& m, const Requests& r) {
  const double w = m.width;
  const double l = m.latency;
  const double groups = std::ceil(r.total / w);
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
              "docs/semantics.md §3"};
    case Column::bpram:
      return {"time_lower",
              "lower bound: " + r.total_text + " requests, w per time unit; " + chain +
                  ", one time unit each" + where,
              "max(" + r.total_text + "/w, " + r.chain_text + ")",
              std::max(groups, r.chain),
              Bound::Kind::lower,
              Bound::Measure::cycles,
              "docs/semantics.md §3"};
    default:
      return {"time_lower",
              "lower bound: " + r.total_text + " requests, w per time unit through l stages; " +
                  chain + ", l time units each" + where,
              "max(" + r.total_text + "/w + l - 1, l*" + r.chain_text + ")",
              std::max(groups + l - 1, l * r.chain),
              Bound::Kind::lower,
              Bound::Measure::cycles,
              "docs/semantics.md §3"};
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
          "Nakano and Matsumae 2013, Lemma 1"};
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
                 Bound::Measure::cycles, e.source});
}

TimeOrder pram_order(const MachineConfig& m, double n, std::string label, std::string source) {
  return {std::move(label), "n/p", n / static_cast<double>(m.threads), std::move(source)};
}

TimeOrder bpram_order(const MachineConfig& m, double n, std::string label, std::string source) {
  return {std::move(label), "n/w", n / m.width, std::move(source)};
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
