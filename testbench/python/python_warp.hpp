// What a Python warp program sees of its warp (the C++ Warp's face in Python, hw/pe/warp.hpp):
// its place in the machine, its registers and local memory, and the instructions it yields.
// warp.read(...) and friends check their lanes at once, so that a wrong address or value raises
// at the user's own line; PythonProgram (python_program.hpp) issues what the generator yields.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "hw/pe/site.hpp"
#include "hw/pe/warp.hpp"

namespace mmsim {

// One instruction a Python program yields.
struct PythonInstruction {
  enum class Kind : std::uint8_t { read, write, sync, grid_sync };
  Kind kind = Kind::read;
  Space space = Space::global;
  std::vector<Address> addresses;  // kInactive: an inactive lane
  std::vector<Word> values;        // writes; empty: each lane's register
  const Site* site = nullptr;      // the line of the program that made it
};

// The sites of a Python program's instructions (hw/pe/site.hpp): the file, line and function
// of the Python code that makes each one (the line of `yield warp.read(...)`), one Site per
// line, owned here for the whole run.
class PythonSites {
 public:
  // The site of the Python line running now.
  const Site& current();

 private:
  struct Place {
    pybind11::object code;  // held: its address keys the place
    std::string file;
    std::string label;
    Site site;
  };
  // A place by the frame's code and instruction offset (no line-table search), and by its code
  // and line (one Site per line).
  struct Seen {
    PyObject* code;
    int offset;
    Place* place;
  };
  Place& place(const pybind11::object& code, int line);
  std::unordered_map<std::uint64_t, Seen> by_offset_;
  std::unordered_map<std::uint64_t, Place*> by_line_;
  std::deque<Place> places_;
};

// The words of each memory space a warp may address (the machine as resolved for the run).
struct MemoryLimits {
  std::uint64_t global = 0;
  std::uint64_t shared = 0;
};

class PythonWarp {
 public:
  PythonWarp(Warp& warp, const MemoryLimits& limits, PythonSites& sites)
      : warp_(warp), limits_(limits), sites_(sites) {}
  Warp& warp() { return warp_; }
  const MemoryLimits& limits() const { return limits_; }
  PythonSites& sites() { return sites_; }

 private:
  Warp& warp_;
  MemoryLimits limits_;
  PythonSites& sites_;
};

// An instruction as Python holds it: an opaque capsule (cheaper to make than a class instance:
// one per instruction a program yields), and the instruction a yielded object holds (nullptr:
// it is no instruction).
pybind11::object instruction_object(PythonInstruction instruction);
const PythonInstruction* instruction_of(pybind11::handle object);

// Declares PythonWarp in the module.
void bind_warp(pybind11::module_& module);

}  // namespace mmsim
