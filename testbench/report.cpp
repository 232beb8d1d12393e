#include "testbench/report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "hw/machine_models.hpp"

namespace mmsim {
namespace {

std::string number(double value) {
  if (value == static_cast<double>(static_cast<long long>(value))) return fmt::format("{}", static_cast<long long>(value));
  return fmt::format("{:.2f}", value);
}

}  // namespace

std::string format_report(const RunOutcome& o) {
  const MachineConfig& m = o.machine;
  const RunResult& r = o.result;
  std::string out;
  auto line = [&out](const std::string& text) { out += text + "\n"; };

  line(o.description.empty() ? o.name : o.name + " - " + o.description);
  line(fmt::format("  testbench    {}", o.file));
  std::string machine = fmt::format("{}  w={}  l={}  p={}", m.model, m.width, m.latency, m.threads);
  if (m.super_warp > 1) machine += fmt::format("  s={}", m.super_warp);
  machine += fmt::format("  ({} warps)  dispatch {}", m.warps(), m.dispatch);
  if (m.barrier_latency) machine += fmt::format("  barrier latency {}", m.barrier_latency);
  if (m.compute_latency) machine += fmt::format("  compute latency {}", m.compute_latency);
  line("  machine      " + machine);
  const std::string map = address_map_of(m);
  if (map != "interleaved") {
    std::string rsu;
    if (map == "random_shift")
      rsu = m.rsu_shifts.empty()
                ? fmt::format("  (shift table drawn with seed {})", m.rsu_seed.value_or(m.seed))
                : fmt::format("  (shift table r_j = {})", fmt::join(m.rsu_shifts, " "));
    line("  address map  " + map + rsu);
  }
  line(fmt::format("  program      {}  (memory {} words)", o.program, m.memory_words));
  line("");
  line(fmt::format("  cycles       {}", r.cycles()));
  line(fmt::format("  dispatches   {}", r.counters.dispatches));
  line(fmt::format("  stages       {}  (total congestion; largest dispatch {})", r.counters.stages,
                   r.counters.max_stages));
  line(fmt::format("  requests     {}", r.counters.requests));
  line(fmt::format("  syncthreads  {}", r.syncthreads));
  const double rate = r.seconds > 0 ? static_cast<double>(r.counters.dispatches) / r.seconds : 0;
  line(fmt::format("  wall time    {:.3f} s  ({:.2f} M dispatches/s)", r.seconds, rate / 1e6));

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
    line(o.mismatches == 0
             ? fmt::format("  data         {} elements checked, all correct", o.elements_checked)
             : fmt::format("  data         {} of {} elements wrong; first: {}", o.mismatches,
                           o.elements_checked, o.first_mismatch));
  for (const Expectation& e : o.expectations)
    line(fmt::format("  expect       {} = {}: {} ({})", e.figure, e.expected,
                     e.met() ? "met" : "NOT met", e.measured));
  for (const std::string& w : o.warnings) line("  warning      " + w);
  line(fmt::format("  verified     {}", !o.verified ? "n/a (nothing to check)"
                                         : *o.verified ? "yes"
                                                       : "NO"));
  if (!o.vcd_file.empty()) line("  waveform     " + o.vcd_file);
  if (!o.stats_file.empty()) line("  statistics   " + o.stats_file);
  return out;
}

}  // namespace mmsim
