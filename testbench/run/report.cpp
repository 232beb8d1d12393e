#include "testbench/run/report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "hw/support/counted.hpp"
#include "testbench/input/testbench.hpp"
#include "testbench/run/profile_report.hpp"

namespace mmsim {
namespace {

std::string number(double value) {
  if (value == static_cast<double>(static_cast<long long>(value)))
    return fmt::format("{}", static_cast<long long>(value));
  return std::abs(value) >= 100 ? fmt::format("{:.1f}", value) : fmt::format("{:.4g}", value);
}

// "  random_shift  (shift table drawn with seed 7)", or "" for the interleaved map.
std::string address_map_line(const AddressMapInfo& map, const BankMapping& mapping,
                             std::uint64_t seed) {
  if (map.identity) return {};
  std::string rsu;
  if (map.drawn)
    rsu = mapping.rsu_shifts.empty()
              ? fmt::format("  (shift table drawn with seed {})", mapping.rsu_seed.value_or(seed))
              : fmt::format("  (shift table r_j = {})", fmt::join(mapping.rsu_shifts, " "));
  return "  " + map.name + rsu;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? "-" : fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / whole);
}

// "1: 1024 (66.7%)  2: 512 (33.3%)": the values j with counts[j] > 0, the first five and the
// last when there are more.
std::string histogram_line(const std::vector<std::uint64_t>& counts) {
  std::uint64_t total = 0;
  std::vector<std::size_t> seen;
  for (std::size_t j = 0; j < counts.size(); ++j)
    if (counts[j] > 0) {
      total += counts[j];
      seen.push_back(j);
    }
  std::string out;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    if (seen.size() > 6 && i == 5) {
      out += fmt::format("  ({} more)", seen.size() - 6);
      i = seen.size() - 1;
    }
    out += fmt::format("{}{}: {} ({})", out.empty() ? "" : "  ", seen[i], counts[seen[i]],
                       percent(counts[seen[i]], total));
  }
  return out;
}

// The figures a run counts besides its totals: stage histogram, requests per bank or per
// address group touched, where the warps' time went, the counters over time.
void statistics_lines(const RunOutcome& o, const std::function<void(const std::string&)>& line) {
  const RunResult& r = o.result;
  if (r.counters.dispatches == 0) return;
  line("  histogram    " + histogram_line(r.counters.stage_histogram) +
       "  (dispatches by stages k)");
  const std::vector<std::uint64_t>& banks = r.spread.banks;
  std::uint64_t bank_total = 0;
  for (const std::uint64_t b : banks) bank_total += b;
  if (bank_total > 0) {  // banked memories that served requests
    const double mean = static_cast<double>(bank_total) / static_cast<double>(banks.size());
    const std::uint64_t most = *std::max_element(banks.begin(), banks.end());
    line(fmt::format("  banks        requests per bank: min {}, mean {}, max {} (max/mean {})",
                     *std::min_element(banks.begin(), banks.end()), number(mean), most,
                     fmt::format("{:.3f}", static_cast<double>(most) / mean)));
  }
  if (!r.spread.groups.empty())
    line("  groups       " + histogram_line(r.spread.groups) +
         "  (address groups touched, by the requests each carried)");
  Cycle turn = 0, memory = 0, compute = 0, barrier = 0, total = 0;
  for (const WarpTime& t : r.warp_times) {
    turn += t.turn;
    memory += t.memory;
    compute += t.dispatches * o.machine.compute_latency;
    barrier += t.barrier;
    total += t.finish;
  }
  line(
      fmt::format("  warp time    turn {}, memory {}, compute {}, barrier {} of {} time units ({})",
                  percent(turn, total), percent(memory, total), percent(compute, total),
                  percent(barrier, total), total, counted(r.warp_times.size(), "warp")));
  if (!r.time_series.empty())
    line(fmt::format("  time series  {}, every {} time units (time_series)",
                     counted(r.time_series.cycle.size(), "sample"), r.time_series.interval));
}

// A program's table: its title, the columns aligned (numbers to the right), its notes.
void table_lines(const ProgramTable& t, const std::function<void(const std::string&)>& line) {
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> widths;
  for (const std::string& c : t.columns) widths.push_back(c.size());
  for (const auto& row : t.rows) {
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < row.size(); ++i) {
      texts.push_back(std::visit(
          [](const auto& v) {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::string>)
              return v;
            else
              return fmt::format("{}", v);
          },
          row[i]));
      if (i < widths.size()) widths[i] = std::max(widths[i], texts.back().size());
    }
    cells.push_back(std::move(texts));
  }
  const auto render = [&](const std::vector<std::string>& texts,
                          const std::vector<ProgramTable::Cell>* row) {
    std::string out = "   ";
    for (std::size_t i = 0; i < texts.size() && i < widths.size(); ++i) {
      const bool numeric = row && std::holds_alternative<std::uint64_t>((*row)[i]);
      out += numeric ? fmt::format(" {:>{}}", texts[i], widths[i])
                     : fmt::format(" {:<{}}", texts[i], widths[i]);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
  };
  line("");
  line("  " + t.title);
  line(render(t.columns, nullptr));
  for (std::size_t r = 0; r < cells.size(); ++r) line(render(cells[r], &t.rows[r]));
  for (const std::string& note : t.notes) line("    " + note);
}

std::string describe(const RaceDetector::Access& a) {
  return fmt::format("warp {} {} (instruction {}, cycle {})", a.warp,
                     a.kind == AccessKind::read ? "read" : "write", a.pc, a.cycle);
}

}  // namespace

std::string format_race(const RaceDetector::Race& race, const RunResult& result) {
  const std::string cell =
      result.memories.size() == 1
          ? fmt::format("m[{}]", race.address)
          : fmt::format("{} m[{}]", result.memories.at(race.memory).label, race.address);
  return fmt::format("{}: {} and {}", cell, describe(race.first), describe(race.second));
}

namespace {

std::string verdict(const RunOutcome& o) {
  return !o.verified ? "n/a" : *o.verified ? "yes" : "NO";
}

// Why a run failed: the first wrong element, races, errors, unmet expectations.
std::string failure(const RunOutcome& o) {
  std::vector<std::string> why;
  if (o.mismatches > 0) why.push_back(o.first_mismatch);
  if (o.race_count > 0)
    why.push_back(fmt::format("{}, the first: {}", counted(o.race_count, "race"),
                              format_race(o.races.front(), o.result)));
  why.insert(why.end(), o.errors.begin(), o.errors.end());
  for (const Expectation& e : o.expectations)
    if (!e.met())
      why.push_back(fmt::format("expect {} = {}: measured {}", e.figure, e.expected, e.measured));
  return fmt::format("{}", fmt::join(why, "; "));
}

}  // namespace

std::string format_policy_table(const std::vector<RunOutcome>& outcomes) {
  std::string out;
  const RunOutcome& first = outcomes.front();
  const MachineConfig& m = first.machine;
  out += fmt::format("{}: {} on {}  w={}  l={}  p={}, one run per dispatch policy\n", first.name,
                     first.program, m.model, m.width, m.latency, m.threads);
  const bool races = first.race_check;
  out += fmt::format("  {:<14}{:>12}{:>13}{:>12}{}{:>10}\n", "policy", "cycles", "syncthreads",
                     "dispatches", races ? fmt::format("{:>8}", "races") : "", "verified");
  for (const RunOutcome& o : outcomes)
    out += fmt::format("  {:<14}{:>12}{:>13}{:>12}{}{:>10}\n", o.machine.dispatch,
                       o.result.cycles(), o.result.syncthreads, o.result.counters.dispatches,
                       races ? fmt::format("{:>8}", o.race_count) : "", verdict(o));
  for (const RunOutcome& o : outcomes) {
    if (const std::string why = failure(o); !why.empty())
      out += fmt::format("  {}: {}\n", o.machine.dispatch, why);
    for (const std::string& w : o.warnings)
      out += fmt::format("  {}: warning: {}\n", o.machine.dispatch, w);
  }
  return out;
}

std::string format_report(const RunOutcome& o) {
  const MachineConfig& m = o.machine;
  const RunResult& r = o.result;
  std::string out;
  auto line = [&out](const std::string& text) { out += text + "\n"; };

  // The file's description, which --set of the machine or the program may have made wrong.
  line(o.description.empty() ? o.name
                             : o.name + " - " + description_as_run(o.description, o.changed_by));
  line(fmt::format("  testbench    {}", o.file));
  const bool hierarchical = machine_model(m).hierarchical;
  std::string machine = fmt::format("{}  w={}  l={}  p={}", m.model, m.width, m.latency, m.threads);
  if (hierarchical)
    machine += fmt::format("  d={}  w_g={}", m.multiprocessors, m.global_words_per_group());
  if (m.super_warp > 1) machine += fmt::format("  s={}", m.super_warp);
  if (m.ports > 1 || m.shared.ports > 1)  // banks of k ports (docs/semantics.md §10)
    machine += hierarchical ? fmt::format("  ports {} (shared {})", m.ports, m.shared.ports)
                            : fmt::format("  ports {}", m.ports);
  machine += fmt::format("  ({})  dispatch {}", counted(m.warps(), "warp"), m.dispatch);
  if (m.barrier_latency) machine += fmt::format("  barrier latency {}", m.barrier_latency);
  if (m.kernel_latency) machine += fmt::format("  kernel latency {}", m.kernel_latency);
  if (m.compute_latency) machine += fmt::format("  compute latency {}", m.compute_latency);
  line("  machine      " + machine);
  if (hierarchical)
    line(fmt::format("  shared       {}  l_s={}  {} per SM{}", m.shared.model, m.shared.latency,
                     counted(m.shared.words, "word"),
                     address_map_line(shared_address_map(m), m.shared.mapping, m.seed)));
  else if (const AddressMapInfo& map = address_map_of(m); !map.identity)
    line("  address map" + address_map_line(map, m.mapping, m.seed));
  line(fmt::format("  program      {}  (memory {})", o.program, counted(m.memory_words, "word")));
  line("");
  line(fmt::format("  cycles       {}", r.cycles()));
  line(fmt::format("  dispatches   {}", r.counters.dispatches));
  line(fmt::format("  stages       {}  (total congestion; largest dispatch {})", r.counters.stages,
                   r.counters.max_stages));
  line(fmt::format("  requests     {}", r.counters.requests));
  line(fmt::format("  syncthreads  {}", r.syncthreads) +
       (r.block_syncthreads.size() > 1 ? "  (the most steps of one SM)" : ""));
  if (r.grid_syncs > 0 || hierarchical) line(fmt::format("  grid_syncs   {}", r.grid_syncs));
  statistics_lines(o, line);
  if (r.memories.size() > 1) {
    line(fmt::format("  {:<13}{:>12}{:>12}{:>6}{:>12}{:>10}{:>10}{:>12}", "memory", "dispatches",
                     "stages", "max", "requests", "busy", "cycles", "turn wait"));
    for (const MemoryResult& memory : r.memories) {
      const MemoryCounters& c = memory.counters;
      line(fmt::format("  {:<13}{:>12}{:>12}{:>6}{:>12}{:>10}{:>10}{:>12}", memory.label,
                       c.dispatches, c.stages, c.max_stages, c.requests, c.busy, c.cycles(),
                       c.turn_wait));
    }
  }
  const double rate = r.seconds > 0 ? static_cast<double>(r.counters.dispatches) / r.seconds : 0;
  line(fmt::format("  wall time    {:.3f} s  ({:.2f} M dispatches/s)", r.seconds, rate / 1e6));

  for (const ProgramFigure& f : o.figures)
    line(fmt::format("  {:<12} {} {}", f.key, number(f.value), f.unit) +
         (f.label.empty() ? "" : "  (" + f.label + ")"));
  if (o.profile) {
    line("");
    for (const std::string& text : profile_lines(*o.profile, r, o.profile_view)) line(text);
  }
  for (const ProgramTable& t : o.tables) table_lines(t, line);

  if (!o.bounds.empty()) {
    line("");
    line(fmt::format("  {:<7}{:<58}{:>12}{:>12}{:>8}", "bound", "formula", "value", "measured",
                     "ratio"));
    for (const Bound& b : o.bounds) {
      const double value = measured(o, b);
      const std::string ratio = b.value != 0 ? fmt::format("{:.3f}", value / b.value) : "-";
      line(fmt::format("  {:<7}{:<58}{:>12}{:>12}{:>8}", to_string(b.kind), b.formula,
                       number(b.value), number(value), ratio));
      line(fmt::format("         {} [{}]", b.label, b.source));
    }
  }

  line("");
  if (o.program_checked)
    line(o.mismatches == 0 ? fmt::format("  data         {} checked, all correct",
                                         counted(o.elements_checked, "element"))
                           : fmt::format("  data         {} of {} elements wrong; first: {}",
                                         o.mismatches, o.elements_checked, o.first_mismatch));
  for (const Expectation& e : o.expectations)
    line(fmt::format("  expect       {} = {}: {} ({})", e.figure, e.expected,
                     e.met() ? "met" : "NOT met", e.measured));
  if (o.race_check) {
    if (o.race_count == 0) {
      line("  races        none (race_check)");
    } else {
      line(fmt::format(
          "  races        {} of accesses to one address by two warps, one a "
          "write at least, with no barrier between{}",
          counted(o.race_count, "pair"),
          o.race_count > kShownRaces ? fmt::format("; the first {}:", kShownRaces) : ":"));
      for (std::size_t i = 0; i < o.races.size() && i < kShownRaces; ++i)
        line("    " + format_race(o.races[i], o.result));
    }
  }
  for (const std::string& e : o.errors) line("  error        " + e);
  for (const std::string& w : o.warnings) line("  warning      " + w);
  line(fmt::format("  verified     {}", !o.verified   ? "n/a (nothing to check)"
                                        : *o.verified ? "yes"
                                                      : "NO"));
  for (const WrittenOutput& w : o.written)  // the text in the figures' column, if it fits
    line("  " + w.label + std::string(w.label.size() + 2 < 13 ? 13 - w.label.size() : 2, ' ') +
         w.text);
  return out;
}

}  // namespace mmsim
