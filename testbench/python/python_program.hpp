// A warp program written in Python (a subclass of mmsim.Program, docs/own_programs.md) as the
// machine runs it: a WarpProgram whose coroutine drives, for each warp, the generator that the
// class's run(warp) returns, issuing each instruction it yields through the C++ Warp exactly as
// a built-in program's co_await does. Every model, policy, address map, the race checker,
// waveforms, statistics, the report and expect see no difference.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "sw/program/external_program.hpp"

namespace mmsim {

// The program.file loader: the class `program.name` of the Python file, as a catalogue entry
// (its parameters from the class's `params`).
std::shared_ptr<const ProgramInfo> load_python_program(const ExternalProgram& program);

// Declares Memory and Verification (what initialize, verify and check receive) in the module.
void bind_program_support(pybind11::module_& module);

}  // namespace mmsim
