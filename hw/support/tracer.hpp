// What the machine's modules hand their traced members to. Every module offers all its signals;
// the Tracer traces (sc_trace) those its selection takes and skips the others, so that a
// waveform of a few scopes costs only their signals. It records what it traced, with the
// widths GTKWave shows ("machine.warp_0.state[2:0]"), for the save file and the size estimate.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <vector>

namespace mmsim {

class Tracer {
 public:
  struct Signal {
    std::string name;  // hierarchical, as offered: "machine.memory.bank_0.entry_address"
    unsigned width;    // bits
  };
  // Whether a signal (by its hierarchical name) is traced; empty: every signal.
  using Selection = std::function<bool(const std::string& name)>;

  Tracer(sc_core::sc_trace_file* file, Selection selection)
      : file_(file), selection_(std::move(selection)) {}

  // Each returns whether the signal is traced, so that a module knows whether to keep it up to
  // date (a module none of whose signals is traced skips its update_trace).
  bool trace(const bool& value, const std::string& name) { return add(value, name, 1); }
  bool trace(const unsigned& value, const std::string& name, unsigned width = 32) {
    return add(value, name, width);
  }
  bool trace(const std::uint64_t& value, const std::string& name, unsigned width = 64) {
    return add(value, name, width);
  }
  bool trace(const sc_dt::sc_lv_base& value, const std::string& name) {
    return add(value, name, static_cast<unsigned>(value.length()));
  }

  const std::vector<Signal>& signals() const { return signals_; }

 private:
  template <class T>
  bool add(const T& value, const std::string& name, unsigned width) {
    if (selection_ && !selection_(name)) return false;
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, sc_dt::sc_lv_base>)
      sc_core::sc_trace(file_, value, name);
    else
      sc_core::sc_trace(file_, value, name, static_cast<int>(width));
    signals_.push_back({name, width});
    return true;
  }

  sc_core::sc_trace_file* file_;
  Selection selection_;
  std::vector<Signal> signals_;
};

}  // namespace mmsim
