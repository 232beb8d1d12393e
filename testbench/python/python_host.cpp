// libmmsim_python.so: Python inside the mmsim command, started only when a testbench names a
// Python program (testbench/external/python_launcher.cpp opens this library then). It starts
// the interpreter (without its signal handlers: the command keeps its own) and imports the
// mmsim package, whose native module links the libmmsim.so already loaded: one simulator.
// Standard output is the command's (the report, or the statistics of --stats -): a program's
// print() goes to standard error.
#include <pybind11/embed.h>

#include <string>

namespace py = pybind11;

extern "C" [[gnu::visibility("default")]] const char* mmsim_python_start(
    const char* package_folder) {
  static std::string failure;
  try {
    if (!Py_IsInitialized()) py::initialize_interpreter(false);
    const py::module_ sys = py::module_::import("sys");
    sys.attr("path").attr("insert")(0, package_folder);
    sys.attr("stdout") = sys.attr("stderr");
    py::module_::import("mmsim");
    return nullptr;
  } catch (const std::exception& e) {
    failure = e.what();
    return failure.c_str();
  }
}
