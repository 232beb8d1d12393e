#include "testbench/python/python_policy.hpp"

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>
#include <tuple>
#include <vector>

#include "sw/program/program_error.hpp"
#include "testbench/input/own_policies.hpp"
#include "testbench/python/python_own_code.hpp"

namespace mmsim {
namespace py = pybind11;
namespace {

py::object policy_class() { return py::module_::import("mmsim._policy").attr("Policy"); }

std::string listed(std::span<const UnitId> units) {
  std::string text = "[";
  for (std::size_t i = 0; i < units.size() && i < 16; ++i)
    text += (i ? ", " : "") + std::to_string(units[i]);
  return text + (units.size() > 16 ? ", ...]" : "]");
}

// One memory's Python policy: its choose(time, ready) called through the C API (no pybind11
// conversions on the way), `ready` a new list at each call (the user may keep or change it) of
// ints made once per unit, so that a call costs a pointer per ready unit.
class PythonPolicy final : public OwnPolicy {
 public:
  PythonPolicy(py::object instance, const OwnPolicyCode& code, const OwnCodeRef& ref, UnitId units)
      : instance_(std::move(instance)),
        choose_(instance_.attr("choose")),
        name_(code.name),
        site_(code.site),
        key_(ref.key),
        where_(ref.where),
        units_(units),
        numbers_(units) {}
  ~PythonPolicy() override {
    if (since_given_) PyObject_SetAttrString(instance_.ptr(), "_since", Py_None);
    PyErr_Clear();  // only if Python itself is failing: nothing to undo
  }
  PythonPolicy(const PythonPolicy&) = delete;
  PythonPolicy& operator=(const PythonPolicy&) = delete;

  UnitId choose(Cycle time, std::span<const UnitId> ready) override {
    if (!since_given_) give_since();
    const py::object now = py::reinterpret_steal<py::object>(PyLong_FromUnsignedLongLong(time));
    const py::object units =
        py::reinterpret_steal<py::object>(PyList_New(static_cast<Py_ssize_t>(ready.size())));
    if (!now || !units) throw py::error_already_set();
    for (std::size_t i = 0; i < ready.size(); ++i) {
      PyObject* unit = number(ready[i]).ptr();
      Py_INCREF(unit);
      PyList_SET_ITEM(units.ptr(), static_cast<Py_ssize_t>(i), unit);
    }
    PyObject* args[] = {now.ptr(), units.ptr()};
    const py::object chosen =
        py::reinterpret_steal<py::object>(PyObject_Vectorcall(choose_.ptr(), args, 2, nullptr));
    if (!chosen) {
      py::error_already_set e;
      rethrow_if_interrupt_or_input(e);
      throw ProgramError(fmt::format("{}: {}.choose({}, {}) raised an exception:\n{}", key_, name_,
                                     time, listed(ready), traceback_text(e)));
    }
    if (chosen.is_none()) return kNoUnit;
    const auto refuse = [&](const std::string& problem) {
      throw InputError(
          where_, fmt::format("{}: {}: {}.choose({}, {}) returned {}: {}", key_, site_, name_, time,
                              listed(ready), short_repr(chosen), problem));
    };
    if (PyBool_Check(chosen.ptr()) || !PyIndex_Check(chosen.ptr()))
      refuse("expected one of the ready units (an int) or None");
    int overflow = 0;
    const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(chosen.ptr()));
    const long long unit = index ? PyLong_AsLongLongAndOverflow(index.ptr(), &overflow) : -1;
    if (!index) PyErr_Clear();
    if (!index || overflow != 0 || unit < 0 || unit >= static_cast<long long>(units_))
      refuse(fmt::format("not a unit of this machine (0 .. {})", units_ - 1));
    return static_cast<UnitId>(unit);
  }

 private:
  // The int of unit `u`, made once: a call's list only points at them.
  const py::object& number(UnitId u) {
    py::object& made = numbers_[u];
    if (!made) {
      made = py::reinterpret_steal<py::object>(PyLong_FromUnsignedLong(u));
      if (!made) throw py::error_already_set();
    }
    return made;
  }

  // self._since: a read-only numpy view of the times the units became ready (Policy.since).
  void give_since() {
    const std::span<const Cycle> times = since_times();
    const py::capsule owner(times.data(), [](void*) {});  // the view owns nothing
    py::array_t<Cycle> view(static_cast<py::ssize_t>(times.size()), times.data(), owner);
    view.attr("setflags")(py::arg("write") = false);
    instance_.attr("_since") = view;
    since_given_ = true;
  }

  py::object instance_;
  py::object choose_;  // the instance's bound choose
  std::string name_;
  std::string site_;
  std::string key_;
  SourceLocation where_;
  UnitId units_;
  std::vector<py::object> numbers_;  // by unit
  bool since_given_ = false;
};

// An instance of `cls` with what mmsim sets before its __init__: memory, units, seed, params.
py::object policy_instance(const py::object& cls, const OwnPolicyCode& code,
                           const OwnPolicyArgs& args, const ParamValues& params) {
  py::object instance = cls.attr("__new__")(cls);
  instance.attr("memory") = args.memory;
  instance.attr("units") = py::module_::import("builtins")
                               .attr("range")(args.first, std::uint64_t{args.first} + args.count);
  instance.attr("seed") = args.seed;
  for (const ParamSpec& spec : code.params)
    instance.attr(spec.name.c_str()) = param_object(params, spec);
  cls.attr("__init__")(instance);
  return instance;
}

// file:line of the class's choose (where a wrong answer is reported).
std::string choose_site(const py::object& cls, const ExternalProgram& ref) {
  const py::object site =
      py::module_::import("mmsim._program").attr("attribute_site")(cls, "choose");
  const auto [file, line] = site.cast<std::tuple<std::string, int>>();
  if (file.empty()) return ref.file.string();
  return line ? fmt::format("{}:{}", file, line) : file;
}

std::shared_ptr<const OwnPolicyCode> code_of(const py::object& cls, const OwnCodeRef& ref) {
  const std::shared_ptr<OwnPolicyCode> code = python_code<OwnPolicyCode>(cls, ref);
  code->site = choose_site(cls, ref.code);
  code->make = [cls, code = code.get()](const OwnPolicyArgs& args, const ParamValues& params,
                                        const OwnCodeRef& at) {
    return constructed(at, code->name, [&]() -> std::unique_ptr<OwnPolicy> {
      return std::make_unique<PythonPolicy>(policy_instance(cls, *code, args, params), *code, at,
                                            args.units);
    });
  };
  return code;
}

}  // namespace

void bind_policies(py::module_& module) {
  bind_own_code(module, policy_loaders(), policy_class, code_of, "own_policies", "policy");
}

}  // namespace mmsim
