// SystemC writes a waveform itself, with stdio whose errors nobody sees, to a file name it makes
// up (base + ".vcd"). So that every byte of it goes through a PendingFile (checked writes, a
// temporary, the target's own rules), SystemC writes into a FIFO in a private temporary folder
// and a thread copies what comes out of it into the PendingFile: idle values shortened
// (VcdCompactor), cut down to the waveform's window of cycles (VcdWindow), and through
// GTKWave's converter for FST and LXT2 (WaveformConverter).
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "testbench/outputs/pending_file.hpp"
#include "testbench/outputs/remove_on_signal.hpp"
#include "testbench/waveforms/vcd_window.hpp"
#include "testbench/waveforms/waveform_converter.hpp"

namespace mmsim {

// What the pipe lets through: at most `limit` bytes of VCD (after the window's cut, before a
// converter), `refusal` the message past it.
struct WaveformLimit {
  std::uint64_t bytes = ~std::uint64_t{0};
  std::string refusal;
};

class WaveformPipe {
 public:
  // Throws InputError at `where` when the FIFO (or the converter) cannot be made.
  WaveformPipe(PendingFile& file, const SourceLocation& where, TimeWindow window = {},
               WaveformFormat format = WaveformFormat::vcd, WaveformLimit limit = {});
  // Ends the copy (SystemC must have closed its trace file: the Simulation is destroyed first).
  ~WaveformPipe();
  WaveformPipe(const WaveformPipe&) = delete;
  WaveformPipe& operator=(const WaveformPipe&) = delete;

  // The name to give SystemC (SimulationOptions::vcd_base).
  const std::string& systemc_base() const { return base_; }
  // Once SystemC has closed its trace file: waits for the copy to end and throws the
  // PendingFile's InputError if a write failed.
  void finish();
  // While the run goes: throws InputError once the waveform has passed its limit (the copy
  // then drops the rest, so that SystemC never blocks), to end a run that has no end.
  void check() const;

 private:
  void copy();
  void stop();
  void send(std::string_view vcd);

  PendingFile& file_;
  SourceLocation where_;
  std::string folder_;
  std::string base_;
  std::string fifo_;
  RemoveOnSignal remove_folder_;
  RemoveOnSignal remove_fifo_;
  int read_end_ = -1;
  int held_write_end_ = -1;  // keeps the FIFO open until finish(), whenever SystemC opens it
  std::optional<VcdWindow> window_;               // none: the whole run
  std::unique_ptr<WaveformConverter> converter_;  // none: VCD into the file itself
  std::thread copier_;
  std::exception_ptr failure_;
  WaveformLimit limit_;
  std::uint64_t sent_ = 0;                // bytes of VCD let through
  std::atomic<bool> over_limit_ = false;  // set by the copy, read by check()
};

}  // namespace mmsim
