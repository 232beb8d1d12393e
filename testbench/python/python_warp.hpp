// What a Python warp program sees of its warp (the C++ Warp's face in Python, hw/pe/warp.hpp):
// its place in the machine, its registers and local memory, and the instructions it yields.
// warp.read(...) and friends check their lanes at once, so that a wrong address or value raises
// at the user's own line; PythonProgram (python_program.hpp) issues what the generator yields.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <vector>

#include "hw/pe/warp.hpp"

namespace mmsim {

// One instruction a Python program yields.
struct PythonInstruction {
  enum class Kind : std::uint8_t { read, write, sync, grid_sync };
  Kind kind = Kind::read;
  Space space = Space::global;
  std::vector<Address> addresses;  // kInactive: an inactive lane
  std::vector<Word> values;        // writes; empty: each lane's register
};

// The words of each memory space a warp may address (the machine as resolved for the run).
struct MemoryLimits {
  std::uint64_t global = 0;
  std::uint64_t shared = 0;
};

class PythonWarp {
 public:
  PythonWarp(Warp& warp, const MemoryLimits& limits) : warp_(warp), limits_(limits) {}
  Warp& warp() { return warp_; }
  const MemoryLimits& limits() const { return limits_; }

 private:
  Warp& warp_;
  MemoryLimits limits_;
};

// An instruction as Python holds it: an opaque capsule (cheaper to make than a class instance:
// one per instruction a program yields), and the instruction a yielded object holds (nullptr:
// it is no instruction).
pybind11::object instruction_object(PythonInstruction instruction);
const PythonInstruction* instruction_of(pybind11::handle object);

// Declares PythonWarp in the module.
void bind_warp(pybind11::module_& module);

}  // namespace mmsim
