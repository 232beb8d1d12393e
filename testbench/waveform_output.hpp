// A run's waveform as it will be written: outputs.vcd with the --vcd options applied (each
// option replaces its key), its format by extension, its window of cycles, its scopes, its
// GTKWave view, and the size check made before the run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "testbench/gtkwave_view.hpp"
#include "testbench/pending_file.hpp"
#include "testbench/testbench.hpp"
#include "testbench/waveform_converter.hpp"
#include "testbench/waveform_pipe.hpp"

namespace mmsim {

// Refused beyond this many bytes of VCD unless outputs.vcd.limit or --vcd-limit says more.
inline constexpr std::uint64_t kDefaultWaveformLimit = std::uint64_t{1} << 30;
// Estimates above this are printed before the run.
inline constexpr std::uint64_t kWaveformNotice = std::uint64_t{64} << 20;
// Bytes of VCD per traced signal and traced cycle, measured on the busiest workload we have
// (the naive transpose on the DMM, every bank busy every cycle: README, "Waveforms").
inline constexpr double kVcdBytesPerSignalCycle = 1.0;

struct WaveformPlan {
  NamedFile file;  // no path: no waveform
  WaveformFormat format = WaveformFormat::vcd;
  WaveformWindow window;
  SourceLocation window_where;
  std::vector<std::string> scopes;
  std::vector<SourceLocation> scope_where;  // each pattern's place
  std::uint64_t limit = kDefaultWaveformLimit;
  std::string limit_name;                     // "outputs.vcd.limit" or "--vcd-limit"
  std::optional<GtkwaveViewPlace> view;       // none for a device or a FIFO
  std::vector<NamedFile> view_files() const;  // the save file and its filters
};

// Throws InputError for an option or key that is not valid (from after to, a negative cycle,
// a converter that is not installed).
WaveformPlan plan_waveform(const Testbench& tb, const std::string& vcd_option,
                           const WaveformOptions& options);

struct WaveformEstimate {
  std::uint64_t signals = 0;
  std::uint64_t cycles = 0;  // traced cycles: the run's (at least its lower bound) in the window
  double bytes = 0;
};
// The cycles of the run come from the program's bounds on time (its lower bound, or its exact
// figure), `run_cycles`; the window then keeps at most to - from + 1 of them.
WaveformEstimate estimate_waveform(std::uint64_t signals, std::uint64_t run_cycles,
                                   const WaveformWindow& window);
// Prints the estimate on stderr when it is large; throws InputError (exit status 2) past the
// limit, saying how to narrow the waveform.
void check_waveform_size(const WaveformPlan& plan, const WaveformEstimate& estimate);

}  // namespace mmsim
