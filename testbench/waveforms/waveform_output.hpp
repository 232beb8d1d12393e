// A run's waveform as it will be written: outputs.vcd with the --vcd options applied (each
// option replaces its key: asked_output.hpp), its format by extension, its window of cycles, its
// scopes, its GTKWave view, and the size check made before the run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "testbench/input/testbench.hpp"
#include "testbench/outputs/asked_output.hpp"
#include "testbench/outputs/pending_file.hpp"
#include "testbench/waveforms/gtkwave_view.hpp"
#include "testbench/waveforms/vcd_window.hpp"
#include "testbench/waveforms/waveform_converter.hpp"
#include "testbench/waveforms/waveform_pipe.hpp"

namespace mmsim {

// Refused beyond this many bytes of VCD unless outputs.vcd.limit or --vcd-limit says more.
inline constexpr std::uint64_t kDefaultWaveformLimit = std::uint64_t{1} << 30;
// Estimates above this are printed before the run.
inline constexpr std::uint64_t kWaveformNotice = std::uint64_t{64} << 20;
// Bytes of VCD per traced signal and traced cycle, measured on a busy workload: the naive
// transpose on the DMM at n = 2^22 (226 signals, 4456464 cycles, 1.09 GB: docs/waveforms.md).
inline constexpr double kVcdBytesPerSignalCycle = 1.1;

struct WaveformPlan {
  NamedFile file;  // no path: no waveform
  WaveformFormat format = WaveformFormat::vcd;
  TimeWindow window;
  std::vector<std::string> scopes;
  std::vector<SourceLocation> scope_where;  // each pattern's place
  std::uint64_t limit = kDefaultWaveformLimit;
  std::optional<GtkwaveViewPlace> view;       // none for a device or a FIFO
  std::vector<NamedFile> view_files() const;  // the save file and its filters
};

// The waveform `asked` (outputs.vcd with the --vcd options over it). Throws InputError for an
// option or key that is not valid (from after to, a converter that is not installed, an option
// without a waveform).
WaveformPlan plan_waveform(const AskedOutput& asked);

// The plan's limit, enforced while the waveform is written (a run with no end).
WaveformLimit waveform_limit(const WaveformPlan& plan);

// A run's cycles before it runs, from the program's bounds on time.
struct WaveformCycles {
  std::uint64_t at_least = 0;  // its lower bound (or exact figure)
  std::uint64_t likely = 0;    // the papers' order with constant 1, where more
};

struct WaveformEstimate {
  std::uint64_t signals = 0;
  std::uint64_t cycles = 0;         // traced cycles at least: the window's part of the run
  std::uint64_t likely_cycles = 0;  // by the order bound
  double bytes = 0;                 // at least
  double likely_bytes = 0;
};
WaveformEstimate estimate_waveform(std::uint64_t signals, const WaveformCycles& run,
                                   const TimeWindow& window);
// Prints the estimate on stderr when it is large; throws InputError (exit status 2) when its
// likely figure is past the limit, saying how to narrow the waveform.
void check_waveform_size(const WaveformPlan& plan, const WaveformEstimate& estimate);

}  // namespace mmsim
