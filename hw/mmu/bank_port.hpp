// A port of a memory bank beside its first, where banks have k > 1 ports (machine.ports), as
// waveforms show it: the bank's signals (BankSignals) for port j, named below the bank,
// `bank_b.port_j.entry_valid`, `_address`, `completion_valid`, `_address`.
#pragma once

#include <string>
#include <utility>

#include "hw/memory/memory_bank.hpp"
#include "hw/support/tracer.hpp"

namespace mmsim {

class BankPort : public BankSignals {
 public:
  // `name`: hierarchical ("machine.memory.bank_3.port_1"); `cells`: the memory's (its addresses'
  // width).
  BankPort(std::string name, std::uint64_t cells) : BankSignals(cells), name_(std::move(name)) {}

  bool trace(Tracer& tracer) { return trace_as(tracer, name_); }

 private:
  std::string name_;
};

}  // namespace mmsim
