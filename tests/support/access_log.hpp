// Every access as the memories saw it, one line per warp instruction (an AccessObserver for
// tests that compare two runs' accesses).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "hw/mmu/mmu.hpp"

namespace mmsim::test {

class AccessLog final : public AccessObserver {
 public:
  void access(const MemoryAccess& a, std::span<const Address> addresses) override {
    std::string line = std::to_string(a.memory) + " " + std::to_string(a.warp) + " " +
                       std::to_string(static_cast<int>(a.kind)) + " pc " + std::to_string(a.pc) +
                       " epoch " + std::to_string(a.epoch) + " at " + std::to_string(a.completion) +
                       ":";
    for (const Address address : addresses) line.append(" ").append(std::to_string(address));
    lines.push_back(line);
  }
  std::vector<std::string> lines;
};

}  // namespace mmsim::test
