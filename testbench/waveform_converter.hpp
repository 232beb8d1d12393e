// Compact waveforms: FST and LXT2, GTKWave's own formats, chosen by the output's extension.
// Debian packages no library that writes them, so mmsim streams its VCD into GTKWave's
// converters (vcd2fst, vcd2lxt2, Debian package gtkwave): the converter reads the VCD on its
// standard input and writes into the waveform's private folder, and the result is then copied
// into the output's PendingFile like any other output.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "sw/program/input_error.hpp"
#include "testbench/pending_file.hpp"
#include "testbench/remove_on_signal.hpp"

namespace mmsim {

enum class WaveformFormat { vcd, fst, lxt2 };

// By the file's extension: .fst, .lxt2, anything else VCD.
WaveformFormat waveform_format(const std::filesystem::path& file);
const char* to_string(WaveformFormat format);

// Throws InputError at `where` when the converter a format needs is not installed.
void check_converter(WaveformFormat format, const SourceLocation& where);

class WaveformConverter {
 public:
  // Starts the converter of `format` (fst or lxt2), writing into `folder`.
  WaveformConverter(WaveformFormat format, const std::string& folder, const SourceLocation& where);
  // Kills a converter still running, removes its files.
  ~WaveformConverter();
  WaveformConverter(const WaveformConverter&) = delete;
  WaveformConverter& operator=(const WaveformConverter&) = delete;

  // Sends VCD text to the converter (throws InputError when it has stopped reading).
  void write(std::string_view vcd);
  // Ends the input, waits for the converter and copies its result into `file` (throws
  // InputError when the converter failed, with what it said).
  void finish(PendingFile& file);

 private:
  [[noreturn]] void fail(const std::string& what) const;

  WaveformFormat format_;
  SourceLocation where_;
  std::string output_;
  std::string log_;
  std::unique_ptr<RemoveOnSignal> remove_output_;
  std::unique_ptr<RemoveOnSignal> remove_log_;
  int input_ = -1;
  pid_t pid_ = -1;
  std::unique_ptr<EndOnSignal> end_on_signal_;  // while the converter runs
};

}  // namespace mmsim
