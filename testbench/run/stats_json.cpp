#include "testbench/run/stats_json.hpp"

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/machine/memory_specs.hpp"
#include "testbench/input/expect_figures.hpp"
#include "testbench/input/testbench_schema.hpp"
#include "testbench/run/profile_report.hpp"

namespace mmsim {

namespace {

// A histogram without its trailing zeros (its length says the largest value seen).
nlohmann::json histogram(std::vector<std::uint64_t> counts) {
  while (!counts.empty() && counts.back() == 0) counts.pop_back();
  return counts;
}

// The counters over time of one memory, or summed over the memories.
nlohmann::json series_json(const TimeSeries::Memory& m) {
  return {{"dispatches", m.dispatches},
          {"stages", m.stages},
          {"requests", m.requests},
          {"waiting_turn", m.turn_wait},
          {"waiting_memory", m.memory_wait}};
}

nlohmann::json time_series_json(const TimeSeries& s) {
  if (s.empty()) return nullptr;
  TimeSeries::Memory total;
  for (const TimeSeries::Memory& m : s.memories) {
    const auto add = [](std::vector<std::uint64_t>& to, const std::vector<std::uint64_t>& from) {
      to.resize(from.size(), 0);
      for (std::size_t i = 0; i < from.size(); ++i) to[i] += from[i];
    };
    add(total.dispatches, m.dispatches);
    add(total.stages, m.stages);
    add(total.requests, m.requests);
    add(total.turn_wait, m.turn_wait);
    add(total.memory_wait, m.memory_wait);
  }
  nlohmann::json out = {{"interval", s.interval}, {"cycle", s.cycle}};
  out.update(series_json(total));
  out.update({{"syncthreads", s.syncthreads},
              {"grid_syncs", s.grid_syncs},
              {"finished_warps", s.finished_warps}});
  return out;
}

// Per warp, in warp order: compact arrays, one per figure.
nlohmann::json warp_time_json(const std::vector<WarpTime>& times, Cycle compute_latency) {
  std::vector<std::uint64_t> dispatches, turn, memory, compute, barrier, finish;
  for (const WarpTime& t : times) {
    dispatches.push_back(t.dispatches);
    turn.push_back(t.turn);
    memory.push_back(t.memory);
    compute.push_back(t.dispatches * compute_latency);
    barrier.push_back(t.barrier);
    finish.push_back(t.finish);
  }
  return {{"dispatches", dispatches}, {"turn", turn},       {"memory", memory},
          {"compute", compute},       {"barrier", barrier}, {"finish", finish}};
}

// Summed over the warps.
nlohmann::json waiting_json(const std::vector<WarpTime>& times, Cycle compute_latency) {
  Cycle turn = 0, memory = 0, compute = 0, barrier = 0, total = 0;
  for (const WarpTime& t : times) {
    turn += t.turn;
    memory += t.memory;
    compute += t.dispatches * compute_latency;
    barrier += t.barrier;
    total += t.finish;
  }
  return {{"turn", turn},
          {"memory", memory},
          {"compute", compute},
          {"barrier", barrier},
          {"total", total}};
}

// The program's tables, by key: numbers as numbers.
nlohmann::json program_tables_json(const std::vector<ProgramTable>& tables) {
  nlohmann::json out = nlohmann::json::object();
  for (const ProgramTable& t : tables) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : t.rows) {
      nlohmann::json cells = nlohmann::json::array();
      for (const ProgramTable::Cell& cell : row)
        std::visit([&cells](const auto& v) { cells.push_back(v); }, cell);
      rows.push_back(std::move(cells));
    }
    out[t.key] = {{"title", t.title}, {"columns", t.columns}, {"rows", rows}, {"notes", t.notes}};
  }
  return out;
}

// Per memory: what it is, and what it did.
nlohmann::json memories_json(const RunResult& r) {
  nlohmann::json out = nlohmann::json::array();
  const double cycles = static_cast<double>(r.cycles());
  for (std::size_t m = 0; m < r.memories.size(); ++m) {
    const MemoryResult& memory = r.memories[m];
    const MemoryCounters& c = memory.counters;
    nlohmann::json entry = {{"name", memory.block == kNoBlock ? memory.label : "shared"}};
    if (memory.block != kNoBlock) entry["multiprocessor"] = memory.block;
    entry.update({{"width", memory.width},
                  {"latency", memory.latency},
                  {"words", memory.words},
                  {"cycles", c.cycles()},
                  {"dispatches", c.dispatches},
                  {"stages", c.stages},
                  {"max_stages", c.max_stages},
                  {"requests", c.requests},
                  {"busy", c.busy},
                  {"utilization", cycles > 0 ? static_cast<double>(c.stages) / cycles : 0.0},
                  {"stage_histogram", histogram(c.stage_histogram)},
                  {"bank_requests", memory.spread.banks},
                  {"group_requests", histogram(memory.spread.groups)},
                  {"waiting", {{"turn", c.turn_wait}, {"memory", c.memory_wait}}}});
    if (!r.time_series.empty()) entry["time_series"] = series_json(r.time_series.memories.at(m));
    out.push_back(entry);
  }
  return out;
}

// The machine as it ran under the schema's names (machine_quantities: machine.shared.memory is
// shared.memory), its shift tables as the testbench as it ran gives them, and the names the
// statistics gave before, which scripts read: memory_words (machine.memory, and beside
// shared.memory) and global_width (machine.global.width).
void add_machine(nlohmann::json& stats, const RunOutcome& o) {
  const MachineConfig& m = o.machine;
  const nlohmann::ordered_json quantities = machine_quantities(m, QuantityKeys::of_its_model);
  for (const auto& [key, value] : quantities.items()) stats[key] = nlohmann::json(value);
  stats["memory_words"] = m.memory_words;
  const nlohmann::ordered_json& machine = o.resolved.at("machine");
  if (machine.contains("rsu")) stats["rsu"] = nlohmann::json(machine.at("rsu"));
  if (!machine_model(m).hierarchical) return;
  stats["global_width"] = m.global_words_per_group();
  nlohmann::json& shared = stats["shared"];
  shared["memory_words"] = m.shared.words;
  if (machine.at("shared").contains("rsu"))
    shared["rsu"] = nlohmann::json(machine.at("shared").at("rsu"));
}

}  // namespace

nlohmann::json stats_json(const RunOutcome& o) {
  using nlohmann::json;
  const MachineConfig& m = o.machine;
  const MemoryCounters& c = o.result.counters;
  json stats = {
      {"name", o.name},
      {"testbench", o.file},
      {"max_stages", c.max_stages},
      {"verified", o.verified ? json(*o.verified) : json(nullptr)},
      {"program", o.program},
      {"wall_seconds", o.result.seconds},
  };
  for (const ExpectFigure& f : expect_figures()) stats[f.name] = f.measure(o.result);
  add_machine(stats, o);
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
    bounds[b.key] = {{"label", b.label},
                     {"formula", b.formula},
                     {"value", b.value},
                     {"kind", to_string(b.kind)},
                     {"measure", to_string(b.measure)},
                     {"measured", value},
                     {"ratio", b.value != 0 ? json(value / b.value) : json(nullptr)},
                     {"source", b.source}};
  }
  stats["bounds"] = bounds;
  json figures = json::object();
  for (const ProgramFigure& f : o.figures) figures[f.key] = f.value;
  stats["program_figures"] = figures;
  if (!o.tables.empty()) stats["program_tables"] = program_tables_json(o.tables);
  if (o.profile) stats["profile"] = profile_json(*o.profile, o.result);
  stats["memories"] = memories_json(o.result);
  stats["stage_histogram"] = histogram(c.stage_histogram);
  stats["bank_requests"] = o.result.spread.banks;
  stats["group_requests"] = histogram(o.result.spread.groups);
  stats["waiting"] = waiting_json(o.result.warp_times, m.compute_latency);
  stats["warp_time"] = warp_time_json(o.result.warp_times, m.compute_latency);
  stats["time_series"] = time_series_json(o.result.time_series);
  add_provenance(stats, o.provenance);
  stats["resolved"] = o.resolved;
  if (machine_model(m).hierarchical) stats["block_syncthreads"] = o.result.block_syncthreads;
  stats["warnings"] = o.warnings;
  stats["errors"] = o.errors;
  stats["race_check"] = o.race_check;
  if (o.race_check) {
    const auto access = [](const RaceDetector::Access& a) {
      return json{{"warp", a.warp},
                  {"kind", a.kind == AccessKind::read ? "read" : "write"},
                  {"pc", a.pc},
                  {"cycle", a.cycle}};
    };
    json listed = json::array();
    for (const RaceDetector::Race& r : o.races)
      listed.push_back({{"memory", r.memory},
                        {"address", r.address},
                        {"first", access(r.first)},
                        {"second", access(r.second)}});
    stats["races"] = {{"count", o.race_count}, {"listed", listed}};
  } else {
    stats["races"] = nullptr;
  }
  return stats;
}

const nlohmann::json* stats_at(const nlohmann::json& stats, const std::string& path) {
  const nlohmann::json* node = &stats;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    const std::string key = path.substr(start, dot == std::string::npos ? dot : dot - start);
    if (!node->is_object() || !node->contains(key)) return nullptr;
    node = &(*node)[key];
    if (dot == std::string::npos) return node;
    start = dot + 1;
  }
}

}  // namespace mmsim
