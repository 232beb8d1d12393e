// mmsim._core: the simulator in Python (the package mmsim, testbench/python/mmsim, wraps it).
// It links libmmsim.so, the one copy of the core that the mmsim command and plugins share, and
// calls the same code as the command: the testbench loader, the runner, the sweep session.
// Importing it makes Python programs (program.file) loadable in this process.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <signal.h>

#include <optional>

#include "hw/dispatch/dispatch_policies.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "sw/program/program_error.hpp"
#include "sw/programs/catalogue.hpp"
#include "sw/support/suggest.hpp"
#include "testbench/outputs/remove_on_signal.hpp"
#include "testbench/python/python_address_map.hpp"
#include "testbench/python/python_policy.hpp"
#include "testbench/python/python_program.hpp"
#include "testbench/python/python_user_code.hpp"
#include "testbench/python/python_warp.hpp"
#include "testbench/run/report.hpp"
#include "testbench/run/run_folder.hpp"
#include "testbench/run/stats_json.hpp"
#include "testbench/sweeps/sweep_session.hpp"

namespace mmsim {
namespace py = pybind11;
namespace {

// Ctrl-C during a run, as Python's own handler takes it: the handler Python had for SIGINT is
// put back for the run (mmsim's, which removes unfinished outputs and ends the process, is for
// the command), and the run checks now and then whether it fired: then the run unwinds, its
// outputs removed, and KeyboardInterrupt is raised in the caller, the interpreter alive.
class PythonInterrupts {
 public:
  PythonInterrupts() {
    sigaction(SIGINT, nullptr, &python_);
    // mmsim's handlers are installed once, with the first output registered: now, rather than
    // in the middle of the run.
    { const RemoveOnSignal none(""); }
    sigaction(SIGINT, &python_, nullptr);
  }
  // What RunOptions::heartbeat calls.
  static void check() {
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }

 private:
  struct sigaction python_ {};
  InterruptsRaise raise_;
};

// One run, as `mmsim run` makes it, of the testbench file `testbench` or of its `text` (YAML
// named `testbench` in messages: no file is read or written); the statistics as their JSON text
// (json.loads makes the dict), the report as the command prints it.
py::dict run(const std::string& testbench, const std::optional<std::string>& text,
             const std::vector<std::string>& overrides, const std::string& stats,
             const std::string& vcd, const std::string& out_dir) {
  const PythonInterrupts interrupts;
  Testbench tb = text ? load_testbench_text(*text, testbench, overrides, ProgramSwitch::drops)
                      : load_testbench(testbench, overrides, ProgramSwitch::drops);
  RunOptions options;
  options.heartbeat = &PythonInterrupts::check;
  options.ask("stats", stats);
  options.ask("vcd", vcd);
  std::optional<OutputFolder> folder;
  if (!out_dir.empty()) {
    folder.emplace(out_dir, "out_dir");
    put_outputs_in(*folder, "out_dir", options, tb);
  }
  const RunOutcome outcome = run_testbench(tb, options);
  py::dict out;
  out["cycles"] = outcome.result.cycles();
  out["verified"] = outcome.verified ? py::object(py::bool_(*outcome.verified)) : py::none();
  out["stats"] = stats_json(outcome).dump();
  out["report"] = format_report(outcome);
  out["notes"] = tb.notes;
  return out;
}

// `mmsim sweep` with these options, quiet unless `verbose`: its exit status (invalid input
// raises).
int sweep(const std::string& file, const std::vector<std::string>& overrides,
          const std::string& jobs, const std::string& results, bool verbose) {
  SweepRequest request;
  request.sweep = file;
  request.overrides = overrides;
  request.jobs = jobs;
  request.results = results;
  request.quiet = !verbose;
  return execute_sweep(request);
}

py::list param_list(const std::vector<ParamSpec>& params) {
  py::list out;
  for (const ParamSpec& p : params) {
    py::dict entry;
    entry["name"] = p.name;
    entry["type"] = to_string(p.type);
    entry["default"] = p.default_value ? py::object(py::str(*p.default_value)) : py::none();
    entry["doc"] = p.help;
    out.append(entry);
  }
  return out;
}

void declare_lists(py::module_& m) {
  m.def("models", [] {
    py::list out;
    for (const MachineModel& model : machine_models())
      out.append(py::dict(py::arg("name") = model.name, py::arg("doc") = model.description,
                          py::arg("reference") = model.reference,
                          py::arg("hierarchical") = model.hierarchical));
    return out;
  });
  m.def("policies", [] {
    py::list out;
    for (const PolicyInfo& p : dispatch_policies())
      out.append(py::dict(py::arg("name") = p.name, py::arg("doc") = p.description));
    return out;
  });
  m.def("address_maps", [] {
    py::list out;
    for (const AddressMapInfo& a : address_maps())
      out.append(py::dict(py::arg("name") = a.name, py::arg("doc") = a.description));
    return out;
  });
  m.def("programs", [] {
    py::list out;
    for (const ProgramInfo& p : programs())
      out.append(py::dict(py::arg("name") = p.name, py::arg("doc") = p.summary,
                          py::arg("source") = p.source, py::arg("params") = param_list(p.params)));
    return out;
  });
}

// The command's errors as the package's exceptions (mmsim/_errors.py).
void translate_errors() {
  py::register_exception_translator([](std::exception_ptr failure) {
    const py::module_ errors = py::module_::import("mmsim._errors");
    try {
      std::rethrow_exception(failure);
    } catch (const InputError& e) {
      // A --set value is located by its assignment ("--set machine.latency=0"), not a file.
      const SourceLocation& at = e.where();
      const std::string set = "--set ";
      const bool assigned = at.file.starts_with(set);
      const py::object error = errors.attr("InputError")(
          assigned ? py::object(py::none()) : py::object(py::str(at.file)), at.line, at.column,
          std::string(e.what()),
          py::arg("assignment") =
              assigned ? py::object(py::str(at.file.substr(set.size()))) : py::object(py::none()));
      PyErr_SetObject(errors.attr("InputError").ptr(), error.ptr());
    } catch (const ProgramError& e) {
      PyErr_SetString(errors.attr("ProgramError").ptr(), e.what());
    } catch (const SimulationError& e) {
      PyErr_SetString(errors.attr("SimulationError").ptr(), e.what());
    }
  });
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "mmsim's simulator (use the package mmsim)";
  translate_errors();
  bind_warp(m);
  bind_program_support(m);
  declare_lists(m);
  m.def("run", &run, py::arg("testbench"), py::arg("text"), py::arg("overrides"), py::arg("stats"),
        py::arg("vcd"), py::arg("out_dir"));
  m.def("sweep", &sweep, py::arg("file"), py::arg("overrides"), py::arg("jobs"), py::arg("results"),
        py::arg("verbose"));
  m.def("suggestion", [](const std::string& name, const std::vector<std::string>& names) {
    return suggestion(name, names);
  });
  register_program_loader(ExternalProgram::Kind::python, load_python_program);
  bind_address_maps(m);
  bind_policies(m);
}

}  // namespace mmsim
