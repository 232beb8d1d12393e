// What the Python code of one's own shares, whatever it is (a warp program, an address map): its
// class found in its file, the parameters it declares, and its exceptions as the simulator's
// located errors. mmsim._program checks the Python side (the same for every kind of class).
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "sw/program/external_program.hpp"
#include "sw/program/params.hpp"

namespace mmsim {

// While one lives (the Python API's run), a KeyboardInterrupt in the user's Python code ends
// the run as itself, to be raised in the caller's Python, rather than as the code's failure
// (in the mmsim command Python handles no signal: there it is only the code's own raise).
class InterruptsRaise {
 public:
  InterruptsRaise();
  ~InterruptsRaise();
  InterruptsRaise(const InterruptsRaise&) = delete;
  InterruptsRaise& operator=(const InterruptsRaise&) = delete;
  static bool active();
};

// A Python exception as the user reads it: the traceback (their files and lines), the error.
std::string traceback_text(pybind11::error_already_set& e);

// Rethrows `e` as it is where it must reach the caller's Python (Ctrl-C, InterruptsRaise), and
// as InputError at its place where it is mmsim.InputError (mmsim's checks of the user's code);
// returns for any other exception.
void rethrow_if_interrupt_or_input(pybind11::error_already_set& e);

// The subclass of `base` (mmsim.Program, mmsim.AddressMap) that `code` names in its file (the
// file imported once per version), or InputError: at the name when the file has no such class,
// at the file with the traceback when it cannot be imported.
pybind11::object load_user_class(const ExternalProgram& code, const pybind11::object& base);

// Every subclass of `base` in code's file, by name, or InputError at the file as above.
pybind11::dict user_classes(const ExternalProgram& code, const pybind11::object& base);

// The parameters `cls` declares in its `params`, checked (InputError at the user's line; at
// the testbench's name of `code` when reading them raises).
std::vector<ParamSpec> declared_params(const pybind11::object& cls, const ExternalProgram& code);

// The first line of the class's docstring ("" without one).
std::string class_summary(const pybind11::object& cls);

// A parameter's value as Python gets it.
pybind11::object param_object(const ParamValues& values, const ParamSpec& spec);

// repr(value), cut short (200 characters) for messages.
std::string short_repr(const pybind11::handle& value);

}  // namespace mmsim
