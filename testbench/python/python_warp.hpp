// What a Python warp program sees of its warp (the C++ Warp's face in Python, hw/pe/warp.hpp):
// its place in the machine, its registers and local memory, and the instructions it yields.
// warp.read(...) and friends check their lanes at once, so that a wrong address or value raises
// at the user's own line; PythonProgram (python_program.hpp) issues what the generator yields.
// The warp and its instructions are CPython types written against the C API (METH_FASTCALL,
// numpy's C API), not pybind11 classes: they run once per instruction a program yields, where
// pybind11's generic dispatch and numpy's Python-level calls would cost more than the simulator
// (docs/own_programs.md, "Speed").
#pragma once

#include <pybind11/pybind11.h>

#include <array>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <unordered_map>

#include "hw/pe/lane_run.hpp"
#include "hw/pe/site.hpp"
#include "hw/pe/warp.hpp"

namespace mmsim {

// One instruction a Python program yields, as the warp issues it: one warp instruction, or
// (warp.reads, warp.writes) a batch of `rounds` of them, issued one after the other. Its lanes
// live in the Python object it was read from (instruction_of), which the caller holds while it
// is issued.
struct PythonInstruction {
  enum class Kind : std::uint8_t { read, write, sync, grid_sync };
  const PyObject* warp = nullptr;  // the Python warp that made it (PythonWarp::object)
  unsigned warp_index = 0;
  Kind kind = Kind::read;
  Space space = Space::global;
  bool batch = false;      // warp.reads / warp.writes: the yield gets a table
  bool runs = false;       // every round a run (lane i addresses first + i): one address each
  std::size_t rounds = 1;  // warp instructions (a batch's may be 0)
  unsigned lanes = 0;      // per round
  // rounds x lanes (kInactive: an inactive lane), or with runs each round's first address
  std::span<const Address> addresses;
  std::span<const Word> values;  // writes, rounds x lanes; empty: each lane's register
  const Site* site = nullptr;    // the line of the program that made it

  std::span<const Address> round_addresses(std::size_t round) const {
    return addresses.subspan(round * lanes, lanes);
  }
  LaneRun round_run(std::size_t round) const { return LaneRun{addresses[round]}; }
  std::span<const Word> round_values(std::size_t round) const {
    return values.subspan(round * lanes, lanes);
  }
};

// The instruction a yielded object holds; false: it is no instruction.
bool instruction_of(PyObject* object, PythonInstruction& instruction);

// Whether the program of the warp whose Python object this is has ended.
bool warp_ended(const PyObject* warp);

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
    PyObject* code = nullptr;
    int offset = 0;
    Place* place = nullptr;
  };
  Place& place(const pybind11::object& code, int line);
  Seen last_;  // the last place asked for: a loop's yield asks for the same one every time
  std::unordered_map<std::uint64_t, Seen> by_offset_;
  std::unordered_map<std::uint64_t, Place*> by_line_;
  std::deque<Place> places_;
};

class PythonWarp;

// Where the rounds of a batch's table of values go (ValueArrays::table), and how.
struct TableRows {
  Word* cells = nullptr;      // round 0's row
  std::size_t row_words = 0;  // from a row to the next
  // Written past the caches: rows too many to be still there when the program reads them
  // (whole cache lines of them, so that none is read before it is written).
  bool stream = false;
  // Writes round `round`'s values.
  void fill(std::size_t round, std::span<const Word> values) const;
  // After the last round: the rows written past the caches are in memory.
  void done() const;
};

// The numpy arrays that the yields of reads return. An array the program has let go of (no
// reference left but mmsim's) is filled again rather than a new one made.
//
// A read's values come from spares shared by a program's warps: the array the last warp let go
// of is still in the cache, where one of each warp's own would not be (warps take turns, a
// thousand of them between two turns of one). A batch's table is held until its last round
// completes, so that every warp has one in flight at once: the tables are views of one block
// of rows, row r of every warp's table side by side, so that the warps, taking turns, fill
// them as one stream (tables of their own, a page apart, each filled a row at a time, ran
// at half the rate with batches of 64 rounds); many rows are written past the caches
// (TableRows). A warp's table is its own while the program holds it or anything made
// from it (a row, a view); a batch of more rounds than the block holds, or one made while the
// warp's last table is held, gets a table of its own.
class ValueArrays {
 public:
  // What the yield of a read returns: a numpy array of the values read.
  pybind11::object values(std::span<const Word> got);
  // What the yield of a batch of reads of `warp` returns: a rounds x width numpy array of
  // int64, whose rows `rows` fills as the rounds complete.
  pybind11::object table(PythonWarp& warp, std::size_t rounds, TableRows& rows);

 private:
  // The block of rows, made at the first batch: `capacity` rows of every warp's lanes.
  void make_rows(std::size_t warps, unsigned width);

  // Several: `v = yield warp.read(...)` in one warp still holds its array while other warps
  // read.
  std::array<pybind11::object, 4> spare_;
  unsigned next_spare_ = 0;
  pybind11::object rows_;  // owns the block (a capsule); each warp's slot holds it
  Word* rows_data_ = nullptr;
  std::size_t capacity_ = 0;   // rows
  std::size_t row_words_ = 0;  // words from a row of a table to the next: warps x width
};

// A warp's part of the tables of batches (ValueArrays::table): the object that its tables'
// words belong to (the base of every view of them, so that it is free exactly when nothing
// else refers to it), and its last table.
struct TableSlot {
  pybind11::object owner;
  pybind11::object last;
};

// The words of each memory space a warp may address (the machine as resolved for the run).
struct MemoryLimits {
  std::uint64_t global = 0;
  std::uint64_t shared = 0;
};

// One warp's Python face (the type mmsim._core.Warp) for as long as its program runs: made when
// the program starts, cut off from the C++ warp when it ends (a warp kept beyond its run raises).
class PythonWarp {
 public:
  PythonWarp(Warp& warp, const MemoryLimits& limits, PythonSites& sites,
             ValueArrays& arrays);
  ~PythonWarp();
  PythonWarp(const PythonWarp&) = delete;
  PythonWarp& operator=(const PythonWarp&) = delete;

  Warp& warp() { return warp_; }
  const MemoryLimits& limits() const { return limits_; }
  PythonSites& sites() { return sites_; }
  // The Python object run(warp) receives.
  const pybind11::object& object() const { return object_; }
  // An instruction of this warp's was dropped without being yielded (the first one kept).
  void forgot(const Site& site) {
    if (forgotten_ == nullptr) forgotten_ = &site;
  }
  const Site* forgotten() const { return forgotten_; }
  // What the yields of reads return (ValueArrays).
  ValueArrays& arrays() { return arrays_; }
  TableSlot& table_slot() { return table_slot_; }

 private:
  Warp& warp_;
  MemoryLimits limits_;
  PythonSites& sites_;
  pybind11::object object_;
  ValueArrays& arrays_;
  TableSlot table_slot_;
  const Site* forgotten_ = nullptr;
};

// Declares the types Warp and Instruction in the module (and loads numpy's C API).
void bind_warp(pybind11::module_& module);

}  // namespace mmsim
