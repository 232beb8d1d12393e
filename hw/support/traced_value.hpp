// A traced value that belongs to a valid flag (the address a bank serves, the unit a dispatch
// comes from): the value while valid, high impedance (z) while idle, so that an idle entry
// never reads as address 0 or unit 0 in a waveform. Only tracing code touches it.
#pragma once

#include <cstdint>
#include <systemc>

namespace mmsim {

class TracedValue {
 public:
  explicit TracedValue(unsigned width) : bits_(sc_dt::SC_LOGIC_Z, static_cast<int>(width)) {}

  void set(bool valid, std::uint64_t value) {
    if (valid == valid_ && (!valid || value == value_)) return;  // SystemC compares every cycle
    valid_ = valid;
    value_ = value;
    if (valid)
      bits_ = value;
    else
      bits_ = sc_dt::sc_lv_base(sc_dt::SC_LOGIC_Z, bits_.length());
  }

  const sc_dt::sc_lv_base& bits() const { return bits_; }

 private:
  sc_dt::sc_lv_base bits_;
  bool valid_ = false;
  std::uint64_t value_ = 0;
};

}  // namespace mmsim
