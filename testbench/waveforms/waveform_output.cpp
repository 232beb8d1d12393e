#include "testbench/waveforms/waveform_output.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "testbench/input/memory_budget.hpp"

namespace mmsim {
namespace {

constexpr const char* kNarrowTheWaveform =
    "narrow it to a window of cycles (outputs.vcd: {file, from, to}, or --vcd-from and --vcd-to) "
    "or to some scopes (outputs.vcd.scopes, or --vcd-scope, e.g. 'machine.warp_[0-3]' "
    "'machine.memory.bank_*'), or raise the limit (outputs.vcd.limit, or --vcd-limit)";

// A regular file, a link to one, or a new file gets a save file beside it; a device or a FIFO
// does not.
bool gets_view(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) != 0 || S_ISREG(info.st_mode);
}

}  // namespace

std::vector<NamedFile> WaveformPlan::view_files() const {
  std::vector<NamedFile> files;
  if (!view) return files;
  const std::vector<std::filesystem::path> paths = gtkwave_view_paths(*view);
  for (std::size_t i = 0; i < paths.size(); ++i)
    files.push_back({paths[i].string(), file.where,
                     (i == 0 ? "the GTKWave save file of " : "a GTKWave filter of ") + file.role});
  return files;
}

WaveformPlan plan_waveform(const AskedOutput& asked) {
  asked.check();
  WaveformPlan plan;
  plan.file = asked.file();
  plan.window = asked.window();
  const auto limit = asked.limit();
  plan.limit = limit ? limit->value : kDefaultWaveformLimit;
  for (const Located<std::string>& scope : asked.scopes()) {
    plan.scopes.push_back(scope.value);
    plan.scope_where.push_back(scope.where);
  }
  if (plan.file.path.empty()) return plan;
  plan.format = waveform_format(plan.file.path);
  check_converter(plan.format, plan.file.where);
  if (gets_view(plan.file.path)) plan.view = gtkwave_view_place(plan.file.path);
  return plan;
}

WaveformLimit waveform_limit(const WaveformPlan& plan) {
  return {plan.limit, "this waveform passed the limit of " + format_bytes(plan.limit) +
                          " of VCD while the run went on: " + kNarrowTheWaveform};
}

WaveformEstimate estimate_waveform(std::uint64_t signals, const WaveformCycles& run,
                                   const TimeWindow& window) {
  const auto traced = [&](std::uint64_t cycles) {
    return std::max<std::uint64_t>(window.kept(cycles), 1);
  };
  WaveformEstimate e;
  e.signals = signals;
  e.cycles = traced(run.at_least);
  e.likely_cycles = traced(run.likely);
  e.bytes = static_cast<double>(signals) * static_cast<double>(e.cycles) * kVcdBytesPerSignalCycle;
  e.likely_bytes =
      static_cast<double>(signals) * static_cast<double>(e.likely_cycles) * kVcdBytesPerSignalCycle;
  return e;
}

void check_waveform_size(const WaveformPlan& plan, const WaveformEstimate& e) {
  const auto bytes = static_cast<std::uint64_t>(e.bytes);
  const auto likely = static_cast<std::uint64_t>(e.likely_bytes);
  std::string what =
      fmt::format("about {} ({} signals x {} cycles x {} bytes", format_bytes(likely), e.signals,
                  e.likely_cycles, kVcdBytesPerSignalCycle);
  what += likely > bytes ? fmt::format(
                               "; the cycles by the order bound, at least {} by the "
                               "lower bound: {})",
                               e.cycles, format_bytes(bytes))
                         : ")";
  if (likely > plan.limit)
    throw InputError(plan.file.where,
                     fmt::format("this waveform would take {} of VCD, more than the limit of {}: "
                                 "{}",
                                 what, format_bytes(plan.limit), kNarrowTheWaveform));
  if (likely > kWaveformNotice)
    std::fprintf(stderr, "mmsim: the waveform will take %s of VCD (limit %s)\n", what.c_str(),
                 format_bytes(plan.limit).c_str());
}

}  // namespace mmsim
