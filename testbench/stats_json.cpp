#include "testbench/stats_json.hpp"

#include "hw/machine_models.hpp"

namespace mmsim {

nlohmann::json stats_json(const RunOutcome& o) {
  using nlohmann::json;
  const MachineConfig& m = o.machine;
  const RunCounters& c = o.result.counters;
  json stats = {
      {"name", o.name},
      {"testbench", o.file},
      {"cycles", o.result.cycles()},
      {"dispatches", c.dispatches},
      {"stages", c.stages},
      {"max_stages", c.max_stages},
      {"requests", c.requests},
      {"syncthreads", o.result.syncthreads},
      {"verified", o.verified ? json(*o.verified) : json(nullptr)},
      {"model", m.model},
      {"width", m.width},
      {"latency", m.latency},
      {"threads", m.threads},
      {"super_warp", m.super_warp},
      {"dispatch", m.dispatch},
      {"seed", m.seed},
      {"barrier_latency", m.barrier_latency},
      {"compute_latency", m.compute_latency},
      {"memory_words", m.memory_words},
      {"address_map", address_map_of(m)},
      {"program", o.program},
      {"wall_seconds", o.result.seconds},
  };
  json verification = {{"program_checked", o.program_checked},
                       {"elements_checked", o.elements_checked},
                       {"mismatches", o.mismatches}};
  if (!o.first_mismatch.empty()) verification["first_mismatch"] = o.first_mismatch;
  json expectations = json::object();
  for (const Expectation& e : o.expectations)
    expectations[e.figure] = {{"expected", e.expected}, {"measured", e.measured}, {"met", e.met()}};
  verification["expect"] = expectations;
  stats["verification"] = verification;
  json bounds = json::object();
  for (const Bound& b : o.bounds) {
    const double value = measured(o, b);
    bounds[b.key] = {{"label", b.label},   {"formula", b.formula},
                     {"value", b.value},   {"kind", to_string(b.kind)},
                     {"measure", to_string(b.measure)}, {"measured", value},
                     {"ratio", b.value != 0 ? json(value / b.value) : json(nullptr)},
                     {"source", b.source}};
  }
  stats["bounds"] = bounds;
  if (address_map_of(m) == "random_shift")
    stats["rsu"] = m.rsu_shifts.empty() ? json{{"seed", m.rsu_seed.value_or(m.seed)}}
                                        : json{{"shifts", m.rsu_shifts}};
  stats["warnings"] = o.warnings;
  return stats;
}

}  // namespace mmsim
