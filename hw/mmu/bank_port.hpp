// A port of a memory bank beside its first, where banks have k > 1 ports (machine.ports), as
// waveforms show it: the request the port serves in the stage group entering and in the one
// completing this cycle. A bank's own signals (MemoryBank) are its port 0; port j's are named
// below the bank, `bank_b.port_j.entry_valid`, `_address`, `completion_valid`, `_address`.
#pragma once

#include <algorithm>
#include <bit>
#include <string>

#include "hw/memory/memory_bank.hpp"
#include "hw/support/traced_value.hpp"
#include "hw/support/tracer.hpp"

namespace mmsim {

class BankPort {
 public:
  // `name`: hierarchical ("machine.memory.bank_3.port_1"); `cells`: the memory's (its addresses'
  // width).
  BankPort(std::string name, std::uint64_t cells)
      : name_(std::move(name)),
        entry_address_(address_bits(cells)),
        completion_address_(address_bits(cells)) {}

  MemoryBank::Activity entering;
  MemoryBank::Activity completing;

  bool trace(Tracer& tracer) {
    bool any = tracer.trace(entering.valid, name_ + ".entry_valid");
    any |= tracer.trace(entry_address_.bits(), name_ + ".entry_address");
    any |= tracer.trace(completing.valid, name_ + ".completion_valid");
    any |= tracer.trace(completion_address_.bits(), name_ + ".completion_address");
    return any;
  }
  void update_trace() {
    entry_address_.set(entering.valid, entering.address);
    completion_address_.set(completing.valid, completing.address);
  }

 private:
  static unsigned address_bits(std::uint64_t cells) {
    return std::max(1u, static_cast<unsigned>(std::bit_width(cells - 1)));
  }

  std::string name_;
  TracedValue entry_address_;
  TracedValue completion_address_;
};

}  // namespace mmsim
